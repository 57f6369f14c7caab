import type { ApiCapability, Capability } from 'src/modules/capabilities/capability.entity';

/** The original's `tc.Capability` (3.x); `lastUpdated` a `TimeNoMod`, written by the envelope. */
export interface CapabilityV3 {
  description: string;
  lastUpdated: Date;
  name: string;
}

/** The original's `tc.APICapability` (3.x). */
export interface ApiCapabilityV3 {
  id: number;
  httpMethod: string;
  httpRoute: string;
  capability: string;
  lastUpdated: Date;
}

export function toCapabilityResponse(capability: Capability): CapabilityV3 {
  return {
    description: capability.description ?? '',
    lastUpdated: capability.lastUpdated,
    name: capability.name,
  };
}

export function toApiCapabilityResponse(row: ApiCapability): ApiCapabilityV3 {
  return {
    id: row.id,
    httpMethod: row.httpMethod,
    httpRoute: row.route,
    capability: row.capability,
    lastUpdated: row.lastUpdated,
  };
}
