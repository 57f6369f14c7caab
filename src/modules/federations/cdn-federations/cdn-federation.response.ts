import type { Federation } from 'src/modules/federations/federation.entity';

export interface CdnFederationRow {
  id: number;
  cname: string;
  ttl: number;
  description: string | null;
  lastUpdated: Date;
  dsId: number;
  xmlId: string;
}

/** lib/go-tc CDNFederation as written: no delivery service. */
export interface CdnFederationWire {
  id: number;
  cname: string;
  ttl: number;
  description: string | null;
  lastUpdated: Date;
}

/** lib/go-tc CDNFederation as listed: with the delivery service it is assigned to. */
export interface CdnFederationListedWire extends CdnFederationWire {
  deliveryService: { id: number; xmlId: string };
}

/** A federation as created or updated: no delivery service (docs/original-behaviour.md#cdn-federations). */
export function toCdnFederationResponse(federation: Federation): CdnFederationWire {
  return {
    id: federation.id,
    cname: federation.cname,
    ttl: federation.ttl,
    description: federation.description,
    lastUpdated: federation.lastUpdated,
  };
}

/** One federation of a CDN as listed: one entry per delivery service it is assigned to. */
export function toCdnFederationListResponse(row: CdnFederationRow): CdnFederationListedWire {
  return {
    id: row.id,
    cname: row.cname,
    ttl: row.ttl,
    description: row.description,
    lastUpdated: row.lastUpdated,
    deliveryService: { id: row.dsId, xmlId: row.xmlId },
  };
}
