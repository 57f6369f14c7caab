import { BadRequestException, Injectable } from '@nestjs/common';
import type { TransactionManager } from 'src/common/database/unit-of-work';
import type { TopologyInput, TopologyNodeInput } from './dto/topology.dto';
import { type CachegroupRow, TopologiesRepository } from './topologies.repository';
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

/**
 * The rules of a topology that need the database: the cache groups its nodes name, their servers,
 * the delivery services that use it and the other topologies (topology.go Validate,
 * docs/original-behaviour.md#topologies). The rules on the body alone are in topology-rules.ts.
 */
@Injectable()
export class TopologyChecks {
  constructor(private readonly topologies: TopologiesRepository) {}

  /**
   * The original's rules, in its order; the failures of one stage are answered together
   * (docs/decisions.md#d7). Answers the warnings of an accepted topology.
   */
  async validate(manager: TransactionManager, input: TopologyInput, currentName: string): Promise<string[]> {
    const failures: RuleFailure[] = [];
    const named = nameFailure(input.name);
    if (named) {
      failures.push(named);
    }
    if (input.nodes.length < 1) {
      failures.push({ key: 'length', text: `must provide 1 or more node, ${input.nodes.length} found` });
    }
    failures.push(...nodeShapeFailures(input.nodes));
    const cachegroups = await this.topologies.cachegroupsByName(
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
    const dsCdns = await this.topologies.deliveryServiceCdns(manager, currentName);
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

  /**
   * topology_validation.CheckForEmptyCacheGroups: the cache groups without any server, else those
   * without servers in one of the given CDNs; undefined when none. `inTopologies` names, for a
   * delivery service's check, the topologies each empty cache group belongs to.
   */
  async emptyCachegroups(
    manager: TransactionManager,
    cachegroups: { id: number; name: string }[],
    cdnIds: number[],
    inTopologies: boolean,
  ): Promise<string | undefined> {
    if (cachegroups.length === 0) {
      return undefined;
    }
    const counts = await this.topologies.serverCounts(
      manager,
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
          const topologies = await this.topologies.topologiesWith(manager, cg.name);
          entries.push(`${cg.name} (in topologies: ${topologies.join(', ')})`);
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
    manager: TransactionManager,
    topology: string,
    cachegroups: { name: string }[],
  ): Promise<string | undefined> {
    const required = await this.topologies.requiredCapabilities(manager, topology);
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
    const servers = await this.topologies.serverCapabilities(manager, names, cdns);
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
    manager: TransactionManager,
    cdnIds: number[],
    topology: string,
    cachegroups: Set<string>,
  ): Promise<void> {
    if (cdnIds.length === 0) {
      return;
    }
    const rows = await this.topologies.originServersOfTopology(manager, cdnIds, topology);
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
    manager: TransactionManager,
    input: TopologyInput,
    currentName: string,
  ): Promise<string | undefined> {
    const others = await this.topologies.otherTopologiesEdges(manager, currentName);
    const nonTopology = await this.topologies.nonTopologyEdges(manager);
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
