import type { WireCompat } from 'src/common/wire/wire-compat';
import { Reflector } from '@nestjs/core';
import { formatRfc3339, formatTrafficOpsTime } from 'src/common/time/timestamps';
import type { ApiVersion, ApiVersionString } from 'src/common/versioning/api-version';

/**
 * How a route writes the `Date`s of its response (docs/decisions.md#d4, #d5a, #d5b). Without a rule every
 * Date is written in the original's custom form `YYYY-MM-DD HH:MM:SS+00` (Go `tc.TimeNoMod`).
 *
 * - `rfc3339From`: from this version on the original writes RFC 3339 (Go `time.Time`), e.g. `'5.0'`
 *   for most resources, `'3.0'` for roles' and users' 4.x types.
 * - `specified`: the user specification fixes the custom form for this resource on every version; the
 *   original's RFC 3339 (from `rfc3339From`) then applies only with `WIRE_COMPAT=traffic-ops`.
 *
 * A field whose format differs from the rest of its record (e.g. a 4.x server's `statusLastUpdated`)
 * is written by its mapper with `rfc3339()` (src/common/wire/by-version.ts).
 */
export interface TimestampRule {
  rfc3339From: ApiVersionString;
  specified?: boolean;
}

export const WireTimes = Reflector.createDecorator<TimestampRule>();

export type DateFormat = (date: Date) => string;

export function dateFormatFor(
  rule: TimestampRule | undefined,
  version: ApiVersion,
  compat: WireCompat,
): DateFormat {
  if (!rule || !version.atLeast(rule.rfc3339From)) {
    return formatTrafficOpsTime;
  }
  if (rule.specified && compat !== 'traffic-ops') {
    return formatTrafficOpsTime;
  }
  return formatRfc3339;
}
