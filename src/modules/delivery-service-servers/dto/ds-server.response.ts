import { byVersion } from 'src/common/wire/by-version';
import {
  serverCommonV3V4,
  serverInterfaceV4,
  serverOwnV3,
  toServerV5,
  type LoadedServer,
  type ServerCommonV3V4,
  type ServerOwnV3,
  type ServerRow,
  type ServerV4,
  type ServerV5,
} from 'src/modules/servers/dto/server.response';

/**
 * A server as GET deliveryservices/{id}/servers and …/servers/eligible answer it (lib/go-tc
 * DSServer on 3.x, DSServerV4 on 4.x, DSServerV50 on 5.0), with whether the user may see its ILO
 * password (an empty string otherwise, as the original hides it). Each shape is the server's
 * (servers/dto/server.response.ts) less what the delivery-service server types leave out.
 */
export interface DsServerRow {
  loaded: LoadedServer;
  showIloPassword: boolean;
}

/** The fields 3.x and 4.x share (lib/go-tc DSServerBase / DSServerBaseV4): no reval or XMPP fields. */
type DsServerBase = Omit<ServerCommonV3V4, 'revalPending' | 'statusLastUpdated' | 'xmppId' | 'xmppPasswd'>;

/** 3.x (lib/go-tc DSServer): one profile, the router on the server. */
export type DsServerV3 = DsServerBase & ServerOwnV3;

/** 4.x (lib/go-tc DSServerV4): profiles by name, the router on each interface, no update times. */
export type DsServerV4 = DsServerBase & Pick<ServerV4, 'interfaces' | 'profileNames'>;

/**
 * 5.0 (lib/go-tc DSServerV50, a ServerV50) without its update and status times, `lastUpdated` in
 * RFC 3339, and `xmppId`/`xmppPasswd` null and the failure flags false, as the original's upgrade
 * leaves them.
 */
export type DsServerV5 = Omit<
  ServerV5,
  | 'configApplyTime'
  | 'configUpdateTime'
  | 'revalApplyTime'
  | 'revalUpdateTime'
  | 'statusLastUpdated'
  | 'xmppId'
  | 'xmppPasswd'
> & { xmppId: null; xmppPasswd: null };

/** The server mappers' row: a hidden ILO password reads as ''. */
function serverRow({ loaded, showIloPassword }: DsServerRow): ServerRow {
  return { ...loaded, showSecrets: showIloPassword, mask: '' };
}

function base(row: DsServerRow): DsServerBase {
  const {
    revalPending: _revalPending,
    statusLastUpdated: _statusLastUpdated,
    xmppId: _xmppId,
    xmppPasswd: _xmppPasswd,
    ...shared
  } = serverCommonV3V4(serverRow(row));
  return shared;
}

/** 3.x: the first profile, and the router of the first interface (all carry the same one). */
export function toDsServerV3(row: DsServerRow): DsServerV3 {
  return { ...base(row), ...serverOwnV3(row.loaded, row.loaded.interfaces[0]) };
}

export function toDsServerV4(row: DsServerRow): DsServerV4 {
  return {
    ...base(row),
    interfaces: row.loaded.interfaces.map(serverInterfaceV4),
    profileNames: row.loaded.profiles.map((p) => p.name),
  };
}

export function toDsServerV5(row: DsServerRow): DsServerV5 {
  const {
    configApplyTime: _configApplyTime,
    configUpdateTime: _configUpdateTime,
    revalApplyTime: _revalApplyTime,
    revalUpdateTime: _revalUpdateTime,
    statusLastUpdated: _statusLastUpdated,
    ...shared
  } = toServerV5(serverRow(row));
  return {
    ...shared,
    configUpdateFailed: false,
    revalUpdateFailed: false,
    xmppId: null,
    xmppPasswd: null,
  };
}

/** The server of a delivery-service server list, in the requested version's shape. */
export const toDsServerResponse = byVersion<DsServerRow, DsServerV3 | DsServerV4 | DsServerV5>({
  '3.0': toDsServerV3,
  '4.0': toDsServerV4,
  '5.0': toDsServerV5,
});
