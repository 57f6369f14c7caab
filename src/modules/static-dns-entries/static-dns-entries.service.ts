import { insertRow } from 'src/common/database/insert-rows';
import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type SelectQueryBuilder } from 'typeorm';
import { writeLock } from 'src/common/database/locks';
import { applyListQuery, type ListQuery } from 'src/common/list-query/list-query';
import { toDate } from 'src/common/time/timestamps';
import type { CurrentUser } from 'src/common/types/current-user';
import type { ApiVersion } from 'src/common/versioning/api-version';
import { CdnLocksService } from 'src/modules/cdn-locks/cdn-locks.service';
import { TenancyService, withinTenancy } from 'src/modules/tenants/tenancy.service';
import { StaticDnsEntryDto } from './dto/static-dns-entry.dto';
import type { CRConfigStaticDnsEntry, StaticDnsEntryRow } from './dto/static-dns-entry.response';
import { StaticDnsEntry } from './static-dns-entry.entity';
import { staticDnsEntryProblems } from './static-dns-entry.rules';

/** The original's texts for an entry that is not there, by operation. */
export const ENTRY_NOT_FOUND_FOR_UPDATE = 'no staticDNSEntry found with this id';
export const ENTRY_NOT_FOUND_FOR_DELETE = 'no staticDNSEntry with that key found';

/** The `use_in_table` of the record types. */
const USE_IN_TABLE = 'staticdnsentry';

interface RawEntry {
  id: number | string;
  host: string;
  address: string;
  ttl: number | string;
  typeId: number | string;
  type: string;
  deliveryServiceId: number | string;
  deliveryService: string;
  tenantId: number | string | null;
  cachegroupId: number | string | null;
  cachegroup: string | null;
  lastUpdated: Date | string;
}

const intOrNull = (v: number | string | null): number | null => (v === null ? null : Number(v));

/**
 * Static DNS entries (docs/original-behaviour.md#static-dns-entries): the original's rules — the
 * record type is looked up first, then every field's rule by that type; another user's hard lock
 * on the delivery service's CDN refuses the write (docs/decisions.md#d77) — and, beyond the
 * original, the tenancy of the entry's delivery service (docs/decisions.md#d109).
 */
