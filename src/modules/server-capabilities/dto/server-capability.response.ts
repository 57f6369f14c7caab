import { byVersion, rfc3339 } from 'src/common/wire/by-version';
import type { ServerCapability } from 'src/modules/server-capabilities/server-capability.entity';

/**
 * A `Date` is written by the envelope as `YYYY-MM-DD HH:MM:SS+00` (the original's `tc.TimeNoMod`);
 * on the wire, and so in the tests, it is that string.
 */
type TimeNoMod = Date | string;

/** 3.x and 4.0 (lib/go-tc ServerCapability). */
export interface ServerCapabilityV3 {
  name: string;
  lastUpdated: TimeNoMod;
}

/** 4.1 (ServerCapabilityV41): with `description`. */
export interface ServerCapabilityV41 extends ServerCapabilityV3 {
  description: string;
}

/** 5.0 (ServerCapabilityV50): `lastUpdated` in RFC 3339. */
export interface ServerCapabilityV5 {
  name: string;
  description: string;
  lastUpdated: string;
}

export const toServerCapabilityResponse = byVersion<
  ServerCapability,
  ServerCapabilityV3 | ServerCapabilityV41 | ServerCapabilityV5
>({
  '3.0': (sc): ServerCapabilityV3 => ({ name: sc.name, lastUpdated: sc.lastUpdated }),
  '4.1': (sc): ServerCapabilityV41 => ({
    name: sc.name,
    description: sc.description,
    lastUpdated: sc.lastUpdated,
  }),
  '5.0': (sc): ServerCapabilityV5 => ({
    name: sc.name,
    description: sc.description,
    lastUpdated: rfc3339(sc.lastUpdated),
  }),
});
