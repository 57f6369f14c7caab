import type { Asn } from 'src/modules/cachegroups/asn.entity';

/** lib/go-tc ASN (every version). */
export interface AsnWire {
  asn: number;
  cachegroup: string | null;
  cachegroupId: number;
  id: number;
  lastUpdated: Date;
}

/** An ASN association as listed: `cachegroup` is the cache group's real name. */
export function toAsnResponse(asn: Asn): AsnWire {
  return {
    asn: asn.asn,
    cachegroup: asn.cachegroup?.name ?? null,
    cachegroupId: asn.cachegroupId,
    id: asn.id,
    lastUpdated: asn.lastUpdated,
  };
}

/**
 * An ASN association as create and update answer it: `cachegroup` echoes the request's value, or
 * null when the request had none (docs/decisions.md#d6).
 */
export function toWrittenAsnResponse(asn: Asn, requestedCachegroup: string | null | undefined): AsnWire {
  return { ...toAsnResponse(asn), cachegroup: requestedCachegroup ?? null };
}
