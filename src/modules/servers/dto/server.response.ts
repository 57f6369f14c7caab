import type { ApiVersion } from 'src/common/versioning/api-version';
import { byVersion, rfc3339 } from 'src/common/wire/by-version';
import type { Profile } from 'src/modules/profiles/profile.entity';
import type { ServerInterface } from 'src/modules/servers/server-interface.entity';
import type { Server } from 'src/modules/servers/server.entity';
import { isLater, microTimeWire, type UpdateTimes } from 'src/modules/servers/micro-time';

/** The relations of a server whose id and name alone are loaded with it (docs/decisions.md#d232). */
export const NAMED_RELATIONS = ['cachegroup', 'cdn', 'physLocation', 'status', 'type'] as const;
type NamedRelation = (typeof NAMED_RELATIONS)[number];

/** A server row with the id and name of the rows it references. */
export type NamedServer = Omit<Server, NamedRelation> & {
  [relation in NamedRelation]?: { id: number; name: string } | null;
};

/** What a server's wire shows of its profiles. */
export type ServerProfileName = Pick<Profile, 'id' | 'name' | 'description'>;

/**
 * A server with what its rows reference, as the service loads it; its update and apply times to
 * the microsecond in `times` (the entity's own are Dates, to the millisecond, and are never read:
 * docs/decisions.md#d205).
 */
export interface LoadedServer {
  server: NamedServer;
  profiles: ServerProfileName[];
  interfaces: ServerInterface[];
  times: UpdateTimes;
}

const HIDDEN = '********';

/** A server's IP address on the wire (every version). */
export interface ServerIpAddressWire {
  address: string;
  gateway: string | null;
  serviceAddress: boolean;
}

/** A 3.x interface; 4.0 and later add the router host and port names. */
export interface ServerInterfaceV3 {
  ipAddresses: ServerIpAddressWire[];
  maxBandwidth: number | null;
  monitor: boolean;
  mtu: number | null;
  name: string;
}
export interface ServerInterfaceV4 extends ServerInterfaceV3 {
  routerHostName: string;
  routerPortName: string;
}

export function serverInterfaceV3(iface: ServerInterface): ServerInterfaceV3 {
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

export function serverInterfaceV4(iface: ServerInterface): ServerInterfaceV4 {
  const wire = serverInterfaceV3(iface) as ServerInterfaceV4;
  wire.routerHostName = iface.routerHostName ?? '';
  wire.routerPortName = iface.routerPortName ?? '';
  return wire;
}

/** The fields 3.x and 4.x servers share, under their 4.x names (lib/go-tc CommonServerProperties). */
export interface ServerCommonV3V4 {
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
  revalPending: boolean;
  status: string | null;
  statusId: number;
  /** RFC 3339 (Go `*time.Time`) on 3.x and 4.x, where the record's `lastUpdated` is not. */
  statusLastUpdated: string | null;
  tcpPort: number | null;
  type: string | null;
  typeId: number;
  updPending: boolean;
  xmppId: string | null;
  xmppPasswd: string | null;
}

/** What 3.x adds to the common fields: one profile, the router port on the server. */
export interface ServerOwnV3 {
  interfaces: ServerInterfaceV3[];
  profile: string | null;
  profileDesc: string | null;
  profileId: number | null;
  routerHostName: string;
  routerPortName: string;
}

/** lib/go-tc ServerV30. */
export interface ServerV3 extends ServerCommonV3V4, ServerOwnV3 {}

/** lib/go-tc ServerV40: profiles by name, the router port on each interface, RFC 3339 update times. */
export interface ServerV4 extends ServerCommonV3V4 {
  configUpdateTime: string | null;
  configApplyTime: string | null;
  interfaces: ServerInterfaceV4[];
  profileNames: string[];
  revalUpdateTime: string | null;
  revalApplyTime: string | null;
}

/**
 * lib/go-tc ServerV50: the 5.0 names (`cacheGroup`, `cdn`, `physicalLocation`, `profiles`, `statusID`,
 * …), no `updPending`/`revalPending`, every timestamp RFC 3339 (the route's `@WireTimes`), and the
 * original's `omitempty` fields left out when null.
 */
export interface ServerV5 {
  cacheGroup: string;
  cacheGroupID: number;
  cdnID: number;
  cdn: string;
  configApplyTime?: string;
  configUpdateTime?: string;
  /** Whether the last configuration apply reported by t3c failed. */
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
  interfaces: ServerInterfaceV4[];
  lastUpdated: Date;
  mgmtIpAddress?: string;
  mgmtIpGateway?: string;
  mgmtIpNetmask?: string;
  offlineReason: string | null;
  physicalLocation: string;
  physicalLocationID: number;
  profiles?: string[];
  rack: string | null;
  revalApplyTime?: string;
  revalUpdateTime?: string;
  /** Whether the last revalidation apply reported by t3c failed. */
  revalUpdateFailed: boolean;
  status: string;
  statusID: number;
  statusLastUpdated?: Date;
  tcpPort: number | null;
  type: string;
  typeID: number;
  xmppId: string | null;
  xmppPasswd: string | null;
}

export type ServerWire = ServerV3 | ServerV4 | ServerV5;

/**
 * What the mappers read: the loaded server, whether its passwords may be shown, and what a hidden
 * password reads as (the servers routes' mask; the delivery-service server lists use '').
 */
export interface ServerRow extends LoadedServer {
  showSecrets: boolean;
  mask: string;
}

export function serverCommonV3V4({ server, times, showSecrets, mask }: ServerRow): ServerCommonV3V4 {
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
    iloPassword: showSecrets ? server.iloPassword : mask,
    iloUsername: server.iloUsername,
    lastUpdated: server.lastUpdated,
    mgmtIpAddress: server.mgmtIpAddress,
    mgmtIpGateway: server.mgmtIpGateway,
    mgmtIpNetmask: server.mgmtIpNetmask,
    offlineReason: server.offlineReason,
    physLocation: server.physLocation?.name ?? null,
    physLocationId: server.physLocationId,
    rack: server.rack,
    revalPending: isLater(times.revalidateUpdateTime, times.revalidateApplyTime),
    status: server.status?.name ?? null,
    statusId: server.statusId,
    statusLastUpdated: rfc3339(server.statusLastUpdated),
    tcpPort: server.tcpPort,
    type: server.type?.name ?? null,
    typeId: server.typeId,
    updPending: isLater(times.configUpdateTime, times.configApplyTime),
    xmppId: server.xmppId,
    xmppPasswd: showSecrets ? server.xmppPasswd : mask,
  };
}

