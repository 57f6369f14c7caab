import { BadRequestException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { holdsPermissionNamed, type CurrentUser } from 'src/common/types/current-user';
import { cdniConfig, type CdniConfig } from 'src/config/cdni.config';
import { UsersService } from 'src/modules/users/users.service';
import { CdniTokenError, verifyHs256 } from './cdni-token';
import { rfc3339 } from 'src/common/wire/by-version';
import type {
  AsyncStatusV4,
  CdniAdvertisementWire,
  CdniCapacityCapabilityWire,
  CdniConfigurationRequestV4,
  CdniTelemetryCapabilityWire,
} from './dto/cdni.response';
import { type TransactionManager, UnitOfWork } from 'src/common/database/unit-of-work';
import { footprintsByCapability, limitsByCapability, telemetryByCapability } from './cdni-advertisement';
import {
  genericMetadata,
  goFootprints,
  goLimit,
  type RequestedLimit,
  requestedLimits,
  stringArray,
} from './cdni-metadata';
import { CdniRepository } from './cdni.repository';

/** Where the original says a queued request's progress can be read (its `CurrentAsyncEndpoint`). */
export const ASYNC_STATUS_ENDPOINT = '/api/4.0/async_status/';

/** The request type a host's configuration update is queued with. */
export const HOST_CONFIG_UPDATE = 'hostConfigUpdate';

/** The permission that lets a user without a uCDN act for the one named by `?ucdn=`. */
const UCDN_OVERRIDE = 'ICDN:UCDN-OVERRIDE';

/** What a request carries for the uCDN check: its token and its `ucdn` query parameter. */
export interface CdniCredentials {
  token: string;
  ucdnParam: string;
}

/**
 * CDN interconnection (docs/original-behaviour.md#cdni): the advertisement a uCDN reads, the
 * configuration changes it asks for, queued, and their approval or denial by an administrator.
 */
@Injectable()
export class CdniService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly cdni: CdniRepository,
    @Inject(cdniConfig.KEY) private readonly config: CdniConfig,
    private readonly users: UsersService,
  ) {}

  /**
   * The uCDN a request acts for, as the original's checkBearerToken decides it: a token signed with
   * the CDNi key, not expired, whose audience names this dCDN and whose issuer is the user's uCDN; a
   * user without a uCDN who holds `ICDN:UCDN-OVERRIDE` names it with `?ucdn=`. Every refusal is a 400.
   * Without the CDNi settings, a 500 as the original's (its cause logged, never sent).
   */
  async ucdnOf(credentials: CdniCredentials, user: CurrentUser): Promise<string> {
    const { dcdnId, jwtSecret } = this.config;
    if (dcdnId === undefined || jwtSecret === undefined) {
      throw new Error('CDNi is not configured: set CDNI_DCDN_ID and CDNI_JWT_DECODING_SECRET');
    }
    if (credentials.token === '') {
      throw new BadRequestException('bearer token is required');
    }
    let claims;
    try {
      claims = verifyHs256(credentials.token, jwtSecret);
    } catch (error) {
      if (error instanceof CdniTokenError) {
        throw new BadRequestException(`invalid token: ${error.message}`);
      }
      throw error;
    }
    if (claims.expiration === undefined || claims.expiration < Math.floor(Date.now() / 1000)) {
      throw new BadRequestException('token is expired');
    }
    if (claims.audience.length === 0) {
      throw new BadRequestException('invalid token - dcdn must be defined in audience claim');
    }
    if (claims.audience[0] !== dcdnId) {
      throw new BadRequestException('invalid token - incorrect dcdn');
    }
    const userUcdn = (await this.users.findWithRelations(user.id)).ucdn ?? '';
    if (claims.issuer !== userUcdn) {
      throw new BadRequestException('user ucdn did not match token ucdn');
    }
    if (claims.issuer !== '') {
      return claims.issuer;
    }
    if (!holdsPermissionNamed(user, UCDN_OVERRIDE)) {
      throw new BadRequestException('invalid token - empty ucdn field');
    }
    if (credentials.ucdnParam === '') {
      throw new BadRequestException('admin level ucdn requests require a ucdn query parameter');
    }
    return credentials.ucdnParam;
  }

  /** GET OC/FCI/advertisement: the uCDN's capacity capabilities, then its telemetry capabilities. */
  async advertisement(ucdn: string): Promise<CdniAdvertisementWire> {
    const capabilities = await this.cdni.capabilities(ucdn);
    const footprints = footprintsByCapability(await this.cdni.footprints());
    const capacity: CdniCapacityCapabilityWire[] = [];
    const telemetry: CdniTelemetryCapabilityWire[] = [];
    const limits = limitsByCapability(await this.cdni.limits());
    const sources = telemetryByCapability(
      await this.cdni.telemetrySources(),
      await this.cdni.telemetryMetrics(),
    );
    for (const row of capabilities) {
      const id = Number(row.id);
      if (row.type === 'FCI.CapacityLimits') {
        capacity.push({
          'capability-type': 'FCI.CapacityLimits',
          'capability-value': [{ limits: limits.get(id) ?? [] }],
          footprints: footprints.get(id) ?? [],
        });
      } else {
        telemetry.push({
          'capability-type': 'FCI.Telemetry',
          'capability-value': { sources: sources.get(id) ?? [] },
          footprints: footprints.get(id) ?? [],
        });
      }
    }
    return { capabilities: [...capacity, ...telemetry] };
  }

  /** PUT OC/CI/configuration/{host}: the host must be in some limit's scope, else 400. */
  async assertHostExists(host: string): Promise<void> {
    if (!(await this.hostInScopes(host))) {
      throw new BadRequestException(`No data found for host: ${host}`);
    }
  }

  /**
   * Queues a configuration change and its PENDING status, in one transaction; answers the status's
   * id. `data` is kept as the uCDN sent it.
   */
  async queue(
    request: { ucdn: string; data: unknown; requestType: string; host: string },
    statusMessage: string,
  ): Promise<number> {
    return this.unitOfWork.run(async (manager) => {
      const asyncStatusId = await this.cdni.addPendingStatus(manager, statusMessage);
      await this.cdni.addRequest(manager, asyncStatusId, {
        ucdn: request.ucdn,
        data: JSON.stringify(request.data),
        requestType: request.requestType,
        host: request.host,
      });
      return asyncStatusId;
    });
  }

  /** GET async_status/{id}: a queued request's progress; unknown: 404 `Not Found`, as the original. */
  async asyncStatus(id: number): Promise<AsyncStatusV4> {
    const found = await this.cdni.asyncStatus(id);
    if (!found) {
      throw new NotFoundException('Not Found');
    }
    return {
      id: found.id,
      status: found.status,
      start_time: rfc3339(found.startTime),
      ...(found.endTime === null ? {} : { end_time: rfc3339(found.endTime) }),
      ...(found.message === null ? {} : { message: found.message }),
    };
  }

  /** GET OC/CI/configuration/requests[?id=]: the queued requests, oldest first. */
  async requests(rawId: string | undefined): Promise<CdniConfigurationRequestV4[]> {
    let rows: Record<string, unknown>[];
    if (rawId !== undefined && rawId !== '') {
      if (!/^[+-]?\d+$/.test(rawId)) {
        throw new BadRequestException('id must be an integer');
      }
      rows = await this.cdni.requests(Number(rawId));
    } else {
      rows = await this.cdni.requests();
    }
    return rows.map((row) => ({
      id: Number(row.id),
      ucdn: row.ucdn as string,
      data: JSON.parse(row.data as string) as unknown,
      host: (row.host as string | null) ?? '',
      requestType: row.request_type as string,
      asyncStatusId: Number(row.async_status_id),
    }));
  }

  /**
   * PUT OC/CI/configuration/request/{id}/{approved}: denies (drops the request, its status FAILED) or
   * applies the requested capacity limits (each to exactly one limit), its status SUCCEEDED — all in
   * one transaction, so a refusal changes nothing. Answers the original's message.
   */
  async respond(id: number, approved: boolean): Promise<string> {
    return this.unitOfWork.run(async (manager) => {
      const request = await this.cdni.lockedRequest(manager, id);
      if (!request) {
        throw new NotFoundException('no configuration request for that id');
      }
      const asyncStatusId = Number(request.async_status_id);
      if (!approved) {
        await this.finish(
          manager,
          asyncStatusId,
          'FAILED',
          'Requested configuration update has been denied.',
        );
        await this.cdni.removeRequest(manager, id);
        return 'Successfully denied configuration update request.';
      }
      const updates = genericMetadata(request.data);
      const host = request.host ?? '';
      for (const update of updates) {
        for (const limit of requestedLimits(update.value)) {
          const capabilityId = await this.capabilityMatching(manager, request.ucdn, limit);
          await this.setMaximumHard(manager, capabilityId, limit, host, update.type);
        }
      }
      await this.finish(manager, asyncStatusId, 'SUCCEEDED', 'Capacity requested update has been completed.');
      await this.cdni.removeRequest(manager, id);
      return 'Successfully updated configuration.';
    });
  }

  /**
   * The one capability whose footprints are exactly those of the limit: each requested footprint is
   * one of the capability's (for the uCDN, same type, same values in order) and it has no other.
   */
  private async capabilityMatching(
    manager: TransactionManager,
    ucdn: string,
    limit: RequestedLimit,
  ): Promise<number> {
    const rows = await this.cdni.footprintsWithUcdn(manager);
    const all = new Map<number, number>();
    const ofUcdn = new Map<number, { type: string; value: string }[]>();
    for (const row of rows) {
      const capabilityId = Number(row.capability_id);
      all.set(capabilityId, (all.get(capabilityId) ?? 0) + 1);
      if (row.ucdn === ucdn) {
        const value = JSON.stringify(stringArray(row.footprint_value));
        ofUcdn.set(capabilityId, [...(ofUcdn.get(capabilityId) ?? []), { type: row.footprint_type, value }]);
      }
    }
    const matching = [...ofUcdn.entries()]
      .filter(
        ([capabilityId, footprints]) =>
          limit.footprints.length > 0 &&
          all.get(capabilityId) === limit.footprints.length &&
          limit.footprints.every((wanted) =>
            footprints.some((f) => f.type === wanted.type && f.value === JSON.stringify(wanted.value)),
          ),
      )
      .map(([capabilityId]) => capabilityId);
    if (matching.length === 0) {
      throw new NotFoundException(
        `no capabilities found that match all footprints: ${goFootprints(limit.footprints)}`,
      );
    }
    if (matching.length > 1) {
      throw new BadRequestException(
        `more than 1 capability found that match all footprints: ${goFootprints(limit.footprints)}`,
      );
    }
    return matching[0];
  }

  /**
   * Sets `maximum_hard` of the capability's limit of that type (of the host's scope, for a host's
   * request): exactly one limit must match.
   */
  private async setMaximumHard(
    manager: TransactionManager,
    capabilityId: number,
    limit: RequestedLimit,
    host: string,
    type: string,
  ): Promise<void> {
    const candidates = await this.cdni.lockedLimits(manager, capabilityId, limit.limitType);
    const chosen = candidates.filter(
      (candidate) => host === '' || (stringArray(candidate.scope_value) ?? []).includes(host),
    );
    if (chosen.length === 0) {
      throw new NotFoundException(
        `no capacity found for update: host: ${host}, type: ${type}, limit: ${goLimit(limit)}`,
      );
    }
    if (chosen.length > 1) {
      throw new BadRequestException(`capacity update affected too many rows: ${chosen.length}`);
    }
    await this.cdni.setMaximumHard(manager, Number(chosen[0].id), limit.limitValue);
  }

  private async finish(
    manager: TransactionManager,
    id: number,
    status: string,
    message: string,
  ): Promise<void> {
    await this.cdni.finishStatus(manager, id, status, message);
  }

  /** Whether some limit's scope lists the host (the scopes are JSON text: a text search, then a check). */
  private async hostInScopes(host: string): Promise<boolean> {
    const rows = await this.cdni.scopesContaining(JSON.stringify(host).slice(1, -1));
    return rows.some((row) => (stringArray(row.scope_value) ?? []).includes(host));
  }
}
