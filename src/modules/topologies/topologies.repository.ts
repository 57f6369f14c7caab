import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager, In } from 'typeorm';
import { insertRow, insertRows } from 'src/common/database/insert-rows';
import { lockingClause, writeLock } from 'src/common/database/locks';
import { getPlainMany } from 'src/common/database/plain-rows';
import { applyListQuery, type ListQuery } from 'src/common/list-query/list-query';
import type { TopologyView } from './dto/topology.response';
import { TopologyCachegroupParent } from './topology-cachegroup-parent.entity';
import { TopologyCachegroup } from './topology-cachegroup.entity';
import { Topology } from './topology.entity';

/** The row of a cache group a node names. */
export interface CachegroupRow {
  id: number;
  name: string;
  type: string;
}

/** A node's parent, by node id, with its rank (1 primary, 2 secondary). */
export type NodeParent = Pick<TopologyCachegroupParent, 'child' | 'parent' | 'rank'>;

/** A child cache group and its parent (null: none), with the topology it is a node of. */
export interface CachegroupEdge {
  topology?: string;
  cachegroup: string;
  parent: string | null;
}

/**
 * The topology, topology_cachegroup and topology_cachegroup_parents tables, and what the topology
 * rules read of cache groups, servers and delivery services: the only file of the module that runs
 * SQL (docs/architecture.md#data-access). Methods taking a `manager` run in the caller's transaction.
 */
