import type { ApiVersion } from 'src/common/versioning/api-version';
import type { Profile } from 'src/modules/profiles/profile.entity';
import type { ServerInterface } from 'src/modules/servers/server-interface.entity';
import type { Server } from 'src/modules/servers/server.entity';

/** A server with what its rows reference, as the service loads it. */
export interface LoadedServer {
  server: Server;
  profiles: Profile[];
  interfaces: ServerInterface[];
}

const HIDDEN = '********';
const EPOCH = 0;

/** Updates (revalidations) are pending while the last queued time is later than the last applied one. */
function pending(queued: Date | null, applied: Date | null): boolean {
  return (queued?.getTime() ?? EPOCH) > (applied?.getTime() ?? EPOCH);
}

function interfaceOf(iface: ServerInterface, withRouter: boolean): Record<string, unknown> {
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
    ...(withRouter
      ? { routerHostName: iface.routerHostName ?? '', routerPortName: iface.routerPortName ?? '' }
      : {}),
  };
}

/**
 * A server on the wire: 4.0+ lists its profiles by name and the router port on each interface; 3.x
 * names its one (first) profile and puts the router port on the server. Passwords are hidden from
 * users below the operations level, as the original hides them.
 */
export function toServerResponse(loaded: LoadedServer, version: ApiVersion, showSecrets: boolean) {
  const { server, profiles, interfaces } = loaded;
  const body: Record<string, unknown> = {
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
    iloPassword: showSecrets ? server.iloPassword : HIDDEN,
    iloUsername: server.iloUsername,
    lastUpdated: server.lastUpdated,
    mgmtIpAddress: server.mgmtIpAddress,
    mgmtIpGateway: server.mgmtIpGateway,
    mgmtIpNetmask: server.mgmtIpNetmask,
    offlineReason: server.offlineReason,
    physLocation: server.physLocation?.name ?? null,
    physLocationId: server.physLocationId,
    rack: server.rack,
    revalPending: pending(server.revalidateUpdateTime, server.revalidateApplyTime),
    status: server.status?.name ?? null,
    statusId: server.statusId,
    statusLastUpdated: server.statusLastUpdated,
    tcpPort: server.tcpPort,
    type: server.type?.name ?? null,
    typeId: server.typeId,
    updPending: pending(server.configUpdateTime, server.configApplyTime),
    xmppId: server.xmppId,
    xmppPasswd: showSecrets ? server.xmppPasswd : HIDDEN,
  };
  if (version.atLeast('4.0')) {
    return {
      ...body,
      configUpdateTime: server.configUpdateTime,
      configApplyTime: server.configApplyTime,
      interfaces: interfaces.map((iface) => interfaceOf(iface, true)),
      profileNames: profiles.map((p) => p.name),
      revalUpdateTime: server.revalidateUpdateTime,
      revalApplyTime: server.revalidateApplyTime,
    };
  }
  const [profile] = profiles;
  const routed = interfaces.find((iface) => iface.routerHostName || iface.routerPortName);
  return {
    ...body,
    interfaces: interfaces.map((iface) => interfaceOf(iface, false)),
    profile: profile?.name ?? null,
    profileDesc: profile?.description ?? null,
    profileId: profile?.id ?? null,
    routerHostName: routed?.routerHostName ?? '',
    routerPortName: routed?.routerPortName ?? '',
  };
}
