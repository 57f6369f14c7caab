import { insertRow, insertRows } from 'src/common/database/insert-rows';
import { getPlainMany } from 'src/common/database/plain-rows';
import { BadRequestException, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource, type EntityManager, In } from 'typeorm';
import { translateDbErrors } from 'src/common/database/db-error';
import { lockingClause, writeLock } from 'src/common/database/locks';
import { applyListQuery, type ListQuery } from 'src/common/list-query/list-query';
import { ServersQueueService } from 'src/modules/servers/servers-queue.service';
import type { TopologyInput, TopologyNodeInput, TopologyQueueUpdateInput } from './dto/topology.dto';
import type { TopologyQueueUpdateResponse, TopologyView } from './dto/topology.response';
import { TopologyCachegroupParent } from './topology-cachegroup-parent.entity';
import { TopologyCachegroup } from './topology-cachegroup.entity';
import { Topology } from './topology.entity';
import {
  type RuleFailure,
  cycleText,
  duplicateCachegroup,
  edgeParentChecks,
  joinFailures,
  leafMidFailures,
  nameFailure,
  nodeShapeFailures,
} from './topology-rules';
import { CdnLocksService, type LockUser } from 'src/modules/cdn-locks/cdn-locks.service';
import { UnitOfWork } from 'src/common/database/unit-of-work';

/** The original's texts (topology.go). */
export const NOT_EXACTLY_ONE = 'cannot find exactly 1 topology with the query string provided';
export const REFUSE_DELETE_ALL = 'Refusing to delete all resources of type Topology';

/** The row of a cache group a node names. */
interface CachegroupRow {
  id: number;
  name: string;
  type: string;
}

/** A written topology and the warnings its rules gave (an EDGE_LOC parent of an EDGE_LOC). */
export interface TopologyWrite {
  view: TopologyView;
  warnings: string[];
}

/**
 * Topologies: a name, a description and nodes (a cache group each, with up to two parents among the
 * other nodes). Every write validates the whole topology as the original does (topology.go
 * Validate, docs/original-behaviour.md#topologies) and replaces its nodes and parents in one
 * transaction; names are the database's to keep unique and to cascade.
 */
