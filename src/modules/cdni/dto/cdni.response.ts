/**
 * The original's CDNi wire types (traffic_ops_golang/cdni): the advertisement (`Capabilities`, sent
 * without the `{response}` envelope) and the queued configuration requests.
 */

/** `Footprint`. */
export interface CdniFootprintWire {
  'footprint-type': string;
  'footprint-value': string[];
}

/** `LimitScope`; `value` is null when the limit's `scope_value` is. */
export interface CdniLimitScopeWire {
  type: string;
  value: string[] | null;
}

/** `Limit`; `scope` is left out (omitempty) when the limit has no scope type. */
export interface CdniLimitWire {
  id: string;
  scope?: CdniLimitScopeWire;
  'limit-type': string;
  'maximum-hard': number;
  'maximum-soft': number;
  'telemetry-source': { id: string; metric: string };
}

/** `Metric`. */
export interface CdniMetricWire {
  name: string;
  'time-granularity': number;
  'data-percentile': number;
  latency: number;
}

/** `Telemetry`. */
export interface CdniTelemetrySourceWire {
  id: string;
  type: string;
  metrics: CdniMetricWire[];
  configuration: { url: string };
}

/** `Capability` of type `FCI.CapacityLimits`: its value is a list of one `CapacityCapabilityValue`. */
export interface CdniCapacityCapabilityWire {
  'capability-type': 'FCI.CapacityLimits';
  'capability-value': { limits: CdniLimitWire[] }[];
  footprints: CdniFootprintWire[];
}

/** `Capability` of type `FCI.Telemetry`: its value is one `TelemetryCapabilityValue`. */
export interface CdniTelemetryCapabilityWire {
  'capability-type': 'FCI.Telemetry';
  'capability-value': { sources: CdniTelemetrySourceWire[] };
  footprints: CdniFootprintWire[];
}

/** `Capabilities`: the capacity capabilities of the uCDN, then its telemetry capabilities. */
export interface CdniAdvertisementWire {
  capabilities: (CdniCapacityCapabilityWire | CdniTelemetryCapabilityWire)[];
}

/** `ConfigurationUpdateRequest` (4.0+); `data` is the JSON the uCDN sent. */
export interface CdniConfigurationRequestV4 {
  id: number;
  ucdn: string;
  data: unknown;
  host: string;
  requestType: string;
  asyncStatusId: number;
}

/**
 * The original's `tc.AsyncStatus` (4.0+): times are Go `time.Time` (RFC 3339); `end_time` and
 * `message` are left out (omitempty) while null.
 */
export interface AsyncStatusV4 {
  id: number;
  status: string;
  start_time: string;
  end_time?: string;
  message?: string;
}
