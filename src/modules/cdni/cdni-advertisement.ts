import type { CdniFootprintWire, CdniLimitWire, CdniTelemetrySourceWire } from './dto/cdni.response';
import { stringArray } from './cdni-metadata';
import type { FootprintRow } from './cdni.repository';

/* The advertisement's parts on the wire, from the rows of the CDNi tables (CdniRepository). */

/** The footprints on the wire, by capability id. */
export function footprintsByCapability(rows: FootprintRow[]): Map<number, CdniFootprintWire[]> {
  const byCapability = new Map<number, CdniFootprintWire[]>();
  for (const row of rows) {
    const id = Number(row.capability_id);
    byCapability.set(id, [
      ...(byCapability.get(id) ?? []),
      { 'footprint-type': row.footprint_type, 'footprint-value': stringArray(row.footprint_value) ?? [] },
    ]);
  }
  return byCapability;
}

/** The limits on the wire, by capability id. */
export function limitsByCapability(rows: Record<string, unknown>[]): Map<number, CdniLimitWire[]> {
  const byCapability = new Map<number, CdniLimitWire[]>();
  for (const row of rows) {
    const id = Number(row.capability_id);
    const limit: CdniLimitWire = {
      id: row.limit_id as string,
      ...(row.scope_type === null
        ? {}
        : {
            scope: { type: row.scope_type as string, value: stringArray(row.scope_value as string | null) },
          }),
      'limit-type': row.limit_type as string,
      'maximum-hard': Number(row.maximum_hard),
      'maximum-soft': Number(row.maximum_soft),
      'telemetry-source': { id: row.telemetry_id as string, metric: row.telemetry_metric as string },
    };
    byCapability.set(id, [...(byCapability.get(id) ?? []), limit]);
  }
  return byCapability;
}

/** The telemetry sources with their metrics on the wire, by capability id. */
export function telemetryByCapability(
  sources: Record<string, unknown>[],
  metrics: Record<string, unknown>[],
): Map<number, CdniTelemetrySourceWire[]> {
  const byCapability = new Map<number, CdniTelemetrySourceWire[]>();
  for (const source of sources) {
    const id = Number(source.capability_id);
    byCapability.set(id, [
      ...(byCapability.get(id) ?? []),
      {
        id: source.id as string,
        type: source.type as string,
        metrics: metrics
          .filter((metric) => metric.telemetry_id === source.id)
          .map((metric) => ({
            name: metric.name as string,
            'time-granularity': Number(metric.time_granularity),
            'data-percentile': Number(metric.data_percentile),
            latency: Number(metric.latency),
          })),
        configuration: { url: source.configuration_url as string },
      },
    ]);
  }
  return byCapability;
}