@Injectable()
export class TopologiesService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly queue: ServersQueueService,
    private readonly locks: CdnLocksService,
  ) {}

  async list(query: ListQuery): Promise<TopologyView[]> {
    const manager = this.dataSource.manager;
    const rows = await getPlainMany(applyListQuery(manager.createQueryBuilder(Topology, 't'), query));
    return this.withNodes(manager, rows);
  }

  create(input: TopologyInput): Promise<TopologyWrite> {
    return this.unitOfWork.run(async (manager) => {
      const warnings = await this.validate(manager, input, '');
      await translateDbErrors(
        () => insertRows(manager, Topology, { name: input.name, description: input.description }),
        (failure) => (failure.kind === 'unique' ? alreadyExists(input.name) : undefined),
      );
      await this.writeNodes(manager, input.name, input.nodes, new Map());
      return { view: await this.written(manager, input), warnings };
    });
  }

  update(name: string | undefined, input: TopologyInput): Promise<TopologyWrite> {
    return this.unitOfWork.run(async (manager) => {
      const warnings = await this.validate(manager, input, name ?? '');
      if (name === undefined || name === '') {
        throw new BadRequestException('missing key: name');
      }
      const current = await manager.findOne(Topology, { where: { name }, lock: writeLock(this.dataSource) });
      if (!current) {
        throw new BadRequestException(NOT_EXACTLY_ONE);
      }
      const nodes = await manager.find(TopologyCachegroup, { where: { topology: name } });
      const kept = new Map<string, number>();
      const wanted = new Set(input.nodes.map((n) => n.cachegroup));
      const removed: number[] = [];
      for (const node of nodes) {
        if (wanted.has(node.cachegroup)) {
          kept.set(node.cachegroup, node.id);
        } else {
          removed.push(node.id);
        }
      }
      if (nodes.length > 0) {
        await manager.delete(TopologyCachegroupParent, { child: In(nodes.map((n) => n.id)) });
      }
      if (removed.length > 0) {
        await manager.delete(TopologyCachegroup, { id: In(removed) });
      }
      await translateDbErrors(
        () => manager.update(Topology, { name }, { name: input.name, description: input.description }),
        (failure) => (failure.kind === 'unique' ? alreadyExists(input.name) : undefined),
      );
      await this.writeNodes(manager, input.name, input.nodes, kept);
      return { view: await this.written(manager, input), warnings };
    });
  }

  remove(name: string | undefined): Promise<TopologyView> {
    return this.unitOfWork.run(async (manager) => {
      if (name === undefined || name === '') {
        throw new BadRequestException(REFUSE_DELETE_ALL);
      }
      const current = await manager.findOne(Topology, { where: { name }, lock: writeLock(this.dataSource) });
      if (!current) {
        throw new BadRequestException(NOT_EXACTLY_ONE);
      }
      const [view] = await this.withNodes(manager, [current]);
      await manager.delete(Topology, { name });
      return view;
    });
  }

  /**
   * Queues or clears updates on the servers of a CDN in the topology's cache groups. The action,
   * the CDN and the topology are checked together, as the original reports them in one alert.
   */
  async queueUpdates(
    name: string,
    input: TopologyQueueUpdateInput,
    user: LockUser,
  ): Promise<TopologyQueueUpdateResponse> {
    const manager = this.dataSource.manager;
    const failures: RuleFailure[] = [];
    if (input.action !== 'queue' && input.action !== 'dequeue') {
      failures.push({ key: 'action', text: "action must be 'queue' or 'dequeue'" });
    }
    if (!(await exists(manager, 'SELECT 1 FROM cdn WHERE id = ?', [input.cdnId]))) {
      failures.push({ key: 'cdnId', text: `no cdn exists with id ${input.cdnId}` });
    }
    if (!(await exists(manager, 'SELECT 1 FROM topology WHERE name = ?', [name]))) {
      failures.push({ key: 'topology', text: `no topology exists by the name of ${name}` });
    }
    if (failures.length > 0) {
      throw new BadRequestException(`invalid request to queue updates: ${joinFailures(failures)}`);
    }
    // Another user's lock on the CDN refuses queueing (the original's check, after these); dequeueing
    // is left to anyone, as in the original.
    if (input.action === 'queue') {
      await this.locks.assertHoldsLock(input.cdnId, user);
    }
    await this.queue.queueTopology(name, input.cdnId, input.action as 'queue' | 'dequeue');
    return { action: input.action, cdnId: input.cdnId, topology: name };
  }

  /**
   * A delivery service's topology (dbhelpers.CheckTopology): it must exist with nodes, and each of
   * its cache groups must have servers in the delivery service's CDN.
   */
  async checkDeliveryServiceTopology(manager: EntityManager, topology: string, cdnId: number): Promise<void> {
    const rows = await manager.query<{ id: number; name: string }[]>(
      'SELECT cg.id AS id, cg.name AS name FROM topology_cachegroup tc ' +
        'JOIN cachegroup cg ON cg.name = tc.cachegroup WHERE tc.topology = ? ORDER BY tc.id',
      [topology],
    );
    if (rows.length === 0) {
      throw new BadRequestException(`no such Topology '${topology}'`);
    }
    const problem = await this.emptyCachegroups(manager, rows, [cdnId], true);
    if (problem) {
      throw new BadRequestException(
        `empty cachegroups in Topology ${topology} found for CDN ${cdnId}: ${problem}`,
      );
    }
  }

  /**
   * The ORG servers assigned to a delivery service must be in cache groups of its topology
   * (dbhelpers.CheckOriginServerInDSCG, on delivery-service updates).
   */
  async checkOriginServersInTopology(manager: EntityManager, dsId: number, topology: string): Promise<void> {
    const rows = await manager.query<{ host: string; cachegroup: string }[]>(
      'SELECT s.host_name AS host, cg.name AS cachegroup FROM server s ' +
        'JOIN deliveryservice_server dss ON dss.server = s.id JOIN type t ON t.id = s.type ' +
        'JOIN cachegroup cg ON cg.id = s.cachegroup ' +
        "WHERE dss.deliveryservice = ? AND t.name = 'ORG' AND cg.name NOT IN " +
        '(SELECT tc.cachegroup FROM topology_cachegroup tc WHERE tc.topology = ?) ORDER BY cg.name, s.host_name',
      [dsId, topology],
    );
    // One server per cache group, as the original's map keeps (the last one read).
    const byCachegroup = new Map<string, string>();
    for (const row of rows) {
      byCachegroup.set(row.cachegroup, row.host);
    }
    if (byCachegroup.size > 0) {
      const offending = [...byCachegroup].map(([cg, host]) => `${cg} (${host})`);
      throw new BadRequestException(
        `the following ORG server cachegroups are not in the delivery service's topology (${topology}): ${offending.join(', ')}`,
      );
    }
  }

  /**
   * The original's rules, in its order; the failures of one stage are answered together
   * (docs/decisions.md#d7). Answers the warnings of an accepted topology.
   */
  private async validate(
    manager: EntityManager,
    input: TopologyInput,
    currentName: string,
  ): Promise<string[]> {
    const failures: RuleFailure[] = [];
    const named = nameFailure(input.name);
    if (named) {
      failures.push(named);
    }
    if (input.nodes.length < 1) {
      failures.push({ key: 'length', text: `must provide 1 or more node, ${input.nodes.length} found` });
    }
    failures.push(...nodeShapeFailures(input.nodes));
    const cachegroups = await this.cachegroupsByName(
      manager,
      input.nodes.map((n) => n.cachegroup),
    );
    const missing = input.nodes
      .map((node, index) => ({ node, index }))
      .filter(({ node }) => !cachegroups.has(node.cachegroup));
    const seenMissing = new Set<string>();
    for (const { node, index } of missing) {
      if (!seenMissing.has(node.cachegroup)) {
        seenMissing.add(node.cachegroup);
        failures.push({
          key: `cachegroup ${node.cachegroup} not found`,
          text: `node ${index} references nonexistent cachegroup ${node.cachegroup}`,
        });
      }
    }
    const duplicate = duplicateCachegroup(input.nodes);
    if (duplicate) {
      failures.push(duplicate);
    }
    if (missing.length > 0) {
      throw new BadRequestException(joinFailures(failures));
    }
    const rows = input.nodes.map((n) => cachegroups.get(n.cachegroup)!);
    const types = rows.map((r) => r.type);
    const { failures: edgeFailures, warnings } = edgeParentChecks(input.nodes, types);
    failures.push(...edgeFailures);
    const dsCdns = (
      await manager.query<{ cdn: number }[]>(
        'SELECT DISTINCT cdn_id AS cdn FROM deliveryservice WHERE topology = ? ORDER BY cdn_id',
        [currentName],
      )
    ).map((r) => Number(r.cdn));
    const empty = await this.emptyCachegroups(manager, uniqueRows(rows), dsCdns, false);
    if (empty) {
      failures.push({ key: 'empty cachegroups', text: empty });
    }
    const unsatisfied = await this.unsatisfiedDeliveryServices(manager, currentName, uniqueRows(rows));
    if (unsatisfied) {
      failures.push({ key: 'required capabilities', text: unsatisfied });
    }
    await this.checkOriginServersKept(manager, dsCdns, currentName, new Set(rows.map((r) => r.name)));
    if (failures.length > 0) {
      throw new BadRequestException(joinFailures(failures));
    }
    failures.push(...leafMidFailures(input.nodes, types));
    const own = ownGraph(input.nodes);
    const ownCycles = cycleText(own.names, own.edges);
    if (ownCycles) {
      failures.push({ key: 'topology cycles', text: ownCycles.text });
    }
    const across = await this.cyclesAcrossTopologies(manager, input, currentName);
    if (across) {
      failures.push({ key: 'super-topology cycles', text: across });
    }
    if (failures.length > 0) {
      throw new BadRequestException(joinFailures(failures));
    }
    return warnings;
  }

  private async cachegroupsByName(
    manager: EntityManager,
    names: string[],
  ): Promise<Map<string, CachegroupRow>> {
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

  /**
   * topology_validation.CheckForEmptyCacheGroups: the cache groups without any server, else those
   * without servers in one of the given CDNs; undefined when none. `inTopologies` names, for a
   * delivery service's check, the topologies each empty cache group belongs to.
   */
  private async emptyCachegroups(
    manager: EntityManager,
    cachegroups: { id: number; name: string }[],
    cdnIds: number[],
    inTopologies: boolean,
  ): Promise<string | undefined> {
    if (cachegroups.length === 0) {
      return undefined;
    }
    const counts = await manager.query<{ cachegroup: number; cdn: number; n: number | string }[]>(
      'SELECT s.cachegroup AS cachegroup, s.cdn_id AS cdn, COUNT(*) AS n FROM server s ' +
        `WHERE s.cachegroup IN (${cachegroups.map(() => '?').join(', ')}) GROUP BY s.cachegroup, s.cdn_id`,
      cachegroups.map((c) => c.id),
    );
    const byCdn = new Map<number, Set<number>>();
    const withServers = new Set<number>();
    for (const row of counts) {
      if (Number(row.n) > 0) {
        withServers.add(Number(row.cachegroup));
        const set = byCdn.get(Number(row.cdn)) ?? new Set<number>();
        set.add(Number(row.cachegroup));
        byCdn.set(Number(row.cdn), set);
      }
    }
    const empty = cachegroups.filter((c) => !withServers.has(c.id));
    if (empty.length > 0) {
      const entries: string[] = [];
      for (const cg of empty) {
        if (inTopologies) {
          const topologies = await manager.query<{ topology: string }[]>(
            'SELECT topology FROM topology_cachegroup WHERE cachegroup = ? ORDER BY topology',
            [cg.name],
          );
          entries.push(`${cg.name} (in topologies: ${topologies.map((t) => t.topology).join(', ')})`);
        } else {
          entries.push(cg.name);
        }
      }
      return `cachegroups with no servers in them: ${entries.join(', ')}`;
    }
    const messages: string[] = [];
    for (const cdnId of cdnIds) {
      const present = byCdn.get(cdnId);
      if (!present) {
        return `topology is assigned to delivery service on CDN ${cdnId}, but that CDN has no servers`;
      }
      const lacking = cachegroups.filter((c) => !present.has(c.id)).map((c) => c.name);
      if (lacking.length > 0) {
        messages.push(
          `topology is assigned to delivery service(s) on CDN ${cdnId}, but the following cachegroups have no servers in CDN ${cdnId}: ${lacking.join(', ')}`,
        );
      }
    }
    return messages.length > 0 ? messages.join('; ') : undefined;
  }

  /**
   * topology.go validateDSRequiredCapabilities: each delivery service on the topology needs, in
   * every cache group of the new nodes that has servers of its CDN (origin cache groups aside), one
   * server with all of its required capabilities. Undefined when every one is satisfied; delivery
   * services and cache groups are named in name order (docs/decisions.md#d101). A locking read: no
   * server loses a capability between this check and the write.
   */
  private async unsatisfiedDeliveryServices(
    manager: EntityManager,
    topology: string,
    cachegroups: { name: string }[],
  ): Promise<string | undefined> {
    const required = await manager.query<{ xmlId: string; cdn: number | string; capability: string }[]>(
      'SELECT d.xml_id AS xmlId, d.cdn_id AS cdn, rc.required_capability AS capability FROM deliveryservice d ' +
        'JOIN deliveryservices_required_capability rc ON rc.deliveryservice_id = d.id ' +
        'WHERE d.topology = ? ORDER BY d.xml_id, rc.required_capability',
      [topology],
    );
    if (required.length === 0 || cachegroups.length === 0) {
      return undefined;
    }
    const deliveryServices = new Map<string, { cdn: number; capabilities: string[] }>();
    for (const row of required) {
      const ds = deliveryServices.get(row.xmlId) ?? { cdn: Number(row.cdn), capabilities: [] };
      ds.capabilities.push(row.capability);
      deliveryServices.set(row.xmlId, ds);
    }
    const cdns = [...new Set([...deliveryServices.values()].map((ds) => ds.cdn))];
    const names = cachegroups.map((cg) => cg.name);
    const servers = await manager.query<
      { id: number | string; cdn: number | string; cachegroup: string; capability: string | null }[]
    >(
      'SELECT s.id AS id, s.cdn_id AS cdn, c.name AS cachegroup, ssc.server_capability AS capability ' +
        'FROM server s JOIN cachegroup c ON c.id = s.cachegroup JOIN type ct ON ct.id = c.type ' +
        'LEFT JOIN server_server_capability ssc ON ssc.server = s.id ' +
        `WHERE c.name IN (${names.map(() => '?').join(', ')}) AND s.cdn_id IN (${cdns.map(() => '?').join(', ')}) ` +
        "AND ct.name <> 'ORG_LOC' ORDER BY c.name, s.id" +
        lockingClause(this.dataSource, 'share'),
      [...names, ...cdns],
    );
    // Per CDN, per cache group: each server's capabilities.
    const byCdn = new Map<number, Map<string, Map<number, Set<string>>>>();
    for (const row of servers) {
      const cdn = Number(row.cdn);
      const groups = byCdn.get(cdn) ?? new Map<string, Map<number, Set<string>>>();
      byCdn.set(cdn, groups);
      const members = groups.get(row.cachegroup) ?? new Map<number, Set<string>>();
      groups.set(row.cachegroup, members);
      const capabilities = members.get(Number(row.id)) ?? new Set<string>();
      members.set(Number(row.id), capabilities);
      if (row.capability !== null) {
        capabilities.add(row.capability);
      }
    }
    const unsatisfied: string[] = [];
    for (const [xmlId, ds] of deliveryServices) {
      const invalid = [...(byCdn.get(ds.cdn) ?? new Map<string, Map<number, Set<string>>>())]
        .filter(([, members]) =>
          [...members.values()].every((has) => ds.capabilities.some((c) => !has.has(c))),
        )
        .map(([cachegroup]) => cachegroup);
      if (invalid.length > 0) {
        unsatisfied.push(`${xmlId}: cachegroups [${invalid.join(', ')}] do not meet required capabilities`);
      }
    }
    return unsatisfied.length > 0
      ? `cannot update topology. The following delivery services would not be satisfied: ${unsatisfied.join('; ')}`
      : undefined;
  }

  /**
   * dbhelpers.CheckTopologyOrgServerCGInDSCG: an update may not drop the cache group of an ORG server
   * assigned to a delivery service that uses the topology.
   */
  private async checkOriginServersKept(
    manager: EntityManager,
    cdnIds: number[],
    topology: string,
    cachegroups: Set<string>,
  ): Promise<void> {
    if (cdnIds.length === 0) {
      return;
    }
    const rows = await manager.query<{ server: number; cachegroup: string; xml_id: string }[]>(
      'SELECT s.id AS server, cg.name AS cachegroup, d.xml_id AS xml_id FROM server s ' +
        'JOIN deliveryservice_server dss ON dss.server = s.id JOIN deliveryservice d ON d.id = dss.deliveryservice ' +
        'JOIN type t ON t.id = s.type JOIN cachegroup cg ON cg.id = s.cachegroup ' +
        `WHERE d.cdn_id IN (${cdnIds.map(() => '?').join(', ')}) AND t.name = 'ORG' AND d.topology = ? ` +
        'ORDER BY cg.name, s.id, d.xml_id',
      [...cdnIds, topology],
    );
    const servers = new Map<number, { cachegroup: string; xmlIds: string[] }>();
    for (const row of rows) {
      const entry = servers.get(Number(row.server)) ?? { cachegroup: row.cachegroup, xmlIds: [] };
      entry.xmlIds.push(row.xml_id);
      servers.set(Number(row.server), entry);
    }
    // One server per cache group, as the original's map keeps (the last one read).
    const byCachegroup = new Map<string, number>();
    for (const [server, entry] of servers) {
      byCachegroup.set(entry.cachegroup, server);
    }
    const offending = [...byCachegroup]
      .filter(([cg]) => !cachegroups.has(cg))
      .map(
        ([cg, server]) =>
          `cachegroup=${cg} (serverID=${server}, delivery_services=[${servers.get(server)!.xmlIds.join(' ')}])`,
      );
    if (offending.length > 0) {
      throw new BadRequestException(
        'ORG servers are assigned to delivery services that use this topology, and their cachegroups cannot be removed: ' +
          offending.join(', '),
      );
    }
  }

  /**
   * Cycles through this topology together with the other topologies and the parents of the EDGE and
   * MID cache groups outside topologies (topology.go checkForCyclesAcrossTopologies).
   */
  private async cyclesAcrossTopologies(
    manager: EntityManager,
    input: TopologyInput,
    currentName: string,
  ): Promise<string | undefined> {
    const others = await manager.query<{ topology: string; cachegroup: string; parent: string | null }[]>(
      'SELECT tc.topology AS topology, tc.cachegroup AS cachegroup, ptc.cachegroup AS parent ' +
        'FROM topology_cachegroup tc LEFT JOIN topology_cachegroup_parents p ON p.child = tc.id ' +
        'LEFT JOIN topology_cachegroup ptc ON ptc.id = p.parent WHERE tc.topology <> ? ORDER BY tc.topology, tc.id, p.rank',
      [currentName],
    );
    const edgeOrMid = "(LOWER(t.name) LIKE 'edge%' OR LOWER(t.name) LIKE 'mid%')";
    const nonTopology = await manager.query<{ cachegroup: string; parent: string | null }[]>(
      'SELECT c.name AS cachegroup, pc.name AS parent FROM cachegroup c JOIN type t ON t.id = c.type ' +
        'JOIN cachegroup pc ON pc.id = c.parent_cachegroup_id OR pc.id = c.secondary_parent_cachegroup_id ' +
        `WHERE ${edgeOrMid} ` +
        'UNION SELECT pc2.name AS cachegroup, ppc.name AS parent FROM cachegroup c JOIN type t ON t.id = c.type ' +
        'JOIN cachegroup pc2 ON pc2.id = c.parent_cachegroup_id OR pc2.id = c.secondary_parent_cachegroup_id ' +
        'LEFT JOIN cachegroup ppc ON ppc.id = pc2.parent_cachegroup_id OR ppc.id = pc2.secondary_parent_cachegroup_id ' +
        `WHERE ${edgeOrMid} ORDER BY cachegroup, parent`,
    );
    const names: string[] = [];
    const indexOf = new Map<string, number>();
    const edges: Set<number>[] = [];
    const topologiesOf = new Map<string, Set<string>>();
    const node = (name: string): number => {
      let index = indexOf.get(name);
      if (index === undefined) {
        index = names.length;
        names.push(name);
        indexOf.set(name, index);
        edges.push(new Set());
      }
      return index;
    };
    const edge = (child: string, parent: string | null, topology?: string): void => {
      const from = node(child);
      if (topology !== undefined) {
        topologiesOf.set(child, (topologiesOf.get(child) ?? new Set()).add(topology));
      }
      if (parent !== null) {
        edges[from].add(node(parent));
      }
    };
    for (const row of others) {
      edge(row.cachegroup, row.parent, row.topology);
    }
    for (const row of nonTopology) {
      edge(row.cachegroup, row.parent, 'non-topology cachegroups');
    }
    for (const n of input.nodes) {
      for (const parent of n.parents) {
        edge(n.cachegroup, input.nodes[parent].cachegroup);
      }
      node(n.cachegroup);
    }
    const found = cycleText(
      names,
      edges.map((set) => [...set]),
    );
    if (!found) {
      return undefined;
    }
    const involved: string[] = [];
    for (const cg of found.members) {
      for (const topology of [...(topologiesOf.get(cg) ?? [])].sort()) {
        if (!involved.includes(topology)) {
          involved.push(topology);
        }
      }
    }
    return `cycles exist between topology ${input.name} and topologies [${involved.join(', ')}]: ${found.text}`;
  }

  /** Inserts the nodes not kept (by cache group name → id), then every node's parents. */
  private async writeNodes(
    manager: EntityManager,
    topology: string,
    nodes: TopologyNodeInput[],
    kept: Map<string, number>,
  ): Promise<void> {
    const ids: number[] = [];
    for (const node of nodes) {
      let id = kept.get(node.cachegroup);
      if (id === undefined) {
        id = await insertRow(manager, TopologyCachegroup, { topology, cachegroup: node.cachegroup });
      }
      ids.push(id);
    }
    const parents = nodes.flatMap((node, index) =>
      node.parents.map((parent, rank) => ({ child: ids[index], parent: ids[parent], rank: rank + 1 })),
    );
    if (parents.length > 0) {
      await insertRows(manager, TopologyCachegroupParent, parents);
    }
  }

  /** The written topology as the request gave its nodes, with the stored name, description and time. */
  private async written(manager: EntityManager, input: TopologyInput): Promise<TopologyView> {
    const row = await manager.findOneOrFail(Topology, { where: { name: input.name } });
    return {
      name: row.name,
      description: row.description,
      lastUpdated: row.lastUpdated,
      nodes: input.nodes.map((n) => ({ cachegroup: n.cachegroup, parents: [...n.parents] })),
    };
  }

  /** Topologies with their nodes (in the order they were added) and parents as node indexes. */
  private async withNodes(manager: EntityManager, topologies: Topology[]): Promise<TopologyView[]> {
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
}

function alreadyExists(name: string): BadRequestException {
  return new BadRequestException(`topology name '${name}' already exists.`);
}

async function exists(manager: EntityManager, sql: string, parameters: unknown[]): Promise<boolean> {
  return (await manager.query<unknown[]>(sql, parameters)).length > 0;
}

/** Each cache group once, in node order (for the empty-cache-group check). */
function uniqueRows(rows: CachegroupRow[]): CachegroupRow[] {
  const seen = new Set<number>();
  return rows.filter((r) => !seen.has(r.id) && seen.add(r.id));
}

/** The topology's own graph: node i points at its parents. */
function ownGraph(nodes: TopologyNodeInput[]): { names: string[]; edges: number[][] } {
  return { names: nodes.map((n) => n.cachegroup), edges: nodes.map((n) => [...n.parents]) };
}
