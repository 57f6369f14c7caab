import { byVersion, rfc3339 } from 'src/common/wire/by-version';

/** A topology as the service reads it: nodes in the order of their creation, parents as indexes. */
export interface TopologyView {
  name: string;
  description: string;
  lastUpdated: Date;
  nodes: TopologyNodeWire[];
}

export interface TopologyNodeWire {
  cachegroup: string;
  parents: number[];
}

/** 3.0–4.1 (`tc.Topology`): `lastUpdated` in the original's `YYYY-MM-DD HH:MM:SS+00` (written by the envelope). */
export interface TopologyV3 {
  description: string;
  name: string;
  nodes: TopologyNodeWire[];
  lastUpdated: Date;
}

/** 5.0 (`tc.TopologyV5`): `lastUpdated` in RFC 3339. */
export interface TopologyV5 {
  description: string;
  name: string;
  nodes: TopologyNodeWire[];
  lastUpdated: string;
}

/** The answer of POST topologies/{name}/queue_update (every version). */
export interface TopologyQueueUpdateResponse {
  action: string;
  cdnId: number;
  topology: string;
}

const nodesOf = (view: TopologyView): TopologyNodeWire[] =>
  view.nodes.map((n) => ({ cachegroup: n.cachegroup, parents: [...n.parents] }));

export const toTopologyResponse = byVersion<TopologyView, TopologyV3 | TopologyV5>({
  '3.0': (view): TopologyV3 => ({
    description: view.description,
    name: view.name,
    nodes: nodesOf(view),
    lastUpdated: view.lastUpdated,
  }),
  '5.0': (view): TopologyV5 => ({
    description: view.description,
    name: view.name,
    nodes: nodesOf(view),
    lastUpdated: rfc3339(view.lastUpdated),
  }),
});
