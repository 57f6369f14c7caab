import { BadRequestException, ForbiddenException, Injectable, NotFoundException } from '@nestjs/common';
import type { ListQuery } from 'src/common/list-query/list-query';
import { toDate } from 'src/common/time/timestamps';
import type { CurrentUser } from 'src/common/types/current-user';
import { NOT_AUTHORIZED_ON_TENANT, TenancyService } from 'src/modules/tenants/tenancy.service';
import type { OriginV3Dto, OriginV5Dto } from './origin.dto';
import type { OriginRow } from './origin.response';
import { OriginsRepository, type OriginColumns, type RawOrigin } from './origins.repository';

export type OriginBody = OriginV3Dto | OriginV5Dto;

const intOrNull = (v: number | string | null): number | null => (v === null ? null : Number(v));

/**
 * The origins of delivery services through `origins` (docs/original-behaviour.md#origins); the
 * primary origin of a delivery service is written by the delivery service itself
 * (docs/decisions.md#d82). Writes check the original's tenancy: the body's tenant and its delivery
 * service's tenant, and the tenant of the origin being changed.
 */
/**
 * What differs between the versions of the origin routes, in the service's terms; the controller
 * picks it per version (src/common/versioning/per-version.ts).
 */
export interface OriginRules {
  /** The text of a missing origin. */
  notFound: (id: number) => string;
  /**
   * A delete's checks: the primary flag, then the origin's and its delivery service's tenancy (the
   * update's `checkTenancy`); or the origin's own tenant, then the primary flag.
   */
  deleteChecks: 'primary, then both tenancies' | "origin's tenant, then primary";
}

@Injectable()
export class OriginsService {
  constructor(
    private readonly origins: OriginsRepository,
    private readonly tenancy: TenancyService,
  ) {}

  async list(query: ListQuery, user: CurrentUser): Promise<OriginRow[]> {
    return (await this.origins.list(query, user.tenantId)).map(toRow);
  }

  async create(body: OriginBody, user: CurrentUser): Promise<OriginRow> {
    await this.checkTenancy(body.tenantId, body.deliveryServiceId, user);
    return this.findOrFail(await this.origins.add(values(body)));
  }

  /** The original's order: the origin's own tenancy, the body's, existence, the primary's rule. */
  async update(id: number, body: OriginBody, user: CurrentUser, rules: OriginRules): Promise<OriginRow> {
    const current = await this.origins.lockedById(id);
    if (current?.tenantId !== null && current?.tenantId !== undefined) {
      if (!(await this.tenancy.isWithinReach(user.tenantId, current.tenantId))) {
        throw new ForbiddenException(NOT_AUTHORIZED_ON_TENANT);
      }
    }
    await this.checkTenancy(body.tenantId, body.deliveryServiceId, user);
    if (!current) {
      throw new NotFoundException(rules.notFound(id));
    }
    if (current.isPrimary && current.deliveryServiceId !== body.deliveryServiceId) {
      throw new BadRequestException('cannot update the delivery service of a primary origin');
    }
    await this.origins.change(id, values(body));
    return this.findOrFail(id);
  }

  /** A primary origin goes only with its delivery service's `orgServerFqdn`. */
  async remove(id: number, user: CurrentUser, rules: OriginRules): Promise<void> {
    const current = await this.origins.lockedById(id);
    if (!current) {
      throw new NotFoundException(rules.notFound(id));
    }
    if (rules.deleteChecks === 'primary, then both tenancies') {
      if (current.isPrimary) {
        throw new BadRequestException('cannot delete a primary origin');
      }
      await this.checkTenancy(current.tenantId, current.deliveryServiceId, user);
    } else {
      if (current.tenantId !== null && !(await this.tenancy.isWithinReach(user.tenantId, current.tenantId))) {
        throw new ForbiddenException(NOT_AUTHORIZED_ON_TENANT);
      }
      if (current.isPrimary) {
        throw new BadRequestException('cannot delete a primary origin');
      }
    }
    await this.origins.remove(id);
  }

  /** The original's `checkTenancy`: the origin's tenant, then its delivery service's. */
  private async checkTenancy(
    tenantId: number | null | undefined,
    deliveryServiceId: number,
    user: CurrentUser,
  ): Promise<void> {
    if (tenantId === null || tenantId === undefined) {
      throw new ForbiddenException('tenancy is enabled but request tenantID is nil');
    }
    if (!(await this.tenancy.isWithinReach(user.tenantId, tenantId))) {
      throw new ForbiddenException('user not authorized for requested tenant');
    }
    const deliveryServiceTenant = await this.origins.deliveryServiceTenant(deliveryServiceId);
    if (deliveryServiceTenant === undefined) {
      throw new BadRequestException('checking tenancy: requested delivery service does not exist');
    }
    if (!(await this.tenancy.isWithinReach(user.tenantId, deliveryServiceTenant))) {
      throw new ForbiddenException('user not authorized for requested delivery service tenant');
    }
  }

  private async findOrFail(id: number): Promise<OriginRow> {
    const raw = await this.origins.byId(id);
    if (!raw) {
      throw new NotFoundException('origin not found');
    }
    return toRow(raw);
  }
}

/** The columns a body writes; the original's enum refuses a protocol not written in lower case. */
function values(body: OriginBody): OriginColumns {
  if (body.protocol !== 'http' && body.protocol !== 'https') {
    throw new BadRequestException(`invalid enum value ${body.protocol} for field origin_protocol.`);
  }
  return {
    name: body.name,
    fqdn: body.fqdn,
    protocol: body.protocol,
    port: body.port ?? null,
    ipAddress: body.ipAddress ?? null,
    ip6Address: body.ip6Address ?? null,
    deliveryServiceId: body.deliveryServiceId,
    cachegroupId: body.cachegroupId ?? null,
    coordinateId: body.coordinateId ?? null,
    profileId: body.profileId ?? null,
    tenantId: body.tenantId ?? null,
  };
}

function toRow(raw: RawOrigin): OriginRow {
  return {
    id: Number(raw.id),
    name: raw.name,
    fqdn: raw.fqdn,
    protocol: raw.protocol,
    isPrimary: raw.isPrimary === true || Number(raw.isPrimary) === 1,
    port: intOrNull(raw.port),
    ipAddress: raw.ipAddress,
    ip6Address: raw.ip6Address,
    deliveryServiceId: Number(raw.deliveryServiceId),
    deliveryService: raw.deliveryService,
    cachegroupId: intOrNull(raw.cachegroupId),
    cachegroup: raw.cachegroup,
    coordinateId: intOrNull(raw.coordinateId),
    coordinate: raw.coordinate,
    profileId: intOrNull(raw.profileId),
    profile: raw.profile,
    tenantId: intOrNull(raw.tenantId),
    tenant: raw.tenant,
    lastUpdated: toDate(raw.lastUpdated),
  };
}
