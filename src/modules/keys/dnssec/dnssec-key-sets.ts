import {
  dsZoneName,
  KEY_STATUS_EXPIRED,
  KEY_STATUS_NEW,
  newDnssecKey,
  type StoredDnssecKey,
  type StoredDnssecKeySet,
} from './dnssec';

/*
 * New key sets in the original's ways (CreateDNSSECKeys, regenExpiredKeys); nothing here is stored
 * or logged.
 */

const DAY_MS = 86_400_000;
/** CreateDNSSECKeys' defaults when the CDN's keys carry none. */
export const DEFAULT_KSK_EXPIRATION_MS = 365 * DAY_MS;
export const DEFAULT_ZSK_EXPIRATION_MS = 30 * DAY_MS;
/** regenExpiredKeys' TTL of a key without a predecessor. */
const DEFAULT_REGEN_TTL_SECONDS = 60;

/** A CDN's key sets by name: its own under its name, each delivery service's under its xmlId. */
export type KeySets = Map<string, StoredDnssecKeySet>;

export const unixDate = (seconds: number): Date => new Date(seconds * 1000);

export const keysOf = (set: StoredDnssecKeySet | undefined, kind: 'ksk' | 'zsk'): StoredDnssecKey[] =>
  set?.[kind] ?? [];

/** The original's CreateDNSSECKeys: a delivery service's new KSK and ZSK, effective now. */
export async function deliveryServiceKeys(
  xmlId: string,
  urls: string[],
  cdnKeys: StoredDnssecKeySet,
  kskExpirationMs: number,
  zskExpirationMs: number,
  ttlSeconds: number,
  overrideTtl: boolean,
): Promise<StoredDnssecKeySet> {
  if (keysOf(cdnKeys, 'zsk').length === 0 || keysOf(cdnKeys, 'ksk').length === 0) {
    throw new Error(`creating DNSSEC keys for delivery service ${xmlId}: no DNSSec keys for CDN`);
  }
  let ttl = ttlSeconds;
  if (!overrideTtl) {
    const current = keysOf(cdnKeys, 'ksk').find((k) => k.status === KEY_STATUS_NEW);
    ttl = current ? Number(current.ttl) : ttl;
  }
  const zone = dsZoneName(urls);
  if (zone === undefined) {
    throw new Error(`creating DNSSEC keys for delivery service ${xmlId}: creating DS domain name failed`);
  }
  const inception = new Date();
  const common = {
    name: zone,
    ttlSeconds: ttl,
    inception,
    status: KEY_STATUS_NEW,
    effective: inception,
    tld: false,
  };
  const [zsk, ksk] = await Promise.all([
    newDnssecKey('zsk', { ...common, expiration: new Date(inception.getTime() + zskExpirationMs) }),
    newDnssecKey('ksk', { ...common, expiration: new Date(inception.getTime() + kskExpirationMs) }),
  ]);
  return { zsk: [zsk], ksk: [ksk] };
}

/**
 * The original's regenExpiredKeys: a new key of `kind` replacing the set's current ("new") one,
 * which is kept as "expired" (its expiration moved to the new key's effective date with
 * `resetExpiration`); the new key has the old one's name, TTL and lifetime in whole days, or the
 * defaults without one. The set's keys of the other kind are kept as they are.
 */
export async function regenExpiredKeys(
  kind: 'ksk' | 'zsk',
  name: string,
  existing: StoredDnssecKeySet | undefined,
  effective: Date,
  tld: boolean,
  resetExpiration: boolean,
): Promise<StoredDnssecKeySet> {
  const old = keysOf(existing, kind).find((k) => k.status === KEY_STATUS_NEW);
  const inception = new Date();
  let expiration = new Date(
    inception.getTime() + (kind === 'ksk' ? DEFAULT_KSK_EXPIRATION_MS : DEFAULT_ZSK_EXPIRATION_MS),
  );
  let ttl = DEFAULT_REGEN_TTL_SECONDS;
  let zone = name;
  if (old) {
    const days = Math.trunc((old.expirationDate - old.inceptionDate) / 86_400);
    zone = old.name;
    ttl = Number(old.ttl);
    expiration = new Date(Date.now() + days * DAY_MS);
  }
  const key = await newDnssecKey(kind, {
    name: zone,
    ttlSeconds: ttl,
    inception,
    expiration,
    status: KEY_STATUS_NEW,
    effective,
    tld,
  });
  const keys = [key];
  if (old) {
    keys.push({
      ...old,
      status: KEY_STATUS_EXPIRED,
      ...(resetExpiration ? { expirationDate: Math.floor(effective.getTime() / 1000) } : {}),
    });
  }
  return kind === 'ksk'
    ? { zsk: existing?.zsk ?? null, ksk: keys }
    : { zsk: keys, ksk: existing?.ksk ?? null };
}
