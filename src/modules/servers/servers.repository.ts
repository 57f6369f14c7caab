import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager, In, type SelectQueryBuilder } from 'typeorm';
import { insertRow, insertRows } from 'src/common/database/insert-rows';
import { lockingClause, writeLock } from 'src/common/database/locks';
import {
  getPlainMany,
  getPlainManyForIds,
  getPlainOne,
  groupBy,
  rowsForIds,
  selectReferences,
} from 'src/common/database/plain-rows';
import { applyListQuery, type ListQuery } from 'src/common/list-query/list-query';
import { Profile } from 'src/modules/profiles/profile.entity';
import { Type } from 'src/modules/types/type.entity';
import { type LoadedServer, NAMED_RELATIONS, type NamedServer } from './dto/server.response';
import { IpAddress } from './ip-address.entity';
import { microTimeFromDb, type UpdateTimes } from './micro-time';
import { ServerInterface } from './server-interface.entity';
import { ServerProfile } from './server-profile.entity';
import { Server } from './server.entity';

/** A server's interface as it is written, with its addresses in their stored (canonical) form. */
export interface InterfaceColumns {
  name: string;
  monitor: boolean;
  mtu: number | null;
  maxBandwidth: number | null;
  routerHostName: string | null;
  routerPortName: string | null;
  ipAddresses: { address: string; gateway: string | null; serviceAddress: boolean }[];
}

/** A column's time as text with six fractional digits on MySQL (a Date would keep milliseconds). */
export function timeText(dataSource: DataSource, column: string): string {
  return dataSource.options.type === 'mysql' ? `DATE_FORMAT(${column}, '%Y-%m-%d %H:%i:%s.%f')` : column;
}

/** The raw row of a server's update and apply times. */
interface TimesRow {
  id: number | string;
  config_update_time: Date | string | null;
  config_apply_time: Date | string | null;
  revalidate_update_time: Date | string | null;
  revalidate_apply_time: Date | string | null;
}

/** A server's rows besides its own: its profiles by priority and its interfaces. */
export interface ServerParts {
  profiles: { id: number }[];
  interfaces: InterfaceColumns[];
}

/**
 * The server, server_profile, interface and ip_address tables, and what the servers' rules read of
 * other tables: with server-updates.repository.ts, the only files of the module that run SQL
 * (docs/architecture.md#data-access). Methods taking a `manager` run in the caller's transaction.
 */
