import { insertRow, insertRows } from 'src/common/database/insert-rows';
import { BadRequestException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { lockingClause } from 'src/common/database/locks';
import { holdsPermissionNamed, type CurrentUser } from 'src/common/types/current-user';
import { BIGINT, fitsColumn } from 'src/common/validation/integers';
import { cdniConfig, type CdniConfig } from 'src/config/cdni.config';
import { UsersService } from 'src/modules/users/users.service';
import { CdniTokenError, verifyHs256 } from './cdni-token';
import { AsyncStatus, CdniCapabilityUpdate } from './cdni.entity';
import { rfc3339 } from 'src/common/wire/by-version';
import type {
  AsyncStatusV4,
  CdniAdvertisementWire,
  CdniCapacityCapabilityWire,
  CdniConfigurationRequestV4,
  CdniFootprintWire,
  CdniLimitWire,
  CdniTelemetryCapabilityWire,
  CdniTelemetrySourceWire,
} from './dto/cdni.response';
import { UnitOfWork } from 'src/common/database/unit-of-work';

/** Where the original says a queued request's progress can be read (its `CurrentAsyncEndpoint`). */
export const ASYNC_STATUS_ENDPOINT = '/api/4.0/async_status/';

/** The request type a host's configuration update is queued with. */
export const HOST_CONFIG_UPDATE = 'hostConfigUpdate';

/** The one generic metadata type an approval can apply. */
const REQUESTED_CAPACITY_LIMITS = 'MI.RequestedCapacityLimits';

/** The permission that lets a user without a uCDN act for the one named by `?ucdn=`. */
const UCDN_OVERRIDE = 'ICDN:UCDN-OVERRIDE';

/** What a request carries for the uCDN check: its token and its `ucdn` query parameter. */
export interface CdniCredentials {
  token: string;
  ucdnParam: string;
}

/** A requested limit as the original reads it from a queued request (`CapacityLimit`). */
interface RequestedLimit {
  limitType: string;
  limitValue: number;
  footprints: { type: string; value: string[] }[];
}

interface FootprintRow {
  capability_id: number | string;
  footprint_type: string;
  footprint_value: string;
  ucdn?: string;
}

/** A JSON array of strings kept in a text column (the original's `text[]`). */
function stringArray(text: string | null): string[] | null {
  if (text === null) {
    return null;
  }
  const value: unknown = JSON.parse(text);
  if (!Array.isArray(value) || !value.every((entry) => typeof entry === 'string')) {
    throw new Error(`not a JSON array of strings: ${text}`);
  }
  return value;
}

/** Go's `%v` of a footprint (`{ipv4cidr [a b] 0}`: the capability id is never read from JSON). */
const goFootprint = (f: { type: string; value: string[] }): string => `{${f.type} [${f.value.join(' ')}] 0}`;
const goFootprints = (fs: { type: string; value: string[] }[]): string =>
  `[${fs.map(goFootprint).join(' ')}]`;
const goLimit = (l: RequestedLimit): string =>
  `{${l.limitType} ${l.limitValue} ${goFootprints(l.footprints)}}`;

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** A refusal to apply a queued request whose data cannot be read (the original fails with 500). */
function unreadable(problem: string): BadRequestException {
  return new BadRequestException(`unmarshalling data for configuration update: ${problem}`);
}

/** A JSON string field as Go decodes it into a string: absent or null is ''. */
function goString(value: unknown, name: string): string {
  if (value === undefined || value === null) {
    return '';
  }
  if (typeof value !== 'string') {
    throw unreadable(`${name} must be a string`);
  }
  return value;
}

/** A JSON array field as Go decodes it into a slice: absent or null is empty. */
function goArray(value: unknown, name: string): unknown[] {
  if (value === undefined || value === null) {
    return [];
  }
  if (!Array.isArray(value)) {
    throw unreadable(`${name} must be an array`);
  }
  return value;
}

/** The requested limits of an `MI.RequestedCapacityLimits` value (`CapacityRequestedLimits`). */
function requestedLimits(value: unknown): RequestedLimit[] {
  if (value === undefined || value === null) {
    return [];
  }
  if (!isObject(value)) {
    throw unreadable('generic-metadata-value must be an object');
  }
  return goArray(value['requested-limits'], 'requested-limits').map((raw) => {
    if (raw !== null && !isObject(raw)) {
      throw unreadable('a requested limit must be an object');
    }
    const limit = raw ?? {};
    const limitValue = limit['limit-value'] ?? 0;
    if (!fitsColumn(limitValue, BIGINT)) {
      throw unreadable(`limit-value must be an integer between ${BIGINT.min} and ${BIGINT.max}`);
    }
    return {
      limitType: goString(limit['limit-type'], 'limit-type'),
      limitValue,
      footprints: goArray(limit.footprints, 'footprints').map((rawFootprint) => {
        if (rawFootprint !== null && !isObject(rawFootprint)) {
          throw unreadable('a footprint must be an object');
        }
        const footprint = rawFootprint ?? {};
        return {
          type: goString(footprint['footprint-type'], 'footprint-type'),
          value: goArray(footprint['footprint-value'], 'footprint-value').map((entry) =>
            goString(entry, 'footprint-value'),
          ),
        };
      }),
    };
  });
}

/**
 * CDN interconnection (docs/original-behaviour.md#cdni): the advertisement a uCDN reads, the
 * configuration changes it asks for, queued, and their approval or denial by an administrator.
 */
@Injectable()
export class CdniService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    @InjectDataSource() private readonly dataSource: DataSource,
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
    const capabilities = await this.dataSource.query<{ id: number | string; type: string }[]>(
      'SELECT id, type FROM cdni_capabilities WHERE ucdn = ? AND type IN (?, ?) ORDER BY id',
      [ucdn, 'FCI.CapacityLimits', 'FCI.Telemetry'],
    );
    const footprints = await this.footprintsByCapability();
    const capacity: CdniCapacityCapabilityWire[] = [];
    const telemetry: CdniTelemetryCapabilityWire[] = [];
    const limits = await this.limitsByCapability();
    const sources = await this.telemetryByCapability();
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
    if (!(await this.hostInScopes(this.dataSource.manager, host))) {
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
      const asyncStatusId = await insertRow(manager, AsyncStatus, {
        status: 'PENDING',
        message: statusMessage,
      });
      await insertRows(manager, CdniCapabilityUpdate, {
        ucdn: request.ucdn,
        data: JSON.stringify(request.data),
        asyncStatusId,
        requestType: request.requestType,
        host: request.host,
      });
      return asyncStatusId;
    });
  }

  /** GET async_status/{id}: a queued request's progress; unknown: 404 `Not Found`, as the original. */
  async asyncStatus(id: number): Promise<AsyncStatusV4> {
    const found = await this.dataSource.getRepository(AsyncStatus).findOneBy({ id });
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
    const select = 'SELECT id, ucdn, data, request_type, host, async_status_id FROM cdni_capability_updates';
    let rows: Record<string, unknown>[];
    if (rawId !== undefined && rawId !== '') {
      if (!/^[+-]?\d+$/.test(rawId)) {
        throw new BadRequestException('id must be an integer');
      }
      rows = await this.dataSource.query(`${select} WHERE id = ? ORDER BY id`, [Number(rawId)]);
    } else {
      rows = await this.dataSource.query(`${select} ORDER BY id`);
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
      const found = await manager.query<
        { data: string; async_status_id: number | string; host: string | null; ucdn: string }[]
      >(
        `SELECT data, async_status_id, host, ucdn FROM cdni_capability_updates WHERE id = ?${lockingClause(this.dataSource, 'write')}`,
        [id],
      );
      if (found.length === 0) {
        throw new NotFoundException('no configuration request for that id');
      }
      const request = found[0];
      const asyncStatusId = Number(request.async_status_id);
      if (!approved) {
        await this.finish(
          manager,
          asyncStatusId,
          'FAILED',
          'Requested configuration update has been denied.',
        );
        await manager.query('DELETE FROM cdni_capability_updates WHERE id = ?', [id]);
        return 'Successfully denied configuration update request.';
      }
      const updates = this.genericMetadata(request.data);
      const host = request.host ?? '';
      for (const update of updates) {
        for (const limit of requestedLimits(update.value)) {
          const capabilityId = await this.capabilityMatching(manager, request.ucdn, limit);
          await this.setMaximumHard(manager, capabilityId, limit, host, update.type);
        }
      }
      await this.finish(manager, asyncStatusId, 'SUCCEEDED', 'Capacity requested update has been completed.');
      await manager.query('DELETE FROM cdni_capability_updates WHERE id = ?', [id]);
      return 'Successfully updated configuration.';
    });
  }

  /** The request's data as a list of generic metadata, every type one an approval can apply. */
  private genericMetadata(data: string): { type: string; value: unknown }[] {
    const list = goArray(JSON.parse(data), 'data').map((entry) => {
      if (entry !== null && !isObject(entry)) {
        throw unreadable('data must be a list of generic metadata objects');
      }
      const item = entry ?? {};
      return {
        type: goString(item['generic-metadata-type'], 'generic-metadata-type'),
        value: item['generic-metadata-value'],
      };
    });
    const unsupported = list.map((item) => item.type).filter((type) => type !== REQUESTED_CAPACITY_LIMITS);
    if (unsupported.length > 0) {
      throw new BadRequestException(`unsupported generic metadata types found: ${unsupported.join(', ')}`);
    }
    return list;
  }

  /**
   * The one capability whose footprints are exactly those of the limit: each requested footprint is
   * one of the capability's (for the uCDN, same type, same values in order) and it has no other.
   */
  private async capabilityMatching(
    manager: EntityManager,
    ucdn: string,
    limit: RequestedLimit,
  ): Promise<number> {
    const rows = await manager.query<FootprintRow[]>(
      'SELECT capability_id, footprint_type, footprint_value, ucdn FROM cdni_footprints ORDER BY id',
    );
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
    manager: EntityManager,
    capabilityId: number,
    limit: RequestedLimit,
    host: string,
    type: string,
  ): Promise<void> {
    const candidates = await manager.query<{ id: number | string; scope_value: string | null }[]>(
      `SELECT id, scope_value FROM cdni_limits WHERE capability_id = ? AND limit_type = ?${lockingClause(this.dataSource, 'write')}`,
      [capabilityId, limit.limitType],
    );
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
    await manager.query('UPDATE cdni_limits SET maximum_hard = ? WHERE id = ?', [
      limit.limitValue,
      Number(chosen[0].id),
    ]);
  }

  private async finish(manager: EntityManager, id: number, status: string, message: string): Promise<void> {
    await manager
      .createQueryBuilder()
      .update(AsyncStatus)
      .set({ status, message, endTime: () => 'CURRENT_TIMESTAMP' })
      .where('id = :id', { id })
      .execute();
  }

  /** Whether some limit's scope lists the host (the scopes are JSON text: a text search, then a check). */
  private async hostInScopes(manager: EntityManager, host: string): Promise<boolean> {
    const rows = await manager.query<{ scope_value: string }[]>(
      'SELECT scope_value FROM cdni_limits WHERE scope_value IS NOT NULL AND INSTR(scope_value, ?) > 0',
      [JSON.stringify(host).slice(1, -1)],
    );
    return rows.some((row) => (stringArray(row.scope_value) ?? []).includes(host));
  }

  private async footprintsByCapability(): Promise<Map<number, CdniFootprintWire[]>> {
    const rows = await this.dataSource.query<FootprintRow[]>(
      'SELECT capability_id, footprint_type, footprint_value FROM cdni_footprints ORDER BY id',
    );
    const byCapability = new Map<number, CdniFootprintWire[]>();
    for (const row of rows) {
      const id = Number(row.capability_id);
      byCapability.set(id, [
        ...(byCapability.get(id) ?? []),
        { 'footprint-type': row.footprint_type, 'footprint-value': stringArray(row.footprint_value) ?? [] },
      ]);
    }
    return byCapability;
  }

  private async limitsByCapability(): Promise<Map<number, CdniLimitWire[]>> {
    const rows = await this.dataSource.query<Record<string, unknown>[]>(
      'SELECT limit_id, scope_type, scope_value, limit_type, maximum_hard, maximum_soft, telemetry_id, ' +
        'telemetry_metric, capability_id FROM cdni_limits ORDER BY id',
    );
    const byCapability = new Map<number, CdniLimitWire[]>();
    for (const row of rows) {
      const id = Number(row.capability_id);
      const limit: CdniLimitWire = {
        id: row.limit_id as string,
        ...(row.scope_type === null
          ? {}
          : {
              scope: { type: row.scope_type as string, value: stringArray(row.scope_value as string | null) },
            }),
        'limit-type': row.limit_type as string,
        'maximum-hard': Number(row.maximum_hard),
        'maximum-soft': Number(row.maximum_soft),
        'telemetry-source': { id: row.telemetry_id as string, metric: row.telemetry_metric as string },
      };
      byCapability.set(id, [...(byCapability.get(id) ?? []), limit]);
    }
    return byCapability;
  }

  private async telemetryByCapability(): Promise<Map<number, CdniTelemetrySourceWire[]>> {
    const sources = await this.dataSource.query<Record<string, unknown>[]>(
      'SELECT id, type, capability_id, configuration_url FROM cdni_telemetry ORDER BY id',
    );
    const metrics = await this.dataSource.query<Record<string, unknown>[]>(
      'SELECT name, time_granularity, data_percentile, latency, telemetry_id FROM cdni_telemetry_metrics ORDER BY name',
    );
    const byCapability = new Map<number, CdniTelemetrySourceWire[]>();
    for (const source of sources) {
      const id = Number(source.capability_id);
      byCapability.set(id, [
        ...(byCapability.get(id) ?? []),
        {
          id: source.id as string,
          type: source.type as string,
          metrics: metrics
            .filter((metric) => metric.telemetry_id === source.id)
            .map((metric) => ({
              name: metric.name as string,
              'time-granularity': Number(metric.time_granularity),
              'data-percentile': Number(metric.data_percentile),
              latency: Number(metric.latency),
            })),
          configuration: { url: source.configuration_url as string },
        },
      ]);
    }
    return byCapability;
  }
}