@Injectable()
export class TopologiesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The page of topologies, each with its nodes. */
  async list(query: ListQuery): Promise<TopologyView[]> {
    const manager = this.dataSource.manager;
    const rows = await getPlainMany(applyListQuery(manager.createQueryBuilder(Topology, 't'), query));
    return this.withNodes(manager, rows);
  }

  /** The topology, read under a write lock (nothing on SQLite). */
  lockedByName(manager: EntityManager, name: string): Promise<Topology | null> {
    return manager.findOne(Topology, { where: { name }, lock: writeLock(this.dataSource) });
  }

  /** The topology as stored; it must exist. */
  byName(manager: EntityManager, name: string): Promise<Topology> {
    return manager.findOneOrFail(Topology, { where: { name } });
  }

  async add(manager: EntityManager, columns: Pick<Topology, 'name' | 'description'>): Promise<void> {
    await insertRows(manager, Topology, columns);
  }

  /** Renames and describes the topology (its nodes follow the name by the foreign key's cascade). */
  async change(
    manager: EntityManager,
    name: string,
    columns: Pick<Topology, 'name' | 'description'>,
  ): Promise<void> {
    await manager.update(Topology, { name }, columns);
  }

  /** Deletes the topology (its nodes and parents by cascade). */
  async remove(manager: EntityManager, name: string): Promise<void> {
    await manager.delete(Topology, { name });
  }

  /** The topology's nodes. */
  nodes(manager: EntityManager, topology: string): Promise<TopologyCachegroup[]> {
    return manager.find(TopologyCachegroup, { where: { topology } });
  }

  /** Deletes the parents of these nodes (the rows where they are the child). */
  async removeParentsOf(manager: EntityManager, nodeIds: number[]): Promise<void> {
    await manager.delete(TopologyCachegroupParent, { child: In(nodeIds) });
  }

  async removeNodes(manager: EntityManager, nodeIds: number[]): Promise<void> {
    await manager.delete(TopologyCachegroup, { id: In(nodeIds) });
  }

  /** Adds a node: its id. */
  addNode(manager: EntityManager, topology: string, cachegroup: string): Promise<number> {
    return insertRow(manager, TopologyCachegroup, { topology, cachegroup });
  }

  /** Adds the parents of nodes (one statement). */
  async addParents(manager: EntityManager, parents: NodeParent[]): Promise<void> {
    await insertRows(manager, TopologyCachegroupParent, parents);
  }

  /** Topologies with their nodes (in the order they were added) and parents as node indexes. */
  async withNodes(manager: EntityManager, topologies: Topology[]): Promise<TopologyView[]> {
    if (topologies.length === 0) {
      return [];
    }
    const names = topologies.map((t) => t.name);
    const nodes = await manager.find(TopologyCachegroup, {
      where: { topology: In(names) },
      order: { id: 'ASC' },
    });
    const parents =
      nodes.length === 0
        ? []
        : await manager.find(TopologyCachegroupParent, {
            where: { child: In(nodes.map((n) => n.id)) },
            order: { child: 'ASC', rank: 'ASC' },
          });
    const parentsOf = new Map<number, number[]>();
    for (const p of parents) {
      parentsOf.set(p.child, [...(parentsOf.get(p.child) ?? []), p.parent]);
    }
    return topologies.map((t) => {
      const own = nodes.filter((n) => n.topology === t.name);
      const indexOf = new Map(own.map((n, i) => [n.id, i]));
      return {
        name: t.name,
        description: t.description,
        lastUpdated: t.lastUpdated,
        nodes: own.map((n) => ({
          cachegroup: n.cachegroup,
          parents: (parentsOf.get(n.id) ?? []).map((id) => indexOf.get(id)!),
        })),
      };
    });
  }

  /** Whether there is a CDN with this id. */
  cdnExists(id: number): Promise<boolean> {
    return this.exists('SELECT 1 FROM cdn WHERE id = ?', [id]);
  }

  /** Whether there is a topology by this name. */
  topologyExists(name: string): Promise<boolean> {
    return this.exists('SELECT 1 FROM topology WHERE name = ?', [name]);
  }

  /** The cache groups of the topology's nodes, in node order. */
  nodeCachegroups(manager: EntityManager, topology: string): Promise<{ id: number; name: string }[]> {
    return manager.query<{ id: number; name: string }[]>(
      'SELECT cg.id AS id, cg.name AS name FROM topology_cachegroup tc ' +
        'JOIN cachegroup cg ON cg.name = tc.cachegroup WHERE tc.topology = ? ORDER BY tc.id',
      [topology],
    );
  }

  /** The ORG servers assigned to the delivery service outside the topology's cache groups. */
  originServersOutside(
    manager: EntityManager,
    dsId: number,
    topology: string,
  ): Promise<{ host: string; cachegroup: string }[]> {
    return manager.query<{ host: string; cachegroup: string }[]>(
      'SELECT s.host_name AS host, cg.name AS cachegroup FROM server s ' +
        'JOIN deliveryservice_server dss ON dss.server = s.id JOIN type t ON t.id = s.type ' +
        'JOIN cachegroup cg ON cg.id = s.cachegroup ' +
        "WHERE dss.deliveryservice = ? AND t.name = 'ORG' AND cg.name NOT IN " +
        '(SELECT tc.cachegroup FROM topology_cachegroup tc WHERE tc.topology = ?) ORDER BY cg.name, s.host_name',
      [dsId, topology],
    );
  }

  /** The cache groups by these names (each once), with their type's name. */
  async cachegroupsByName(manager: EntityManager, names: string[]): Promise<Map<string, CachegroupRow>> {
    const unique = [...new Set(names)];
    if (unique.length === 0) {
      return new Map();
    }
    const rows = await manager.query<CachegroupRow[]>(
      `SELECT cg.id AS id, cg.name AS name, t.name AS type FROM cachegroup cg JOIN type t ON t.id = cg.type ` +
        `WHERE cg.name IN (${unique.map(() => '?').join(', ')})`,
      unique,
    );
    return new Map(rows.map((r) => [r.name, { ...r, id: Number(r.id) }]));
  }

  /** The CDNs of the delivery services that use the topology. */
  async deliveryServiceCdns(manager: EntityManager, topology: string): Promise<number[]> {
    const rows = await manager.query<{ cdn: number }[]>(
      'SELECT DISTINCT cdn_id AS cdn FROM deliveryservice WHERE topology = ? ORDER BY cdn_id',
      [topology],
    );
    return rows.map((r) => Number(r.cdn));
  }

  /** How many servers each of these cache groups has, per CDN. */
  serverCounts(
    manager: EntityManager,
    cachegroupIds: number[],
  ): Promise<{ cachegroup: number; cdn: number; n: number | string }[]> {
    return manager.query<{ cachegroup: number; cdn: number; n: number | string }[]>(
      'SELECT s.cachegroup AS cachegroup, s.cdn_id AS cdn, COUNT(*) AS n FROM server s ' +
        `WHERE s.cachegroup IN (${cachegroupIds.map(() => '?').join(', ')}) GROUP BY s.cachegroup, s.cdn_id`,
      cachegroupIds,
    );
  }

  /** The names of the topologies the cache group is a node of, in name order. */
  async topologiesWith(manager: EntityManager, cachegroup: string): Promise<string[]> {
    const rows = await manager.query<{ topology: string }[]>(
      'SELECT topology FROM topology_cachegroup WHERE cachegroup = ? ORDER BY topology',
      [cachegroup],
    );
    return rows.map((t) => t.topology);
  }

  /** The required capabilities of the delivery services that use the topology, with their CDN. */
  requiredCapabilities(
    manager: EntityManager,
    topology: string,
  ): Promise<{ xmlId: string; cdn: number | string; capability: string }[]> {
    return manager.query<{ xmlId: string; cdn: number | string; capability: string }[]>(
      'SELECT d.xml_id AS xmlId, d.cdn_id AS cdn, rc.required_capability AS capability FROM deliveryservice d ' +
        'JOIN deliveryservices_required_capability rc ON rc.deliveryservice_id = d.id ' +
        'WHERE d.topology = ? ORDER BY d.xml_id, rc.required_capability',
      [topology],
    );
  }

  /**
   * The servers of these CDNs in these cache groups (origin cache groups aside), a row per capability
   * (null: none). A locking read: no server loses a capability before the caller's write.
   */
  serverCapabilities(
    manager: EntityManager,
    cachegroups: string[],
    cdns: number[],
  ): Promise<{ id: number | string; cdn: number | string; cachegroup: string; capability: string | null }[]> {
    return manager.query<
      { id: number | string; cdn: number | string; cachegroup: string; capability: string | null }[]
    >(
      'SELECT s.id AS id, s.cdn_id AS cdn, c.name AS cachegroup, ssc.server_capability AS capability ' +
        'FROM server s JOIN cachegroup c ON c.id = s.cachegroup JOIN type ct ON ct.id = c.type ' +
        'LEFT JOIN server_server_capability ssc ON ssc.server = s.id ' +
        `WHERE c.name IN (${cachegroups.map(() => '?').join(', ')}) AND s.cdn_id IN (${cdns.map(() => '?').join(', ')}) ` +
        "AND ct.name <> 'ORG_LOC' ORDER BY c.name, s.id" +
        lockingClause(this.dataSource, 'share'),
      [...cachegroups, ...cdns],
    );
  }

  /** The ORG servers assigned to delivery services of these CDNs that use the topology. */
  originServersOfTopology(
    manager: EntityManager,
    cdnIds: number[],
    topology: string,
  ): Promise<{ server: number; cachegroup: string; xml_id: string }[]> {
    return manager.query<{ server: number; cachegroup: string; xml_id: string }[]>(
      'SELECT s.id AS server, cg.name AS cachegroup, d.xml_id AS xml_id FROM server s ' +
        'JOIN deliveryservice_server dss ON dss.server = s.id JOIN deliveryservice d ON d.id = dss.deliveryservice ' +
        'JOIN type t ON t.id = s.type JOIN cachegroup cg ON cg.id = s.cachegroup ' +
        `WHERE d.cdn_id IN (${cdnIds.map(() => '?').join(', ')}) AND t.name = 'ORG' AND d.topology = ? ` +
        'ORDER BY cg.name, s.id, d.xml_id',
      [...cdnIds, topology],
    );
  }

  /** The nodes of the other topologies, a row per parent (null: none), in node and rank order. */
  otherTopologiesEdges(manager: EntityManager, currentName: string): Promise<Required<CachegroupEdge>[]> {
    return manager.query<Required<CachegroupEdge>[]>(
      'SELECT tc.topology AS topology, tc.cachegroup AS cachegroup, ptc.cachegroup AS parent ' +
        'FROM topology_cachegroup tc LEFT JOIN topology_cachegroup_parents p ON p.child = tc.id ' +
        'LEFT JOIN topology_cachegroup ptc ON ptc.id = p.parent WHERE tc.topology <> ? ORDER BY tc.topology, tc.id, p.rank',
      [currentName],
    );
  }

  /** The parents (and grandparents) of the EDGE and MID cache groups, outside topologies. */
  nonTopologyEdges(manager: EntityManager): Promise<CachegroupEdge[]> {
    const edgeOrMid = "(LOWER(t.name) LIKE 'edge%' OR LOWER(t.name) LIKE 'mid%')";
    return manager.query<CachegroupEdge[]>(
      'SELECT c.name AS cachegroup, pc.name AS parent FROM cachegroup c JOIN type t ON t.id = c.type ' +
        'JOIN cachegroup pc ON pc.id = c.parent_cachegroup_id OR pc.id = c.secondary_parent_cachegroup_id ' +
        `WHERE ${edgeOrMid} ` +
        'UNION SELECT pc2.name AS cachegroup, ppc.name AS parent FROM cachegroup c JOIN type t ON t.id = c.type ' +
        'JOIN cachegroup pc2 ON pc2.id = c.parent_cachegroup_id OR pc2.id = c.secondary_parent_cachegroup_id ' +
        'LEFT JOIN cachegroup ppc ON ppc.id = pc2.parent_cachegroup_id OR ppc.id = pc2.secondary_parent_cachegroup_id ' +
        `WHERE ${edgeOrMid} ORDER BY cachegroup, parent`,
    );
  }

  private async exists(sql: string, parameters: unknown[]): Promise<boolean> {
    return (await this.dataSource.manager.query<unknown[]>(sql, parameters)).length > 0;
  }
}
