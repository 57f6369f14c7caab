import { NotFoundException } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { getPlainOne, groupBy, rowsForIds } from 'src/common/database/plain-rows';
import { DeliveryService } from 'src/modules/delivery-services/delivery-service.entity';
import type { DeliveryServiceView } from './delivery-service.response';
import { originUrl } from './delivery-service-details';

/** What a delivery service's view holds besides its row: the contents of its detail tables. */
export type Details = Omit<DeliveryServiceView, 'ds'>;

/** The capabilities each delivery service requires (the server-capabilities module's). */
export type RequiredBy = (ids: number[], manager: EntityManager) => Promise<Map<number, string[]>>;

export function deliveryServiceQuery(manager: EntityManager) {
  return manager
    .getRepository(DeliveryService)
    .createQueryBuilder('ds')
    .innerJoinAndSelect('ds.type', 'type')
    .innerJoinAndSelect('ds.cdn', 'cdn')
    .leftJoinAndSelect('ds.profile', 'profile')
    .leftJoinAndSelect('ds.tenant', 'tenant');
}

/** The row of delivery service `id` with its type, CDN, profile and tenant. */
export async function deliveryServiceRow(manager: EntityManager, id: number): Promise<DeliveryService> {
  const row = await getPlainOne(deliveryServiceQuery(manager).where('ds.id = :id', { id }));
  if (!row) {
    throw new NotFoundException(`no such Delivery Service: #${id}`);
  }
  return row;
}

/**
 * Origins, TLS versions, query parameters, match lists and required capabilities of a page of
 * rows: five queries, less those of the details in `known` (of a single row, whose write just set
 * them).
 */
export async function deliveryServiceViews(
  rows: DeliveryService[],
  manager: EntityManager,
  requiredBy: RequiredBy,
  known: Partial<Details> = {},
): Promise<DeliveryServiceView[]> {
  if (rows.length === 0) {
    return [];
  }
  if (rows.length > 1 && Object.keys(known).length > 0) {
    throw new Error('views: known details are those of a single delivery service');
  }
  const ids = rows.map((r) => r.id);
  const unless = <T>(isKnown: boolean, read: () => Promise<T[]>): Promise<T[]> =>
    isKnown ? Promise.resolve([]) : read();
  // Plain rows of the columns shown (docs/decisions.md#d106), grouped in one pass.
  const [origins, tls, params, regexes] = await Promise.all([
    unless('orgServerFqdn' in known, () =>
      rowsForIds<{ ds: number; protocol: string; fqdn: string; port: number | null }>(
        manager,
        'SELECT t.deliveryservice AS ds, t.protocol AS protocol, t.fqdn AS fqdn, t.port AS port ' +
          'FROM origin t WHERE t.deliveryservice IN (:ids) AND t.is_primary = 1',
        ids,
      ),
    ),
    unless(known.tlsVersions !== undefined, () =>
      rowsForIds<{ ds: number; v: string }>(
        manager,
        'SELECT t.deliveryservice AS ds, t.tls_version AS v FROM deliveryservice_tls_version t ' +
          'WHERE t.deliveryservice IN (:ids) ORDER BY t.tls_version ASC',
        ids,
      ),
    ),
    unless(known.consistentHashQueryParams !== undefined, () =>
      rowsForIds<{ ds: number; name: string }>(
        manager,
        'SELECT t.deliveryservice_id AS ds, t.name AS name FROM deliveryservice_consistent_hash_query_param t ' +
          'WHERE t.deliveryservice_id IN (:ids) ORDER BY t.name ASC',
        ids,
      ),
    ),
    unless(known.matchList !== undefined, () =>
      rowsForIds<{ ds: number; setNumber: number | null; pattern: string | null; typeName: string | null }>(
        manager,
        'SELECT t.deliveryservice AS ds, t.set_number AS setNumber, r.pattern AS pattern, rt.name AS typeName ' +
          'FROM deliveryservice_regex t LEFT JOIN regex r ON r.id = t.regex LEFT JOIN type rt ON rt.id = r.type ' +
          'WHERE t.deliveryservice IN (:ids) ORDER BY t.set_number ASC, t.id ASC',
        ids,
      ),
    ),
  ]);
  const capabilities =
    known.requiredCapabilities === undefined ? await requiredBy(ids, manager) : new Map<number, string[]>();
  const originOf = new Map<number, (typeof origins)[number]>();
  for (const origin of origins) {
    if (!originOf.has(Number(origin.ds))) {
      originOf.set(Number(origin.ds), origin);
    }
  }
  const tlsOf = groupBy(tls, (t) => Number(t.ds));
  const paramsOf = groupBy(params, (p) => Number(p.ds));
  const regexesOf = groupBy(regexes, (r) => Number(r.ds));
  return rows.map((ds) => {
    const origin = originOf.get(ds.id);
    return {
      ds,
      orgServerFqdn: 'orgServerFqdn' in known ? known.orgServerFqdn! : origin ? originUrl(origin) : null,
      tlsVersions: known.tlsVersions ?? (tlsOf.get(ds.id) ?? []).map((t) => t.v),
      requiredCapabilities: known.requiredCapabilities ?? capabilities.get(ds.id) ?? [],
      consistentHashQueryParams: known.consistentHashQueryParams ?? [
        ...new Set((paramsOf.get(ds.id) ?? []).map((p) => p.name)),
      ],
      matchList:
        known.matchList ??
        (regexesOf.get(ds.id) ?? []).map((r) => ({
          type: r.typeName ?? '',
          setNumber: r.setNumber === null ? 0 : Number(r.setNumber),
          pattern: r.pattern ?? '',
        })),
    };
  });
}
