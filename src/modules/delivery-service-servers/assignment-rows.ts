// What the assignment rules read of delivery services and servers, as the module's repository
// (delivery-service-servers.repository.ts) answers it.

/** What the assignment rules need to know of a delivery service. */
export interface DeliveryServiceInfo {
  id: number;
  xmlId: string;
  active: string;
  tenantId: number;
  cdnId: number;
  topology: string | null;
  multiSiteOrigin: boolean;
}

export interface ServerInfo {
  id: number;
  hostName: string;
  cachegroup: string;
  cdnId: number;
  type: string;
  status: string;
}

/** The server of POST servers/{id}/deliveryservices, as its rules need it. */
export interface AssigneeServer extends ServerInfo {
  cdnName: string;
}

/** A delivery service named in POST servers/{id}/deliveryservices, as its rules read it. */
export interface NamedDeliveryService {
  id: number;
  xmlId: string;
  cdnId: number;
  cdnName: string | null;
  reachable: boolean;
}

/** A delivery service of a cache group assignment, as its rules read it. */
export interface CachegroupDeliveryService {
  id: number;
  tenantId: number;
  topology: string | null;
  cdnName: string;
  reachable: boolean;
  cdnMismatch: boolean;
}
