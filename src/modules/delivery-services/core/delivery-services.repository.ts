import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type SelectQueryBuilder } from 'typeorm';
import { insertRow, insertRows } from 'src/common/database/insert-rows';
import { writeLock } from 'src/common/database/locks';
import {
  getPlainMany,
  getPlainOne,
  groupBy,
  rowsForIds,
  selectReferences,
} from 'src/common/database/plain-rows';
import type { TransactionManager } from 'src/common/database/unit-of-work';
import { applyListQuery, type ListQuery } from 'src/common/list-query/list-query';
import { withinTenancy } from 'src/modules/tenants/tenants.repository';
import type { Cdn } from 'src/modules/cdns/cdn.entity';
import type { Profile } from 'src/modules/profiles/profile.entity';
import type { Tenant } from 'src/modules/tenants/tenant.entity';
import { Type } from 'src/modules/types/type.entity';
import { DeliveryService } from 'src/modules/delivery-services/delivery-service.entity';
import { Origin } from 'src/modules/delivery-services/origins/origin.entity';
import { ConsistentHashQueryParam } from './consistent-hash-query-param.entity';
import { DeliveryServiceTlsVersion } from './delivery-service-tls-version.entity';

/** The primary origin's columns that orgServerFqdn sets. */
export interface PrimaryOriginUrl {
  protocol: string;
  fqdn: string;
  port: number | null;
}

/**
 * The contents of a page of delivery services' detail tables, as plain rows (docs/decisions.md#d106)
 * by delivery service id: its first primary origin, its TLS versions, query parameters and regexes.
 */
export interface DetailRows {
  originOf: Map<number, PrimaryOriginUrl>;
  tlsOf: Map<number, { ds: number; v: string }[]>;
  paramsOf: Map<number, { ds: number; name: string }[]>;
  regexesOf: Map<
    number,
    { ds: number; setNumber: number | null; pattern: string | null; typeName: string | null }[]
  >;
}

/** The detail tables a read of details leaves out (empty instead). */
export interface DetailsSkipped {
  origins: boolean;
  tls: boolean;
  params: boolean;
  regexes: boolean;
}

/**
 * The columns a delivery service's reads take of the rows it references: what the responses and the
 * creation's hooks use (names, the CDN's domain and DNSSEC switch, the profile's description). The
 * whole referenced rows would add four timestamps and about twenty columns to every delivery
 * service of a list (docs/decisions.md#d232).
 */
const REFERENCED = {
  type: ['id', 'name'],
  cdn: ['id', 'name', 'domainName', 'dnssecEnabled'],
  profile: ['id', 'name', 'description'],
  tenant: ['id', 'name'],
} as const satisfies Record<'type' | 'cdn' | 'profile' | 'tenant', readonly string[]>;

type Referenced<T, K extends keyof typeof REFERENCED> = Pick<
  T,
  Extract<(typeof REFERENCED)[K][number], keyof T>
>;

/** A delivery service row as the reads give it: the referenced rows with REFERENCED's columns only. */
export type DeliveryServiceRow = Omit<DeliveryService, keyof typeof REFERENCED> & {
  type?: Referenced<Type, 'type'>;
  cdn?: Referenced<Cdn, 'cdn'>;
  profile?: Referenced<Profile, 'profile'> | null;
  tenant?: Referenced<Tenant, 'tenant'>;
};

/**
 * The deliveryservice table and its detail tables (TLS versions, consistent hash query parameters,
 * the primary origin): the only file of the folder that runs SQL (docs/architecture.md#data-access).
 * Writes take the caller's TransactionManager; reads without one run on the data source's.
 */