@Injectable()
export class ServersRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The page of servers with their details, and the number matching (counted only for a page). */
  async list(query: ListQuery): Promise<{ servers: LoadedServer[]; count: number }> {
    const manager = this.dataSource.manager;
    const qb = applyListQuery(this.withNames(manager), query);
    const [servers, counted] = await Promise.all([
      getPlainMany(qb),
      // Without a page, the answer holds every matching server: its length is the count.
      query.limit === undefined ? undefined : qb.getCount(),
    ]);
    return { servers: await this.loadDetails(manager, servers), count: counted ?? servers.length };
  }

  /** The tenant of a delivery service, or undefined when there is none. */
  async deliveryServiceTenant(id: number): Promise<number | undefined> {
    const [ds] = await this.dataSource.query<{ tenant_id: number | string }[]>(
      'SELECT tenant_id FROM deliveryservice WHERE id = ?',
      [id],
    );
    return ds ? Number(ds.tenant_id) : undefined;
  }

  async byId(
    id: number,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<LoadedServer | undefined> {
    const server = await getPlainOne(this.withNames(manager).where('server.id = :id', { id }));
    return server ? (await this.loadDetails(manager, [server]))[0] : undefined;
  }

  /** The server row, write-locked until the transaction ends. */
  lockedById(manager: EntityManager, id: number): Promise<Server | null> {
    return manager.findOne(Server, { where: { id }, lock: writeLock(this.dataSource) });
  }

  /** Adds a server with its profiles and interfaces: its id. */
  async add(manager: EntityManager, columns: Partial<Server>, parts: ServerParts): Promise<number> {
    const id = await insertRow(manager, Server, columns);
    await this.writeParts(manager, id, parts);
    return id;
  }

  /** Changes the server's row and replaces its profiles and interfaces. */
  async change(
    manager: EntityManager,
    id: number,
    columns: Partial<Server>,
    parts: ServerParts,
  ): Promise<void> {
    await manager.update(Server, { id }, columns);
    await manager.delete(ServerProfile, { serverId: id });
    await manager.delete(ServerInterface, { serverId: id });
    await this.writeParts(manager, id, parts);
  }

  /** Deletes the server (its profiles, interfaces and addresses go with it). */
  async remove(manager: EntityManager, id: number): Promise<void> {
    await manager.delete(Server, { id });
  }

  /** Whether the server is assigned to a delivery service. */
  async isAssigned(manager: EntityManager, id: number): Promise<boolean> {
    const [assigned] = await manager.query<unknown[]>(
      'SELECT 1 AS one FROM deliveryservice_server WHERE server = ? LIMIT 1',
      [id],
    );
    return Boolean(assigned);
  }

  typeById(id: number): Promise<Type | null> {
    return this.dataSource.manager.findOneBy(Type, { id });
  }

  profileById(id: number): Promise<Profile | null> {
    return this.dataSource.manager.findOneBy(Profile, { id });
  }

  profilesByName(names: string[]): Promise<Profile[]> {
    return this.dataSource.manager.findBy(Profile, { name: In(names) });
  }

  /**
   * The active delivery services served by exactly one server of a type starting with `prefix`,
   * that server being `serverId`: id, multi-site origin and topology, by id.
   */
  onlyServedBy(
    manager: EntityManager,
    prefix: string,
    serverId: number,
  ): Promise<{ id: number | string; mso: unknown; topology: string | null | undefined }[]> {
    return manager.query(
      'SELECT ds.id AS id, ds.multi_site_origin AS mso, ds.topology AS topology FROM deliveryservice_server dss ' +
        'JOIN server s ON s.id = dss.server JOIN type t ON t.id = s.type ' +
        'JOIN deliveryservice ds ON ds.id = dss.deliveryservice ' +
        "WHERE SUBSTR(t.name, 1, ?) = ? AND ds.active = 'ACTIVE' " +
        'GROUP BY ds.id, ds.multi_site_origin, ds.topology ' +
        'HAVING COUNT(dss.server) = 1 AND MAX(dss.server) = ? ORDER BY ds.id',
      [prefix.length, prefix, serverId],
    );
  }

  /**
   * For a cache group used by topologies: per topology and CDN, the number of its servers other than
   * `serverId` (a row with a null CDN and 0 when it has none).
   */
  topologyCachegroupServers(
    manager: EntityManager,
    cachegroupId: number,
    serverId: number,
  ): Promise<{ cachegroup: string; topology: string; cdn: number | string | null; n: number | string }[]> {
    return manager.query(
      'SELECT c.name AS cachegroup, tc.topology AS topology, s.cdn_id AS cdn, COUNT(s.id) AS n FROM cachegroup c ' +
        'JOIN topology_cachegroup tc ON tc.cachegroup = c.name ' +
        'LEFT JOIN server s ON s.cachegroup = c.id AND s.id <> ? ' +
        'WHERE c.id = ? GROUP BY c.name, tc.topology, s.cdn_id ORDER BY tc.topology',
      [serverId, cachegroupId],
    );
  }

  /** Whether a delivery service of the CDN uses a topology holding the cache group (by name). */
  async topologyUsedOnCdn(manager: EntityManager, cachegroup: string, cdnId: number): Promise<boolean> {
    const [used] = await manager.query<unknown[]>(
      'SELECT 1 AS one FROM topology_cachegroup tc JOIN deliveryservice d ON d.topology = tc.topology ' +
        'WHERE tc.cachegroup = ? AND d.cdn_id = ? LIMIT 1',
      [cachegroup, cdnId],
    );
    return Boolean(used);
  }

  /** Write-locks the profiles' rows, in id order (nothing on SQLite). */
  async lockProfiles(manager: EntityManager, profileIds: number[]): Promise<void> {
    await manager.query(
      `SELECT id FROM profile WHERE id IN (${profileIds.map(() => '?').join(', ')}) ORDER BY id` +
        lockingClause(this.dataSource, 'write'),
      profileIds,
    );
  }

  /** The addresses among `addresses` held by servers other than `serverId`, by server and id. */
  addressHolders(
    manager: EntityManager,
    addresses: string[],
    serverId: number,
  ): Promise<{ server: number | string; address: string }[]> {
    return manager.query(
      `SELECT ip.server AS server, ip.address AS address FROM ip_address ip ` +
        `WHERE ip.address IN (${addresses.map(() => '?').join(', ')}) AND ip.server <> ? ORDER BY ip.server, ip.id`,
      [...addresses, serverId],
    );
  }

  /** The profile ids of each of the servers, by priority. */
  async profilesOf(manager: EntityManager, serverIds: number[]): Promise<Map<number, number[]>> {
    const links = await manager.query<{ server: number | string; profile: number | string }[]>(
      `SELECT server, profile FROM server_profile WHERE server IN (${serverIds.map(() => '?').join(', ')}) ` +
        'ORDER BY server, priority',
      serverIds,
    );
    const profiles = new Map<number, number[]>();
    for (const [server, rows] of groupBy(links, (link) => Number(link.server))) {
      profiles.set(
        server,
        rows.map((link) => Number(link.profile)),
      );
    }
    return profiles;
  }

  async statusName(manager: EntityManager, id: number): Promise<string | undefined> {
    const [status] = await manager.query<{ name: string }[]>('SELECT name FROM status WHERE id = ?', [id]);
    return status?.name;
  }

  async typeName(manager: EntityManager, id: number): Promise<string> {
    const [type] = await manager.query<{ name: string }[]>('SELECT name FROM type WHERE id = ?', [id]);
    return type.name;
  }

  private get timesSql(): string {
    const text = (column: string) => `${timeText(this.dataSource, column)} AS ${column}`;
    return (
      `SELECT id, ${text('config_update_time')}, ${text('config_apply_time')}, ` +
      `${text('revalidate_update_time')}, ${text('revalidate_apply_time')} FROM server WHERE id IN (:ids)`
    );
  }

  /**
   * The servers with the id and name of what they reference (all the wire shows of those rows): the
   * whole referenced rows would double the columns read per server (docs/decisions.md#d232).
   */
  private withNames(manager: EntityManager): SelectQueryBuilder<NamedServer> {
    const qb = manager.createQueryBuilder(Server, 'server');
    for (const relation of NAMED_RELATIONS) {
      qb.leftJoin(`server.${relation}`, relation);
    }
    return selectReferences(
      qb,
      Object.fromEntries(NAMED_RELATIONS.map((relation) => [relation, ['id', 'name']])),
    );
  }

  /**
   * Profiles (by priority), interfaces and addresses of a page of servers: three set-based queries
   * into plain rows (docs/decisions.md#d106), grouped in one pass each.
   */
  private async loadDetails(manager: EntityManager, servers: NamedServer[]): Promise<LoadedServer[]> {
    if (servers.length === 0) {
      return [];
    }
    const ids = servers.map((s) => s.id);
    const [links, interfaces, addresses, times] = await Promise.all([
      getPlainManyForIds(
        manager,
        selectReferences(
          manager.createQueryBuilder(ServerProfile, 'link').innerJoin('link.profile', 'profile'),
          {
            profile: ['id', 'name', 'description'],
          },
        )
          .where('link.server IN (:ids)')
          .orderBy('link.priority', 'ASC'),
        ids,
      ),
      getPlainManyForIds(
        manager,
        manager
          .createQueryBuilder(ServerInterface, 'iface')
          .where('iface.server IN (:ids)')
          .orderBy('iface.name', 'ASC'),
        ids,
      ),
      getPlainManyForIds(
        manager,
        manager.createQueryBuilder(IpAddress, 'ip').where('ip.server IN (:ids)').orderBy('ip.id', 'ASC'),
        ids,
      ),
      // The update and apply times to the microsecond, which the entity's Dates cannot hold (D205).
      rowsForIds<TimesRow>(manager, this.timesSql, ids),
    ]);
    const timesOf = new Map(times.map((row) => [Number(row.id), timesOfRow(row)]));
    const addressesOf = groupBy(addresses, (ip) => ip.interfaceId);
    for (const iface of interfaces) {
      iface.ipAddresses = addressesOf.get(iface.id) ?? [];
    }
    const linksOf = groupBy(links, (l) => l.serverId);
    const interfacesOf = groupBy(interfaces, (i) => i.serverId);
    return servers.map((server) => ({
      server,
      profiles: (linksOf.get(server.id) ?? []).map((l) => l.profile!),
      interfaces: interfacesOf.get(server.id) ?? [],
      times: timesOf.get(server.id) ?? NO_TIMES,
    }));
  }

  /**
   * Profiles, interfaces and their addresses of server `id`. Interface ids are read back by name,
   * never assumed consecutive.
   */
  private async writeParts(manager: EntityManager, id: number, parts: ServerParts): Promise<void> {
    await insertRows(
      manager,
      ServerProfile,
      parts.profiles.map((profile, priority) => ({ serverId: id, profileId: profile.id, priority })),
    );
    await insertRows(
      manager,
      ServerInterface,
      parts.interfaces.map((iface) => ({
        serverId: id,
        name: iface.name,
        monitor: iface.monitor,
        mtu: iface.mtu,
        maxBandwidth: iface.maxBandwidth,
        routerHostName: iface.routerHostName,
        routerPortName: iface.routerPortName,
      })),
    );
    const stored = await manager.find(ServerInterface, { where: { serverId: id } });
    const addresses = parts.interfaces.flatMap((iface) => {
      const interfaceId = stored.find((s) => s.name === iface.name)!.id;
      return iface.ipAddresses.map((ip) => ({ serverId: id, interfaceId, ...ip }));
    });
    if (addresses.length > 0) {
      await insertRows(manager, IpAddress, addresses);
    }
  }
}

const NO_TIMES: UpdateTimes = {
  configUpdateTime: null,
  configApplyTime: null,
  revalidateUpdateTime: null,
  revalidateApplyTime: null,
};

function timesOfRow(row: TimesRow): UpdateTimes {
  return {
    configUpdateTime: microTimeFromDb(row.config_update_time),
    configApplyTime: microTimeFromDb(row.config_apply_time),
    revalidateUpdateTime: microTimeFromDb(row.revalidate_update_time),
    revalidateApplyTime: microTimeFromDb(row.revalidate_apply_time),
  };
}
