/** A CDN's figures, in the original's key order (lib/go-tc TrafficStatsCDNStats). */
export interface CdnStats {
  bandwidth: number | null;
  capacity: number | null;
  cdn: string;
  connections: number | null;
}

/** The aggregate: no `capacity` key (lib/go-tc TrafficStatsTotalStats). */
export interface TotalStats {
  bandwidth: number | null;
  cdn: 'total';
  connections: number | null;
}

export interface CurrentStatsResponse {
  currentStats: (CdnStats | TotalStats)[];
}

/** Raw samples of one CDN as Traffic Stats stores them: kbps, connections, max kbps. */
export interface CdnSamples {
  cdn: string;
  kbps: number | null;
  connections: number | null;
  maxKbps: number | null;
}

const sum = (values: (number | null)[]): number | null =>
  values.reduce<number | null>((total, v) => (v === null ? total : (total ?? 0) + v), null);

/**
 * The original's arithmetic (trafficstats/cdn.go): bandwidth in Gbps (kbps / 1e6), capacity 85 %
 * of max kbps in Gbps, connections as stored; the total sums the figures that exist (bandwidth
 * summed in kbps, then converted) and is null when none does.
 */
export function toCurrentStats(samples: CdnSamples[]): CurrentStatsResponse {
  const perCdn: CdnStats[] = samples.map((s) => ({
    bandwidth: s.kbps === null ? null : s.kbps / 1000000,
    capacity: s.maxKbps === null ? null : (s.maxKbps / 1000000) * 0.85,
    cdn: s.cdn,
    connections: s.connections,
  }));
  const totalKbps = sum(samples.map((s) => s.kbps));
  const total: TotalStats = {
    bandwidth: totalKbps === null ? null : totalKbps / 1000000,
    cdn: 'total',
    connections: sum(samples.map((s) => s.connections)),
  };
  return { currentStats: [...perCdn, total] };
}
