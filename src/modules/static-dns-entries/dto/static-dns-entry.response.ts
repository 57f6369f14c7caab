/** One static DNS entry as read, with the names of what it refers to. */
export interface StaticDnsEntryRow {
  id: number;
  host: string;
  address: string;
  ttl: number;
  typeId: number;
  type: string;
  deliveryServiceId: number;
  deliveryService: string;
  /** The delivery service's tenant (for tenancy; not on the wire). */
  tenantId: number | null;
  cachegroupId: number | null;
  cachegroup: string | null;
  lastUpdated: Date;
}

/**
 * `tc.StaticDNSEntryNullable` (3.x/4.x) and `tc.StaticDNSEntryV5` (5.0): the same fields on every
 * version; `lastUpdated` is written by the controller's @WireTimes — the `TimeNoMod` form before 5.0,
 * RFC 3339 on 5.0.
 */
export interface StaticDnsEntryWire {
  address: string;
  cachegroup: string | null;
  cachegroupId: number | null;
  deliveryservice: string;
  deliveryserviceId: number;
  host: string;
  id: number;
  lastUpdated: Date;
  ttl: number;
  type: string;
  typeId: number;
}

export type StaticDnsEntryV4 = StaticDnsEntryWire;
export type StaticDnsEntryV5 = StaticDnsEntryWire;

export function toStaticDnsEntryResponse(row: StaticDnsEntryRow): StaticDnsEntryWire {
  return {
    address: row.address,
    cachegroup: row.cachegroup,
    cachegroupId: row.cachegroupId,
    deliveryservice: row.deliveryService,
    deliveryserviceId: row.deliveryServiceId,
    host: row.host,
    id: row.id,
    lastUpdated: row.lastUpdated,
    ttl: row.ttl,
    type: row.type,
    typeId: row.typeId,
  };
}

/** A static DNS entry in a CRConfig's delivery service (`tc.CRConfigStaticDNSEntry`). */
export interface CRConfigStaticDnsEntry {
  name: string;
  ttl: number;
  type: string;
  value: string;
}
