import { byVersion, rfc3339 } from 'src/common/wire/by-version';
import type { LoadedServer } from 'src/modules/servers/dto/server.response';
import type { ServerInterface } from 'src/modules/servers/server-interface.entity';

/**
 * A server as GET deliveryservices/{id}/servers and …/servers/eligible answer it (lib/go-tc
 * DSServer on 3.x, DSServerV4 on 4.x, DSServerV50 on 5.0), with whether the user may see its ILO
 * password (an empty string otherwise, as the original hides it).
 */
export interface DsServerRow {
  loaded: LoadedServer;
  showIloPassword: boolean;
}

export interface DsServerIpAddress {
  address: string;
  gateway: string | null;
  serviceAddress: boolean;
}

/** An interface on 3.x (lib/go-tc ServerInterfaceInfo). */
export interface DsServerInterfaceV3 {
  ipAddresses: DsServerIpAddress[];
  maxBandwidth: number | null;
  monitor: boolean;
  mtu: number | null;
  name: string;
}

/** An interface on 4.0 and later (lib/go-tc ServerInterfaceInfoV40): with its router. */
export interface DsServerInterfaceV4 extends DsServerInterfaceV3 {
  routerHostName: string;
  routerPortName: string;
}

/** The fields 3.x and 4.x share (lib/go-tc DSServerBase / DSServerBaseV4). */
interface DsServerBase {
  cachegroup: string | null;
  cachegroupId: number;
  cdnId: number;
  cdnName: string | null;
  domainName: string;
  guid: string | null;
  hostName: string;
  httpsPort: number | null;
  id: number;
  iloIpAddress: string | null;
  iloIpGateway: string | null;
  iloIpNetmask: string | null;
  iloPassword: string | null;
  iloUsername: string | null;
  lastUpdated: Date;
  mgmtIpAddress: string | null;
  mgmtIpGateway: string | null;
  mgmtIpNetmask: string | null;
  offlineReason: string | null;
  physLocation: string | null;
  physLocationId: number;
  rack: string | null;
  status: string | null;
  statusId: number;
  tcpPort: number | null;
  type: string | null;
  typeId: number;
  updPending: boolean;
}

/** 3.x (lib/go-tc DSServer): one profile, the router on the server. */
export interface DsServerV3 extends DsServerBase {
  interfaces: DsServerInterfaceV3[];
  profile: string | null;
  profileDesc: string | null;
  profileId: number | null;
  routerHostName: string;
  routerPortName: string;
}

/** 4.x (lib/go-tc DSServerV4): profiles by name, the router on each interface. */
export interface DsServerV4 extends DsServerBase {
  interfaces: DsServerInterfaceV4[];
  profileNames: string[];
}

/**
 * 5.0 (lib/go-tc DSServerV50, a ServerV50): the 5.0 field names, `lastUpdated` in RFC 3339, the
 * optional fields (ports, ILO and management addresses, profiles) left out when empty, and
 * `xmppId`/`xmppPasswd` null and the failure flags false, as the original's upgrade leaves them.
 */
export interface DsServerV5 {
  cacheGroup: string;
  cacheGroupID: number;
  cdnID: number;
  cdn: string;
  configUpdateFailed: boolean;
  domainName: string;
  guid: string | null;
  hostName: string;
  httpsPort?: number;
  id: number;
  iloIpAddress?: string;
  iloIpGateway?: string;
  iloIpNetmask?: string;
  iloPassword?: string;
  iloUsername?: string;
  interfaces: DsServerInterfaceV4[];
  lastUpdated: string;
  mgmtIpAddress?: string;
  mgmtIpGateway?: string;
  mgmtIpNetmask?: string;
  offlineReason: string | null;
  physicalLocation: string;
  physicalLocationID: number;
  profiles?: string[];
  rack: string | null;
  revalUpdateFailed: boolean;
  status: string;
  statusID: number;
  tcpPort: number | null;
  type: string;
  typeID: number;
  xmppId: null;
  xmppPasswd: null;
}

const EPOCH = 0;

/** The original's `config_update_time > config_apply_time`. */
function updPending(loaded: LoadedServer): boolean {
  const { configUpdateTime, configApplyTime } = loaded.server;
  return (configUpdateTime?.getTime() ?? EPOCH) > (configApplyTime?.getTime() ?? EPOCH);
}

function interfaceV3(iface: ServerInterface): DsServerInterfaceV3 {
  return {
    ipAddresses: (iface.ipAddresses ?? []).map((ip) => ({
      address: ip.address,
      gateway: ip.gateway,
      serviceAddress: ip.serviceAddress,
    })),
    maxBandwidth: iface.maxBandwidth,
    monitor: iface.monitor,
    mtu: iface.mtu,
    name: iface.name,
  };
}

