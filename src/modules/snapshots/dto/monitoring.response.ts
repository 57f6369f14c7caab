import type { SnapshotTopology } from 'src/modules/snapshots/snapshot-queries';
/**
 * The monitoring configuration Traffic Monitor runs on (the original's `monitoring.Monitoring`):
 * the same shape on every version, since the original serves the stored document as it is.
 */
export interface MonitoringConfig {
  trafficServers: MonitoringCache[];
  trafficMonitors: MonitoringMonitor[];
  cacheGroups: { name: string; coordinates: { latitude: number; longitude: number } }[];
  profiles: MonitoringProfile[];
  deliveryServices: MonitoringDeliveryService[];
  config: Record<string, string | number>;
  topologies: Record<string, SnapshotTopology>;
}

export interface MonitoringInterface {
  ipAddresses: { address: string; gateway: string | null; serviceAddress: boolean }[] | null;
  maxBandwidth: number | null;
  monitor: boolean;
  mtu: number | null;
  name: string;
}

export interface MonitoringCache {
  profile: string;
  status: string;
  port: number;
  cachegroup: string;
  hostname: string;
  fqdn: string;
  interfaces: MonitoringInterface[] | null;
  type: string;
  hashid: string;
  deliveryServices?: { xmlId: string }[];
}

export interface MonitoringMonitor {
  profile: string;
  status: string;
  port: number;
  cachegroup: string;
  hostname: string;
  fqdn: string;
  ip: string;
  ip6: string;
}

export interface MonitoringProfile {
  name: string;
  type: string;
  parameters: Record<string, string | number>;
}

export interface MonitoringDeliveryService {
  xmlId: string;
  totalTpsThreshold: number;
  status: string;
  totalKbpsThreshold: number;
  type: string;
  topology: string;
  hostRegexes: string[];
}
