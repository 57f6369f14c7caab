import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type SelectQueryBuilder } from 'typeorm';
import { insertRow } from 'src/common/database/insert-rows';
import { writeLock } from 'src/common/database/locks';
import { applyListQuery, type ListQuery } from 'src/common/list-query/list-query';
import { toDate } from 'src/common/time/timestamps';
import { withinTenancy } from 'src/modules/tenants/tenants.repository';
import type { StaticDnsEntryRow } from './dto/static-dns-entry.response';
import { StaticDnsEntry } from './static-dns-entry.entity';

export type StaticDnsEntryColumns = Pick<
  StaticDnsEntry,
  'host' | 'address' | 'typeId' | 'ttl' | 'deliveryServiceId' | 'cachegroupId'
>;

/** An entry of a CDN's active delivery service, for the CRConfig. */
export interface CRConfigEntryRow {
  xmlId: string;
  host: string;
  ttl: number | string;
  address: string;
  type: string;
}

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
 * The staticdnsentry table, and what the rules read of the type and deliveryservice tables: the
 * only file of the module that runs SQL (docs/architecture.md#data-access).
 */
@Injectable()
export class StaticDnsEntriesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The page of entries whose delivery service is within the tenant's reach. */
  async list(query: ListQuery, tenantId: number): Promise<StaticDnsEntryRow[]> {
    const qb = withinTenancy(this.select(), 'ds.tenant_id', tenantId);
    return (await applyListQuery(qb, query).getRawMany<RawEntry>()).map(toRow);
  }

  /** One entry as the API answers it, or undefined. */
  async row(id: number): Promise<StaticDnsEntryRow | undefined> {
    const raw = await this.select().where('sde.id = :id', { id }).getRawOne<RawEntry>();
    return raw ? toRow(raw) : undefined;
  }

  /** The type's name and table, or undefined. */
  async type(id: number): Promise<{ name: string; useInTable: string | null } | undefined> {
    const [type] = await this.dataSource.query<{ name: string; useInTable: string | null }[]>(
      'SELECT name, use_in_table AS useInTable FROM type WHERE id = ?',
      [id],
    );
    return type;
  }

  /** The CDN and tenant of a delivery service, or undefined. */
  async deliveryService(id: number): Promise<{ cdnId: number; tenantId: number } | undefined> {
    const [ds] = await this.dataSource.query<{ cdnId: number | string; tenantId: number | string }[]>(
      'SELECT cdn_id AS cdnId, tenant_id AS tenantId FROM deliveryservice WHERE id = ?',
      [id],
    );
    return ds && { cdnId: Number(ds.cdnId), tenantId: Number(ds.tenantId) };
  }

  /** Adds an entry: its id. */
  add(columns: StaticDnsEntryColumns): Promise<number> {
    return insertRow(this.dataSource.manager, StaticDnsEntry, columns);
  }

  /** The entry, read with a write lock (before changing or deleting it). */
  lockedById(id: number): Promise<StaticDnsEntry | null> {
    return this.dataSource
      .getRepository(StaticDnsEntry)
      .findOne({ where: { id }, lock: writeLock(this.dataSource) });
  }

  async change(id: number, columns: StaticDnsEntryColumns): Promise<void> {
    await this.dataSource.getRepository(StaticDnsEntry).update({ id }, columns);
  }

  async remove(id: number): Promise<void> {
    await this.dataSource.getRepository(StaticDnsEntry).delete({ id });
  }

  /** The entries of the CDN's active delivery services, in the order they were created. */
  crConfigRows(cdnId: number): Promise<CRConfigEntryRow[]> {
    return this.dataSource.query<CRConfigEntryRow[]>(
      'SELECT ds.xml_id AS xmlId, e.host AS host, e.ttl AS ttl, e.address AS address, t.name AS type ' +
        'FROM staticdnsentry e INNER JOIN deliveryservice ds ON ds.id = e.deliveryservice ' +
        'INNER JOIN type t ON t.id = e.type ' +
        "WHERE ds.cdn_id = ? AND ds.active = 'ACTIVE' ORDER BY e.id",
      [cdnId],
    );
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
