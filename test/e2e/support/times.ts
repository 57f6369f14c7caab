/*
 * The timestamp forms the API writes, as the suites match them (one definition each, D213): the
 * original's custom form (Go `tc.TimeNoMod`) and RFC 3339 (Go `time.Time`), with the stricter
 * variants some resources are checked against.
 */

/** `lastUpdated` in the original's custom form (Go `tc.TimeNoMod`), D4. */
export const CUSTOM_TIME = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\+00$/;
/** RFC 3339 with fractional seconds (Go `time.Time`), D4/D5b. */
export const RFC3339_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

/**
 * The timestamp format of a resource outside the specification on `version` (D5b): the original's
 * RFC 3339 from `rfc3339From` (5.0 for most resources) on, its custom form before.
 */
export function timeFormatOn(version: string, rfc3339From = '5.0'): RegExp {
  return Number(version) >= Number(rfc3339From) ? RFC3339_TIME : CUSTOM_TIME;
}
/** RFC 3339 with fractional seconds present (Go `time.Time` of a row written with sub-second precision). */
export const RFC3339_FRACTIONAL_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z$/;
/** RFC 3339 with exactly milliseconds, as JavaScript's `Date.prototype.toISOString` writes it. */
export const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
/** The original's custom form with optional fractional seconds (the change log's `lastUpdated`). */
export const CUSTOM_TIME_FRACTIONAL = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)?\+00$/;