/** The 3.x profile and router fields, the router taken from `router`. */
export function serverOwnV3(
  { profiles, interfaces }: LoadedServer,
  router: ServerInterface | undefined,
): ServerOwnV3 {
  const [profile] = profiles;
  return {
    interfaces: interfaces.map(serverInterfaceV3),
    profile: profile?.name ?? null,
    profileDesc: profile?.description ?? null,
    profileId: profile?.id ?? null,
    routerHostName: router?.routerHostName ?? '',
    routerPortName: router?.routerPortName ?? '',
  };
}

// The version's own fields are added to the common object rather than spread with it into a new
// one: a list of 1,000 servers would build each server twice (the keys' order is the same).
function toServerV3(row: ServerRow): ServerV3 {
  const routed = row.interfaces.find((iface) => iface.routerHostName || iface.routerPortName);
  return Object.assign(serverCommonV3V4(row), serverOwnV3(row, routed));
}

function toServerV4(row: ServerRow): ServerV4 {
  const { times } = row;
  const wire = serverCommonV3V4(row) as ServerV4;
  wire.configUpdateTime = microTimeWire(times.configUpdateTime);
  wire.configApplyTime = microTimeWire(times.configApplyTime);
  wire.interfaces = row.interfaces.map(serverInterfaceV4);
  wire.profileNames = row.profiles.map((p) => p.name);
  wire.revalUpdateTime = microTimeWire(times.revalidateUpdateTime);
  wire.revalApplyTime = microTimeWire(times.revalidateApplyTime);
  return wire;
}

/** Sets `key` only when `value` is neither null nor undefined (Go's `omitempty` on a pointer). */
function unlessNull<T extends object, K extends keyof T>(target: T, key: K, value: T[K] | null | undefined) {
  if (value !== null && value !== undefined) {
    target[key] = value;
  }
}

export function toServerV5({ server, profiles, interfaces, times, showSecrets, mask }: ServerRow): ServerV5 {
  const wire: ServerV5 = {
    cacheGroup: server.cachegroup?.name ?? '',
    cacheGroupID: server.cachegroupId,
    cdnID: server.cdnId,
    cdn: server.cdn?.name ?? '',
    configUpdateFailed: server.configUpdateFailed,
    domainName: server.domainName,
    guid: server.guid,
    hostName: server.hostName,
    id: server.id,
    interfaces: interfaces.map(serverInterfaceV4),
    lastUpdated: server.lastUpdated,
    offlineReason: server.offlineReason,
    physicalLocation: server.physLocation?.name ?? '',
    physicalLocationID: server.physLocationId,
    rack: server.rack,
    revalUpdateFailed: server.revalidateUpdateFailed,
    status: server.status?.name ?? '',
    statusID: server.statusId,
    tcpPort: server.tcpPort,
    type: server.type?.name ?? '',
    typeID: server.typeId,
    xmppId: server.xmppId,
    xmppPasswd: showSecrets ? server.xmppPasswd : mask,
  };
  unlessNull(wire, 'configApplyTime', microTimeWire(times.configApplyTime));
  unlessNull(wire, 'configUpdateTime', microTimeWire(times.configUpdateTime));
  unlessNull(wire, 'httpsPort', server.httpsPort);
  unlessNull(wire, 'iloIpAddress', server.iloIpAddress);
  unlessNull(wire, 'iloIpGateway', server.iloIpGateway);
  unlessNull(wire, 'iloIpNetmask', server.iloIpNetmask);
  unlessNull(wire, 'iloPassword', showSecrets ? server.iloPassword : mask);
  unlessNull(wire, 'iloUsername', server.iloUsername);
  unlessNull(wire, 'mgmtIpAddress', server.mgmtIpAddress);
  unlessNull(wire, 'mgmtIpGateway', server.mgmtIpGateway);
  unlessNull(wire, 'mgmtIpNetmask', server.mgmtIpNetmask);
  if (profiles.length > 0) {
    wire.profiles = profiles.map((p) => p.name);
  }
  unlessNull(wire, 'revalApplyTime', microTimeWire(times.revalidateApplyTime));
  unlessNull(wire, 'revalUpdateTime', microTimeWire(times.revalidateUpdateTime));
  unlessNull(wire, 'statusLastUpdated', server.statusLastUpdated);
  return wire;
}

const SERVER_WIRE = byVersion<ServerRow, ServerWire>({
  '3.0': toServerV3,
  '4.0': toServerV4,
  '5.0': toServerV5,
});

/**
 * A server on the wire, per version (lib/go-tc ServerV30, ServerV40, ServerV50). Passwords are hidden
 * from users below the operations level, as the original hides them.
 */
export function toServerResponse(
  loaded: LoadedServer,
  version: ApiVersion,
  showSecrets: boolean,
): ServerWire {
  return SERVER_WIRE({ ...loaded, showSecrets, mask: HIDDEN }, version);
}
