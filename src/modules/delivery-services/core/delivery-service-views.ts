import type { DeliveryServiceView } from './delivery-service.response';
import { originUrl } from './delivery-service-details';
import type { DeliveryServiceRow, DetailRows, DetailsSkipped } from './delivery-services.repository';

/** What a delivery service's view holds besides its row: the contents of its detail tables. */
export type Details = Omit<DeliveryServiceView, 'ds'>;

/** The detail tables a read skips: those of the details in `known`. */
export function skippedDetails(known: Partial<Details>): DetailsSkipped {
  return {
    origins: 'orgServerFqdn' in known,
    tls: known.tlsVersions !== undefined,
    params: known.consistentHashQueryParams !== undefined,
    regexes: known.matchList !== undefined,
  };
}

/**
 * The views of a page of rows, from their detail rows (read with four queries, less those of the
 * details in `known`, of a single row whose write just set them) and the capabilities each requires.
 */
export function deliveryServiceViews(
  rows: DeliveryServiceRow[],
  { originOf, tlsOf, paramsOf, regexesOf }: DetailRows,
  capabilities: Map<number, string[]>,
  known: Partial<Details> = {},
): DeliveryServiceView[] {
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