@Injectable()
export class StaticDnsEntriesService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly tenancy: TenancyService,
    private readonly locks: CdnLocksService,
  ) {}

  async list(query: ListQuery, user: CurrentUser): Promise<StaticDnsEntryRow[]> {
    const qb = withinTenancy(this.select(), 'ds.tenant_id', user.tenantId);
    return (await applyListQuery(qb, query).getRawMany<RawEntry>()).map(toRow);
  }

  /**
   * The original's validation of a body: its type (400 `missing property: 'typeId'` on 5.0 — before
   * 5.0 an absent type is the type 0 —, `type not found`, `type is not a valid staticdnsentry
   * type`), then the fields' rules by that type, joined.
   */
  async validate(body: StaticDnsEntryDto, version: ApiVersion): Promise<void> {
    if ((body.typeId === undefined || body.typeId === null) && version.atLeast('5.0')) {
      throw new BadRequestException("missing property: 'typeId'");
    }
    const [type] = await this.dataSource.query<{ name: string; useInTable: string | null }[]>(
      'SELECT name, use_in_table AS useInTable FROM type WHERE id = ?',
      [body.typeId ?? 0],
    );
    if (!type) {
      throw new BadRequestException('type not found');
    }
    if (type.useInTable !== USE_IN_TABLE) {
      throw new BadRequestException(`type is not a valid ${USE_IN_TABLE} type`);
    }
    const problems = staticDnsEntryProblems(body, type.name);
    if (problems.length > 0) {
      throw new BadRequestException(problems.join(', '));
    }
  }

  /** Creates a validated entry; an unknown delivery service or cache group is the database's 404. */
  async create(body: StaticDnsEntryDto, user: CurrentUser): Promise<StaticDnsEntryRow> {
    await this.checkDeliveryService(body.deliveryserviceId!, user);
    return this.findOrFail(await insertRow(this.dataSource.manager, StaticDnsEntry, values(body)));
  }

  /**
   * Updates a validated entry: the tenancy of the entry as it is, then the body's delivery service
   * (its tenancy and its CDN's lock, as the original), then 404 when there is no such entry.
   */
  async update(id: number, body: StaticDnsEntryDto, user: CurrentUser): Promise<StaticDnsEntryRow> {
    const current = await this.dataSource
      .getRepository(StaticDnsEntry)
      .findOne({ where: { id }, lock: writeLock(this.dataSource) });
    if (current) {
      await this.checkTenancyOf(current.deliveryServiceId, user);
    }
    await this.checkDeliveryService(body.deliveryserviceId!, user);
    if (!current) {
      throw new NotFoundException(ENTRY_NOT_FOUND_FOR_UPDATE);
    }
    await this.dataSource.getRepository(StaticDnsEntry).update({ id }, values(body));
    return this.findOrFail(id);
  }

  /** Deletes an entry: 404 when there is none, then its delivery service's tenancy and CDN lock. */
  async remove(id: number, user: CurrentUser): Promise<void> {
    const current = await this.dataSource
      .getRepository(StaticDnsEntry)
      .findOne({ where: { id }, lock: writeLock(this.dataSource) });
    if (!current) {
      throw new NotFoundException(ENTRY_NOT_FOUND_FOR_DELETE);
    }
    await this.checkDeliveryService(current.deliveryServiceId, user);
    await this.dataSource.getRepository(StaticDnsEntry).delete({ id });
  }

  /**
   * For the CRConfig (src/modules/snapshots): the entries of the CDN's active delivery services, by
   * XML id, each as Traffic Router reads it — `name` the host, `value` the address, `type` the record
   * type without `_RECORD` (`A`, `AAAA`, `CNAME`, …) — in the order they were created. With the
   * CDN's `ttl_override` (> 0), every entry's TTL is that override, as the original writes it.
   */
  async crConfigEntries(
    cdnId: number,
    ttlOverride: number | null,
  ): Promise<Map<string, CRConfigStaticDnsEntry[]>> {
    const rows = await this.dataSource.query<
      { xmlId: string; host: string; ttl: number | string; address: string; type: string }[]
    >(
      'SELECT ds.xml_id AS xmlId, e.host AS host, e.ttl AS ttl, e.address AS address, t.name AS type ' +
        'FROM staticdnsentry e INNER JOIN deliveryservice ds ON ds.id = e.deliveryservice ' +
        'INNER JOIN type t ON t.id = e.type ' +
        "WHERE ds.cdn_id = ? AND ds.active = 'ACTIVE' ORDER BY e.id",
      [cdnId],
    );
    const out = new Map<string, CRConfigStaticDnsEntry[]>();
    for (const row of rows) {
      const entries = out.get(row.xmlId) ?? [];
      entries.push({
        name: row.host,
        ttl: ttlOverride !== null && ttlOverride > 0 ? ttlOverride : Number(row.ttl),
        type: row.type.split('_RECORD').join(''),
        value: row.address,
      });
      out.set(row.xmlId, entries);
    }
    return out;
  }

  /**
   * The delivery service an entry is (to be) in: within the user's tenancy (403 `not authorized on
   * this tenant`), and its CDN not hard-locked by another user. An unknown one passes: the write's
   * foreign key answers 404 `deliveryservice not found`.
   */
  private async checkDeliveryService(deliveryServiceId: number, user: CurrentUser): Promise<void> {
    const [ds] = await this.dataSource.query<{ cdnId: number | string; tenantId: number | string }[]>(
      'SELECT cdn_id AS cdnId, tenant_id AS tenantId FROM deliveryservice WHERE id = ?',
      [deliveryServiceId],
    );
    if (!ds) {
      return;
    }
    await this.tenancy.assertWithinReach(user.tenantId, Number(ds.tenantId));
    await this.locks.assertCanModifyCdn(Number(ds.cdnId), user);
  }

  private async checkTenancyOf(deliveryServiceId: number, user: CurrentUser): Promise<void> {
    const [ds] = await this.dataSource.query<{ tenantId: number | string }[]>(
      'SELECT tenant_id AS tenantId FROM deliveryservice WHERE id = ?',
      [deliveryServiceId],
    );
    if (ds) {
      await this.tenancy.assertWithinReach(user.tenantId, Number(ds.tenantId));
    }
  }

  private async findOrFail(id: number): Promise<StaticDnsEntryRow> {
    const raw = await this.select().where('sde.id = :id', { id }).getRawOne<RawEntry>();
    if (!raw) {
      throw new NotFoundException(ENTRY_NOT_FOUND_FOR_UPDATE);
    }
    return toRow(raw);
  }

  private select(): SelectQueryBuilder<StaticDnsEntry> {
    return this.dataSource
      .getRepository(StaticDnsEntry)
      .createQueryBuilder('sde')
      .innerJoin('type', 'tp', 'tp.id = sde.type')
      .leftJoin('cachegroup', 'cg', 'cg.id = sde.cachegroup')
      .innerJoin('deliveryservice', 'ds', 'ds.id = sde.deliveryservice')
      .select([
        'sde.id AS id',
        'sde.host AS host',
        'sde.address AS address',
        'sde.ttl AS ttl',
        'tp.id AS typeId',
        'tp.name AS type',
        'sde.deliveryservice AS deliveryServiceId',
        'ds.xml_id AS deliveryService',
        'ds.tenant_id AS tenantId',
        'cg.id AS cachegroupId',
        'cg.name AS cachegroup',
        'sde.last_updated AS lastUpdated',
      ]);
  }
}

/** The columns a validated body writes. */
function values(body: StaticDnsEntryDto) {
  return {
    host: body.host!,
    address: body.address!,
    typeId: body.typeId!,
    ttl: body.ttl!,
    deliveryServiceId: body.deliveryserviceId!,
    cachegroupId: body.cachegroupId ?? null,
  };
}

function toRow(raw: RawEntry): StaticDnsEntryRow {
  return {
    id: Number(raw.id),
    host: raw.host,
    address: raw.address,
    ttl: Number(raw.ttl),
    typeId: Number(raw.typeId),
    type: raw.type,
    deliveryServiceId: Number(raw.deliveryServiceId),
    deliveryService: raw.deliveryService,
    tenantId: intOrNull(raw.tenantId),
    cachegroupId: intOrNull(raw.cachegroupId),
    cachegroup: raw.cachegroup,
    lastUpdated: toDate(raw.lastUpdated),
  };
}
