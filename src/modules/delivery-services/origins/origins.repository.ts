import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository, type SelectQueryBuilder } from 'typeorm';
import { insertRow } from 'src/common/database/insert-rows';
import { writeLock } from 'src/common/database/locks';
import { applyListQuery, type ListQuery } from 'src/common/list-query/list-query';
import { withinTenancy } from 'src/modules/tenants/tenants.repository';
import { Origin } from './origin.entity';

/** An origin as read: with the names of its delivery service, cache group, coordinate, profile and tenant. */
export interface RawOrigin {
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

/** The columns the origin routes write. */
export type OriginColumns = Pick<
  Origin,
  | 'name'
  | 'fqdn'
  | 'protocol'
  | 'port'
  | 'ipAddress'
  | 'ip6Address'
  | 'deliveryServiceId'
  | 'cachegroupId'
  | 'coordinateId'
  | 'profileId'
  | 'tenantId'
>;

/**
 * The origin table as the origin routes read and write it: the only file of the folder that runs
 * SQL (docs/architecture.md#data-access). A delivery service's primary origin is written with it
 * (core/delivery-services.repository.ts).
 */
@Injectable()
export class OriginsRepository {
  constructor(
    @InjectRepository(Origin) private readonly origins: Repository<Origin>,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /** The page of origins within the tenant's reach a list query asks for. */
  list(query: ListQuery, tenantId: number): Promise<RawOrigin[]> {
    const qb = withinTenancy(this.select(), 'o.tenant', tenantId);
    return applyListQuery(qb, query).getRawMany<RawOrigin>();
  }

  /** The origin `id` as listed, or undefined. */
  byId(id: number): Promise<RawOrigin | undefined> {
    return this.select().where('o.id = :id', { id }).getRawOne<RawOrigin>();
  }

  /** The origin `id`, locked for a change, or undefined. */
  async lockedById(id: number): Promise<Origin | undefined> {
    return (await this.origins.findOne({ where: { id }, lock: writeLock(this.dataSource) })) ?? undefined;
  }

  /** Adds an origin: its id. */
  add(columns: OriginColumns): Promise<number> {
    return insertRow(this.dataSource.manager, Origin, columns);
  }

  async change(id: number, columns: OriginColumns): Promise<void> {
    await this.origins.update({ id }, columns);
  }

  async remove(id: number): Promise<void> {
    await this.origins.delete({ id });
  }

  /** The tenant of delivery service `id` (a read of the module's own table), or undefined without one. */
  async deliveryServiceTenant(id: number): Promise<number | undefined> {
    const rows = await this.dataSource.query<{ tenantId: number | string }[]>(
      'SELECT tenant_id AS tenantId FROM deliveryservice WHERE id = ?',
      [id],
    );
    return rows.length === 0 ? undefined : Number(rows[0].tenantId);
  }

  private select(): SelectQueryBuilder<Origin> {
    return this.origins
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
