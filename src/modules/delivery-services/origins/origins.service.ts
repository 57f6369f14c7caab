import { insertRow } from 'src/common/database/insert-rows';
import { BadRequestException, ForbiddenException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type SelectQueryBuilder } from 'typeorm';
import { writeLock } from 'src/common/database/locks';
import { applyListQuery, type ListQuery } from 'src/common/list-query/list-query';
import { toDate } from 'src/common/time/timestamps';
import type { CurrentUser } from 'src/common/types/current-user';
import { NOT_AUTHORIZED_ON_TENANT, TenancyService } from 'src/modules/tenants/tenancy.service';
import { withinTenancy } from 'src/modules/tenants/tenants.repository';
import type { OriginV3Dto, OriginV5Dto } from './origin.dto';
import type { OriginRow } from './origin.response';
import { Origin } from './origin.entity';

export type OriginBody = OriginV3Dto | OriginV5Dto;

interface RawOrigin {
  id: number | string;
  name: string;
  fqdn: string;
  protocol: string;
  isPrimary: number | string | boolean;
  port: number | string | null;
  ipAddress: string | null;
  ip6Address: string | null;
  deliveryServiceId: number | string;
  deliveryService: string;
  cachegroupId: number | string | null;
  cachegroup: string | null;
  coordinateId: number | string | null;
  coordinate: string | null;
  profileId: number | string | null;
  profile: string | null;
  tenantId: number | string | null;
  tenant: string | null;
  lastUpdated: Date | string;
}

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
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly tenancy: TenancyService,
  ) {}

  async list(query: ListQuery, user: CurrentUser): Promise<OriginRow[]> {
    const qb = withinTenancy(this.select(), 'o.tenant', user.tenantId);
    return (await applyListQuery(qb, query).getRawMany<RawOrigin>()).map(toRow);
  }

  async create(body: OriginBody, user: CurrentUser): Promise<OriginRow> {
    await this.checkTenancy(body.tenantId, body.deliveryServiceId, user);
    return this.findOrFail(await insertRow(this.dataSource.manager, Origin, values(body)));
  }

  /** The original's order: the origin's own tenancy, the body's, existence, the primary's rule. */
  async update(id: number, body: OriginBody, user: CurrentUser, rules: OriginRules): Promise<OriginRow> {
    const current = await this.dataSource
      .getRepository(Origin)
      .findOne({ where: { id }, lock: writeLock(this.dataSource) });
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
    await this.dataSource.getRepository(Origin).update({ id }, values(body));
    return this.findOrFail(id);
  }

  /** A primary origin goes only with its delivery service's `orgServerFqdn`. */
  async remove(id: number, user: CurrentUser, rules: OriginRules): Promise<void> {
    const current = await this.dataSource
      .getRepository(Origin)
      .findOne({ where: { id }, lock: writeLock(this.dataSource) });
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
    await this.dataSource.getRepository(Origin).delete({ id });
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
    const rows = await this.dataSource.query<{ tenantId: number | string }[]>(
      'SELECT tenant_id AS tenantId FROM deliveryservice WHERE id = ?',
      [deliveryServiceId],
    );
    if (rows.length === 0) {
      throw new BadRequestException('checking tenancy: requested delivery service does not exist');
    }
    if (!(await this.tenancy.isWithinReach(user.tenantId, Number(rows[0].tenantId)))) {
      throw new ForbiddenException('user not authorized for requested delivery service tenant');
    }
  }

  private async findOrFail(id: number): Promise<OriginRow> {
    const raw = await this.select().where('o.id = :id', { id }).getRawOne<RawOrigin>();
    if (!raw) {
      throw new NotFoundException('origin not found');
    }
    return toRow(raw);
  }

  private select(): SelectQueryBuilder<Origin> {
    return this.dataSource
      .getRepository(Origin)
      .createQueryBuilder('o')
      .innerJoin('deliveryservice', 'd', 'd.id = o.deliveryservice')
      .leftJoin('cachegroup', 'cg', 'cg.id = o.cachegroup')
      .leftJoin('coordinate', 'c', 'c.id = o.coordinate')
      .leftJoin('profile', 'p', 'p.id = o.profile')
      .leftJoin('tenant', 't', 't.id = o.tenant')
      .select([
        'o.id AS id',
        'o.name AS name',
        'o.fqdn AS fqdn',
        'o.protocol AS protocol',
        'o.is_primary AS isPrimary',
        'o.port AS port',
        'o.ip_address AS ipAddress',
        'o.ip6_address AS ip6Address',
        'o.deliveryservice AS deliveryServiceId',
        'd.xml_id AS deliveryService',
        'o.cachegroup AS cachegroupId',
        'cg.name AS cachegroup',
        'o.coordinate AS coordinateId',
        'c.name AS coordinate',
        'o.profile AS profileId',
        'p.name AS profile',
        'o.tenant AS tenantId',
        't.name AS tenant',
        'o.last_updated AS lastUpdated',
      ]);
  }
}

/** The columns a body writes; the original's enum refuses a protocol not written in lower case. */
function values(body: OriginBody) {
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