function interfaceV4(iface: ServerInterface): DsServerInterfaceV4 {
  return {
    ...interfaceV3(iface),
    routerHostName: iface.routerHostName ?? '',
    routerPortName: iface.routerPortName ?? '',
  };
}

function base({ loaded, showIloPassword }: DsServerRow): DsServerBase {
  const { server } = loaded;
  return {
    cachegroup: server.cachegroup?.name ?? null,
    cachegroupId: server.cachegroupId,
    cdnId: server.cdnId,
    cdnName: server.cdn?.name ?? null,
    domainName: server.domainName,
    guid: server.guid,
    hostName: server.hostName,
    httpsPort: server.httpsPort,
    id: server.id,
    iloIpAddress: server.iloIpAddress,
    iloIpGateway: server.iloIpGateway,
    iloIpNetmask: server.iloIpNetmask,
    iloPassword: showIloPassword ? server.iloPassword : '',
    iloUsername: server.iloUsername,
    lastUpdated: server.lastUpdated,
    mgmtIpAddress: server.mgmtIpAddress,
    mgmtIpGateway: server.mgmtIpGateway,
    mgmtIpNetmask: server.mgmtIpNetmask,
    offlineReason: server.offlineReason,
    physLocation: server.physLocation?.name ?? null,
    physLocationId: server.physLocationId,
    rack: server.rack,
    status: server.status?.name ?? null,
    statusId: server.statusId,
    tcpPort: server.tcpPort,
    type: server.type?.name ?? null,
    typeId: server.typeId,
    updPending: updPending(loaded),
  };
}

/** 3.x: the first profile, and the router of the first interface (all carry the same one). */
export function toDsServerV3(row: DsServerRow): DsServerV3 {
  const { profiles, interfaces } = row.loaded;
  const [profile] = profiles;
  const [first] = interfaces;
  return {
    ...base(row),
    interfaces: interfaces.map(interfaceV3),
    profile: profile?.name ?? null,
    profileDesc: profile?.description ?? null,
    profileId: profile?.id ?? null,
    routerHostName: first?.routerHostName ?? '',
    routerPortName: first?.routerPortName ?? '',
  };
}

export function toDsServerV4(row: DsServerRow): DsServerV4 {
  return {
    ...base(row),
    interfaces: row.loaded.interfaces.map(interfaceV4),
    profileNames: row.loaded.profiles.map((p) => p.name),
  };
}

/** Only the keys of the values that are set (Go's `omitempty` on pointer fields). */
function present<T extends Record<string, unknown>>(
  values: T,
): Partial<{ [K in keyof T]: NonNullable<T[K]> }> {
  return Object.fromEntries(
    Object.entries(values).filter(([, v]) => v !== null && v !== undefined),
  ) as Partial<{
    [K in keyof T]: NonNullable<T[K]>;
  }>;
}

export function toDsServerV5(row: DsServerRow): DsServerV5 {
  const { server, profiles, interfaces } = row.loaded;
  const ilo = base(row);
  return {
    cacheGroup: server.cachegroup?.name ?? '',
    cacheGroupID: server.cachegroupId,
    cdnID: server.cdnId,
    cdn: server.cdn?.name ?? '',
    configUpdateFailed: false,
    domainName: server.domainName,
    guid: server.guid,
    hostName: server.hostName,
    id: server.id,
    interfaces: interfaces.map(interfaceV4),
    lastUpdated: rfc3339(server.lastUpdated),
    offlineReason: server.offlineReason,
    physicalLocation: server.physLocation?.name ?? '',
    physicalLocationID: server.physLocationId,
    rack: server.rack,
    revalUpdateFailed: false,
    status: server.status?.name ?? '',
    statusID: server.statusId,
    tcpPort: server.tcpPort,
    type: server.type?.name ?? '',
    typeID: server.typeId,
    xmppId: null,
    xmppPasswd: null,
    ...present({
      httpsPort: server.httpsPort,
      iloIpAddress: server.iloIpAddress,
      iloIpGateway: server.iloIpGateway,
      iloIpNetmask: server.iloIpNetmask,
      iloPassword: ilo.iloPassword,
      iloUsername: server.iloUsername,
      mgmtIpAddress: server.mgmtIpAddress,
      mgmtIpGateway: server.mgmtIpGateway,
      mgmtIpNetmask: server.mgmtIpNetmask,
    }),
    ...(profiles.length > 0 ? { profiles: profiles.map((p) => p.name) } : {}),
  };
}

/** The server of a delivery-service server list, in the requested version's shape. */
export const toDsServerResponse = byVersion<DsServerRow, DsServerV3 | DsServerV4 | DsServerV5>({
  '3.0': toDsServerV3,
  '4.0': toDsServerV4,
  '5.0': toDsServerV5,
});
