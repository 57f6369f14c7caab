import { byVersion, rfc3339 } from 'src/common/wire/by-version';

/** A server's capability with the server's host name, as the list reads it. */
export interface ServerServerCapabilityRow {
  serverId: number;
  serverCapability: string;
  lastUpdated: Date;
  /** Absent from a write's response, as in the original's (`omitempty`, not read back). */
  serverHostName?: string;
}

/** 3.x and 4.x (lib/go-tc ServerServerCapability); a `Date` is written as `YYYY-MM-DD HH:MM:SS+00`. */
export interface ServerServerCapabilityV3 {
  lastUpdated: Date | string;
  serverHostName?: string;
  serverId: number;
  serverCapability: string;
}

/** 5.0 (ServerServerCapabilityV50): `lastUpdated` in RFC 3339. */
export interface ServerServerCapabilityV5 {
  lastUpdated: string;
  serverHostName?: string;
  serverId: number;
  serverCapability: string;
}

function withHostName<T extends object>(wire: T, row: ServerServerCapabilityRow): T {
  return row.serverHostName === undefined ? wire : { ...wire, serverHostName: row.serverHostName };
}

export const toServerServerCapabilityResponse = byVersion<
  ServerServerCapabilityRow,
  ServerServerCapabilityV3 | ServerServerCapabilityV5
>({
  '3.0': (row): ServerServerCapabilityV3 =>
    withHostName(
      { lastUpdated: row.lastUpdated, serverId: row.serverId, serverCapability: row.serverCapability },
      row,
    ),
  '5.0': (row): ServerServerCapabilityV5 =>
    withHostName(
      {
        lastUpdated: rfc3339(row.lastUpdated),
        serverId: row.serverId,
        serverCapability: row.serverCapability,
      },
      row,
    ),
});

/** The body of multiple_servers_capabilities as the original echoes it (lib/go-tc MultipleServersCapabilities). */
export interface MultipleServersCapabilitiesV41 {
  serverCapabilities: string[] | null;
  serverIds: number[] | null;
  pageType: string;
}
