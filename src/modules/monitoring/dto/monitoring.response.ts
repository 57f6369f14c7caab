/** `GET cdns/health` and `cdns/{name}/health`: the original's `tc.HealthData`. */
export interface HealthData {
  totalOffline: number;
  totalOnline: number;
  cachegroups: HealthDataCacheGroup[];
}

export interface HealthDataCacheGroup {
  offline: number;
  online: number;
  name: string;
}

/** `GET cdns/capacity`: the original's `CapacityResp`, in percent of the CDNs' capacity. */
export interface CapacityData {
  availablePercent: number;
  unavailablePercent: number;
  utilizedPercent: number;
  maintenancePercent: number;
}

/** `GET cdns/routing`: the original's `tc.Routing`, each kind of routing in percent of all. */
export interface RoutingData {
  staticRoute: number;
  geo: number;
  err: number;
  fed: number;
  cz: number;
  deepCz: number;
  regionalAlternate: number;
  dsr: number;
  miss: number;
  regionalDenied: number;
}

/** One row of `GET caches/stats`: the original's `CacheData`. */
export interface CacheData {
  hostname: string;
  cachegroup: string;
  status: string;
  profile: string;
  ip: string | null;
  healthy: boolean;
  kbps: number;
  connections: number;
}
