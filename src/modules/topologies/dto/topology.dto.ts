import { GoField } from 'src/common/validation/go-field';
import { GoStruct } from 'src/common/validation/go-struct';
import { BODY_NOT_AN_OBJECT } from 'src/common/validation/validation.options';

/** A node of a topology body: a cache group by name and the indexes of its parents in `nodes`. */
export interface TopologyNodeInput {
  cachegroup: string;
  parents: number[];
}

export interface TopologyInput {
  name: string;
  description: string;
  nodes: TopologyNodeInput[];
}

/** The JSON types of the topology bodies, stopping at the first bad field (docs/decisions.md#d225). */
const TOPOLOGY_BODY = { failure: '', withCause: true, notAnObject: BODY_NOT_AN_OBJECT };

/** A node of `nodes` (its parents read before its cache group, as the original's order of texts). */
@GoStruct('TopologyNode', TOPOLOGY_BODY)
export class TopologyNodeBody implements TopologyNodeInput {
  @GoField.list('int', {
    schema: { description: 'indexes in nodes: the primary parent, then the secondary one' },
  })
  parents: number[] = [];

  @GoField.text({ schema: { description: 'a cache group, by name' } })
  cachegroup = '';
}

/**
 * The body of POST and PUT topologies (`{name, description, nodes: [{cachegroup, parents}]}`): JSON
 * types only, a missing or null field read as empty; the topology's rules need the database and are
 * TopologyChecks's (topology-checks.ts). A parent is an index into `nodes`, within the 32-bit range
 * (docs/decisions.md#d46).
 */
@GoStruct('TopologyV5', TOPOLOGY_BODY)
export class TopologyBody implements TopologyInput {
  @GoField.text({ required: true, schema: { description: 'letters, digits, underscores and dashes' } })
  name = '';

  @GoField.text()
  description = '';

  @GoField.list(() => TopologyNodeBody, { required: true })
  nodes: TopologyNodeBody[] = [];
}

/** The body of POST topologies/{name}/queue_update. */
export interface TopologyQueueUpdateInput {
  action: string;
  cdnId: number;
}

/**
 * The body of POST topologies/{name}/queue_update: `action` and `cdnId` by JSON type only (`cdnId`
 * first); an unknown action and a missing CDN are reported with the topology's existence, in one
 * alert (TopologiesService.queueUpdates). A missing `cdnId` reads as 0.
 */
@GoStruct('TopologyQueueUpdate', TOPOLOGY_BODY)
export class TopologyQueueUpdateBody implements TopologyQueueUpdateInput {
  @GoField.int({
    required: true,
    schema: { description: 'the CDN whose servers in the topology are queued' },
  })
  cdnId = 0;

  @GoField.text({ required: true, schema: { enum: ['queue', 'dequeue'] } })
  action = '';
}
