import { BadRequestException, Injectable } from '@nestjs/common';
import { translateDbErrors } from 'src/common/database/db-error';
import { type TransactionManager, UnitOfWork } from 'src/common/database/unit-of-work';
import type { ListQuery } from 'src/common/list-query/list-query';
import { CdnLocksService, type LockUser } from 'src/modules/cdn-locks/cdn-locks.service';
import { ServersQueueService } from 'src/modules/servers/servers-queue.service';
import type { TopologyInput, TopologyNodeInput, TopologyQueueUpdateInput } from './dto/topology.dto';
import type { TopologyQueueUpdateResponse, TopologyView } from './dto/topology.response';
import { TopologiesRepository } from './topologies.repository';
import { type RuleFailure, joinFailures } from './topology-rules';
import { TopologyChecks } from './topology-checks';

/** The original's texts (topology.go). */
export const NOT_EXACTLY_ONE = 'cannot find exactly 1 topology with the query string provided';
export const REFUSE_DELETE_ALL = 'Refusing to delete all resources of type Topology';

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
    private readonly topologies: TopologiesRepository,
    private readonly checks: TopologyChecks,
    private readonly queue: ServersQueueService,
    private readonly locks: CdnLocksService,
  ) {}

  list(query: ListQuery): Promise<TopologyView[]> {
    return this.topologies.list(query);
  }

  create(input: TopologyInput): Promise<TopologyWrite> {
    return this.unitOfWork.run(async (manager) => {
      const warnings = await this.checks.validate(manager, input, '');
      await translateDbErrors(
        () => this.topologies.add(manager, { name: input.name, description: input.description }),
        (failure) => (failure.kind === 'unique' ? alreadyExists(input.name) : undefined),
      );
      await this.writeNodes(manager, input.name, input.nodes, new Map());
      return { view: await this.written(manager, input), warnings };
    });
  }

  update(name: string | undefined, input: TopologyInput): Promise<TopologyWrite> {
    return this.unitOfWork.run(async (manager) => {
      const warnings = await this.checks.validate(manager, input, name ?? '');
      if (name === undefined || name === '') {
        throw new BadRequestException('missing key: name');
      }
      const current = await this.topologies.lockedByName(manager, name);
      if (!current) {
        throw new BadRequestException(NOT_EXACTLY_ONE);
      }
      const nodes = await this.topologies.nodes(manager, name);
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
        await this.topologies.removeParentsOf(
          manager,
          nodes.map((n) => n.id),
        );
      }
      if (removed.length > 0) {
        await this.topologies.removeNodes(manager, removed);
      }
      await translateDbErrors(
        () => this.topologies.change(manager, name, { name: input.name, description: input.description }),
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
      const current = await this.topologies.lockedByName(manager, name);
      if (!current) {
        throw new BadRequestException(NOT_EXACTLY_ONE);
      }
      const [view] = await this.topologies.withNodes(manager, [current]);
      await this.topologies.remove(manager, name);
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
    const failures: RuleFailure[] = [];
    if (input.action !== 'queue' && input.action !== 'dequeue') {
      failures.push({ key: 'action', text: "action must be 'queue' or 'dequeue'" });
    }
    if (!(await this.topologies.cdnExists(input.cdnId))) {
      failures.push({ key: 'cdnId', text: `no cdn exists with id ${input.cdnId}` });
    }
    if (!(await this.topologies.topologyExists(name))) {
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
  async checkDeliveryServiceTopology(
    manager: TransactionManager,
    topology: string,
    cdnId: number,
  ): Promise<void> {
    const rows = await this.topologies.nodeCachegroups(manager, topology);
    if (rows.length === 0) {
      throw new BadRequestException(`no such Topology '${topology}'`);
    }
    const problem = await this.checks.emptyCachegroups(manager, rows, [cdnId], true);
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
  async checkOriginServersInTopology(
    manager: TransactionManager,
    dsId: number,
    topology: string,
  ): Promise<void> {
    const rows = await this.topologies.originServersOutside(manager, dsId, topology);
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

  /** Inserts the nodes not kept (by cache group name → id), then every node's parents. */
  private async writeNodes(
    manager: TransactionManager,
    topology: string,
    nodes: TopologyNodeInput[],
    kept: Map<string, number>,
  ): Promise<void> {
    const ids: number[] = [];
    for (const node of nodes) {
      let id = kept.get(node.cachegroup);
      if (id === undefined) {
        id = await this.topologies.addNode(manager, topology, node.cachegroup);
      }
      ids.push(id);
    }
    const parents = nodes.flatMap((node, index) =>
      node.parents.map((parent, rank) => ({ child: ids[index], parent: ids[parent], rank: rank + 1 })),
    );
    if (parents.length > 0) {
      await this.topologies.addParents(manager, parents);
    }
  }

  /** The written topology as the request gave its nodes, with the stored name, description and time. */
  private async written(manager: TransactionManager, input: TopologyInput): Promise<TopologyView> {
    const row = await this.topologies.byName(manager, input.name);
    return {
      name: row.name,
      description: row.description,
      lastUpdated: row.lastUpdated,
      nodes: input.nodes.map((n) => ({ cachegroup: n.cachegroup, parents: [...n.parents] })),
    };
  }
}

function alreadyExists(name: string): BadRequestException {
  return new BadRequestException(`topology name '${name}' already exists.`);
}