@Injectable()
export class DeliveryServicesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The page of delivery services within the tenant's reach a list query asks for, as plain rows. */
  list(query: ListQuery, tenantId: number): Promise<DeliveryServiceRow[]> {
    const qb = withinTenancy(this.query(this.dataSource.manager), 'ds.tenant_id', tenantId);
    return getPlainMany(applyListQuery(qb, query));
  }

  /** Delivery services by id or XML id, whatever the tenancy. */
  byIdsOrXmlId(where: { ids: number[] } | { xmlId: string }): Promise<DeliveryServiceRow[]> {
    const qb = this.query(this.dataSource.manager);
    if ('ids' in where) {
      qb.where('ds.id IN (:...ids)', { ids: where.ids });
    } else {
      qb.where('ds.xml_id = :xmlId', { xmlId: where.xmlId });
    }
    return getPlainMany(qb);
  }

  /** The row of delivery service `id` with its type, CDN, profile and tenant, or undefined. */
  async row(manager: TransactionManager, id: number): Promise<DeliveryServiceRow | undefined> {
    return (await getPlainOne(this.query(manager).where('ds.id = :id', { id }))) ?? undefined;
  }

  /** Delivery service `id`, its row locked for a change, or undefined. */
  async lockedById(manager: TransactionManager, id: number): Promise<DeliveryService | undefined> {
    const found = await manager.findOne(DeliveryService, { where: { id }, lock: writeLock(this.dataSource) });
    return found ?? undefined;
  }

  /** Delivery service `id` with its CDN, or undefined. */
  async withCdn(manager: TransactionManager, id: number): Promise<DeliveryService | undefined> {
    const found = await manager.findOne(DeliveryService, { where: { id }, relations: { cdn: true } });
    return found ?? undefined;
  }

  /** The SSL key version of the delivery service `xmlId` and its type's name, or undefined. */
  async sslKeysOf(
    manager: TransactionManager,
    xmlId: string,
  ): Promise<{ sslKeyVersion: number | string | null; typeName: string | null } | undefined> {
    const [row] = await manager.query<{ sslKeyVersion: number | string | null; typeName: string | null }[]>(
      'SELECT ds.ssl_key_version AS sslKeyVersion, t.name AS typeName ' +
        'FROM deliveryservice ds LEFT JOIN type t ON t.id = ds.type WHERE ds.xml_id = ?',
      [xmlId],
    );
    return row;
  }

  /** The type `id`, or undefined. */
  async type(manager: TransactionManager | undefined, id: number): Promise<Type | undefined> {
    return (await (manager ?? this.dataSource.manager).findOneBy(Type, { id })) ?? undefined;
  }

  /** Adds a delivery service: its id. */
  add(manager: TransactionManager, columns: Partial<DeliveryService>): Promise<number> {
    return insertRow(manager, DeliveryService, columns);
  }

  async change(manager: TransactionManager, id: number, columns: Partial<DeliveryService>): Promise<void> {
    await manager.update(DeliveryService, { id }, columns);
  }

  async remove(manager: TransactionManager, id: number): Promise<void> {
    await manager.delete(DeliveryService, { id });
  }

  /** Sets the SSL key version of the delivery service `xmlId`. */
  async setSslKeyVersion(xmlId: string, version: number): Promise<void> {
    await this.dataSource.manager.update(DeliveryService, { xmlId }, { sslKeyVersion: version });
  }

  async removeTlsVersions(manager: TransactionManager, dsId: number): Promise<void> {
    await manager.delete(DeliveryServiceTlsVersion, { deliveryServiceId: dsId });
  }

  async addTlsVersions(manager: TransactionManager, dsId: number, versions: string[]): Promise<void> {
    await insertRows(
      manager,
      DeliveryServiceTlsVersion,
      versions.map((tlsVersion) => ({ deliveryServiceId: dsId, tlsVersion })),
    );
  }

  async removeQueryParams(manager: TransactionManager, dsId: number): Promise<void> {
    await manager.delete(ConsistentHashQueryParam, { deliveryServiceId: dsId });
  }

  async addQueryParams(manager: TransactionManager, dsId: number, names: string[]): Promise<void> {
    await insertRows(
      manager,
      ConsistentHashQueryParam,
      names.map((name) => ({ deliveryServiceId: dsId, name })),
    );
  }

  /** The primary origin of delivery service `dsId`, or undefined. */
  async primaryOrigin(manager: TransactionManager, dsId: number): Promise<Origin | undefined> {
    return (await manager.findOneBy(Origin, { deliveryServiceId: dsId, isPrimary: true })) ?? undefined;
  }

  async removeOrigin(manager: TransactionManager, id: number): Promise<void> {
    await manager.delete(Origin, { id });
  }

  async changeOrigin(manager: TransactionManager, id: number, url: PrimaryOriginUrl): Promise<void> {
    await manager.update(Origin, { id }, url);
  }

  async addPrimaryOrigin(
    manager: TransactionManager,
    dsId: number,
    columns: PrimaryOriginUrl & { name: string; tenantId: number | null },
  ): Promise<void> {
    await insertRows(manager, Origin, {
      name: columns.name,
      fqdn: columns.fqdn,
      protocol: columns.protocol,
      port: columns.port,
      isPrimary: true,
      deliveryServiceId: dsId,
      tenantId: columns.tenantId,
    });
  }

  /**
   * The detail rows of delivery services `ids` (origins, TLS versions, query parameters, match
   * lists): four queries at once, less those `skip` names (empty instead), grouped in one pass.
   */
  async details(
    ids: number[],
    skip: DetailsSkipped,
    manager: TransactionManager = this.dataSource.manager,
  ): Promise<DetailRows> {
    const unless = <T>(skipped: boolean | undefined, read: () => Promise<T[]>): Promise<T[]> =>
      skipped ? Promise.resolve([]) : read();
    const [origins, tls, params, regexes] = await Promise.all([
      unless(skip.origins, () =>
        rowsForIds<{ ds: number } & PrimaryOriginUrl>(
          manager,
          'SELECT t.deliveryservice AS ds, t.protocol AS protocol, t.fqdn AS fqdn, t.port AS port ' +
            'FROM origin t WHERE t.deliveryservice IN (:ids) AND t.is_primary = 1',
          ids,
        ),
      ),
      unless(skip.tls, () =>
        rowsForIds<{ ds: number; v: string }>(
          manager,
          'SELECT t.deliveryservice AS ds, t.tls_version AS v FROM deliveryservice_tls_version t ' +
            'WHERE t.deliveryservice IN (:ids) ORDER BY t.tls_version ASC',
          ids,
        ),
      ),
      unless(skip.params, () =>
        rowsForIds<{ ds: number; name: string }>(
          manager,
          'SELECT t.deliveryservice_id AS ds, t.name AS name FROM deliveryservice_consistent_hash_query_param t ' +
            'WHERE t.deliveryservice_id IN (:ids) ORDER BY t.name ASC',
          ids,
        ),
      ),
      unless(skip.regexes, () =>
        rowsForIds<{ ds: number; setNumber: number | null; pattern: string | null; typeName: string | null }>(
          manager,
          'SELECT t.deliveryservice AS ds, t.set_number AS setNumber, r.pattern AS pattern, rt.name AS typeName ' +
            'FROM deliveryservice_regex t LEFT JOIN regex r ON r.id = t.regex LEFT JOIN type rt ON rt.id = r.type ' +
            'WHERE t.deliveryservice IN (:ids) ORDER BY t.set_number ASC, t.id ASC',
          ids,
        ),
      ),
    ]);
    const originOf = new Map<number, PrimaryOriginUrl>();
    for (const origin of origins) {
      if (!originOf.has(Number(origin.ds))) {
        originOf.set(Number(origin.ds), origin);
      }
    }
    return {
      originOf,
      tlsOf: groupBy(tls, (t) => Number(t.ds)),
      paramsOf: groupBy(params, (p) => Number(p.ds)),
      regexesOf: groupBy(regexes, (r) => Number(r.ds)),
    };
  }

  /** The delivery services with what the reads use of the rows they reference (REFERENCED). */
  private query(manager: TransactionManager): SelectQueryBuilder<DeliveryServiceRow> {
    const qb = manager
      .getRepository(DeliveryService)
      .createQueryBuilder('ds')
      .innerJoin('ds.type', 'type')
      .innerJoin('ds.cdn', 'cdn')
      .leftJoin('ds.profile', 'profile')
      .leftJoin('ds.tenant', 'tenant');
    return selectReferences(qb, REFERENCED);
  }
}
