import { byVersion } from 'src/common/wire/by-version';

/** One origin as read, with the names of what it refers to. */
export interface OriginRow {
  id: number;
  name: string;
  fqdn: string;
  protocol: string;
  isPrimary: boolean;
  port: number | null;
  ipAddress: string | null;
  ip6Address: string | null;
  deliveryServiceId: number;
  deliveryService: string;
  cachegroupId: number | null;
  cachegroup: string | null;
  coordinateId: number | null;
  coordinate: string | null;
  profileId: number | null;
  profile: string | null;
  tenantId: number | null;
  tenant: string | null;
  lastUpdated: Date;
}

/** 3.x/4.x `tc.Origin`: `lastUpdated` in the `TimeNoMod` form. */
export interface OriginV3 {
  cachegroup: string | null;
  cachegroupId: number | null;
  coordinate: string | null;
  coordinateId: number | null;
  deliveryService: string;
  deliveryServiceId: number;
  fqdn: string;
  id: number;
  ip6Address: string | null;
  ipAddress: string | null;
  isPrimary: boolean;
  lastUpdated: Date;
  name: string;
  port: number | null;
  profile: string | null;
  profileId: number | null;
  protocol: string;
  tenant: string | null;
  tenantId: number | null;
}

/** 5.0 `tc.OriginV5`: the same fields; `lastUpdated` is RFC 3339 (the controller's `@WireTimes`). */
export type OriginV5 = OriginV3;

const toV3 = (o: OriginRow): OriginV3 => ({
  cachegroup: o.cachegroup,
  cachegroupId: o.cachegroupId,
  coordinate: o.coordinate,
  coordinateId: o.coordinateId,
  deliveryService: o.deliveryService,
  deliveryServiceId: o.deliveryServiceId,
  fqdn: o.fqdn,
  id: o.id,
  ip6Address: o.ip6Address,
  ipAddress: o.ipAddress,
  isPrimary: o.isPrimary,
  lastUpdated: o.lastUpdated,
  name: o.name,
  port: o.port,
  profile: o.profile,
  profileId: o.profileId,
  protocol: o.protocol,
  tenant: o.tenant,
  tenantId: o.tenantId,
});

/** Every version's shape is the same; 5.0 writes `lastUpdated` in RFC 3339 (the route's `@WireTimes`). */
export const toOriginResponse = byVersion<OriginRow, OriginV3>({ '3.0': toV3 });
