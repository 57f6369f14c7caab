import type { TopologyNodeInput } from './dto/topology.dto';

/** The cache-group types the topology rules name (the original's tc.CacheGroupEdgeTypeName, …). */
export const EDGE_LOC = 'EDGE_LOC';
export const MID_LOC = 'MID_LOC';

/** One rule's failure: the original keys each failure by the rule's name (`'<key>' <text>`). */
export interface RuleFailure {
  key: string;
  text: string;
}

/**
 * The strongly connected components of more than one node of a directed graph (Tarjan), each as
 * node indexes in ascending order, the components ordered by their first node.
 */
export function cycles(edges: number[][]): number[][] {
  const count = edges.length;
  const index = new Array<number>(count).fill(-1);
  const low = new Array<number>(count).fill(0);
  const onStack = new Array<boolean>(count).fill(false);
  const stack: number[] = [];
  const components: number[][] = [];
  let next = 0;
  const visit = (v: number): void => {
    index[v] = low[v] = next++;
    stack.push(v);
    onStack[v] = true;
    for (const w of edges[v]) {
      if (index[w] === -1) {
        visit(w);
        low[v] = Math.min(low[v], low[w]);
      } else if (onStack[w]) {
        low[v] = Math.min(low[v], index[w]);
      }
    }
    if (low[v] === index[v]) {
      const component: number[] = [];
      let w: number;
      do {
        w = stack.pop()!;
        onStack[w] = false;
        component.push(w);
      } while (w !== v);
      if (component.length > 1) {
        components.push(component.sort((a, b) => a - b));
      }
    }
  };
  for (let v = 0; v < count; v++) {
    if (index[v] === -1) {
      visit(v);
    }
  }
  return components.sort((a, b) => a[0] - b[0]);
}

/**
 * The original's cycle text for a graph of cache groups: `topology cannot have cycles, cycle detected
 * between cachegroups a, b and c` (one `cycle detected …` per cycle), or undefined.
 */
export function cycleText(
  names: string[],
  edges: number[][],
): { text: string; members: string[] } | undefined {
  const found = cycles(edges);
  if (found.length === 0) {
    return undefined;
  }
  const parts = found.map((component) => {
    const members = component.map((i) => names[i]);
    const last = members.pop()!;
    return `cycle detected between cachegroups ${members.join(', ')} and ${last}`;
  });
  return {
    text: ['topology cannot have cycles', ...parts].join(', '),
    members: found.flat().map((i) => names[i]),
  };
}

/** The rules on the nodes alone (topology.go Validate): parents' count, duplicates, self-parents. */
export function nodeShapeFailures(nodes: TopologyNodeInput[]): RuleFailure[] {
  const failures: RuleFailure[] = [];
  nodes.forEach((node, index) => {
    if (node.parents.length > 2) {
      failures.push({ key: `node ${index} parents size`, text: 'the length must be no more than 2' });
    }
    const [first, second] = node.parents;
    if (node.parents.length === 2 && first === second && nodes[first] !== undefined) {
      failures.push({
        key: `node ${index} duplicate parents`,
        text: `cachegroup ${nodes[first].cachegroup} cannot be both a primary and secondary parent of cachegroup ${node.cachegroup}`,
      });
    }
    if (node.parents.includes(index)) {
      failures.push({
        key: `node ${index} self parent`,
        text: `cachegroup ${index} cannot be a parent of itself`,
      });
    }
  });
  return failures;
}

/** The first cache group named twice, as the original reports it. */
export function duplicateCachegroup(nodes: TopologyNodeInput[]): RuleFailure | undefined {
  const seen = new Set<string>();
  for (const node of nodes) {
    if (seen.has(node.cachegroup)) {
      return {
        key: 'duplicate cachegroup name',
        text: `cachegroup ${node.cachegroup} cannot be used more than once in the topology`,
      };
    }
    seen.add(node.cachegroup);
  }
  return undefined;
}

/**
 * Parents that are out of range (an error), or EDGE_LOC cache groups parenting a cache group: of
 * another type an error, of EDGE_LOC a warning (topology validation.go checkForEdgeParents).
 */
export function edgeParentChecks(
  nodes: TopologyNodeInput[],
  types: string[],
): { failures: RuleFailure[]; warnings: string[] } {
  const failures: RuleFailure[] = [];
  const warnings: string[] = [];
  nodes.forEach((node, index) => {
    const errors: string[] = [];
    for (const [rank, parent] of node.parents.entries()) {
      if (parent < 0 || parent >= nodes.length) {
        errors.push(
          `parent ${rank} of cachegroup ${node.cachegroup} refers to a cachegroup at index ${parent}, but no such cachegroup exists`,
        );
        break;
      }
      if (types[parent] !== EDGE_LOC) {
        continue;
      }
      if (types[index] === EDGE_LOC) {
        const term = rank === 1 ? 'secondary parent' : 'parent';
        warnings.push(
          `${EDGE_LOC}-typed cachegroup ${nodes[parent].cachegroup} is a ${term} of ${node.cachegroup}, unexpected behavior may result`,
        );
      } else {
        errors.push(
          `cachegroup ${nodes[parent].cachegroup}'s type is ${EDGE_LOC}; it cannot parent a ${types[index]}-typed cachegroup ${node.cachegroup}`,
        );
      }
    }
    if (errors.length > 0) {
      failures.push({ key: `parent '${node.cachegroup}' edge type`, text: errors.join(', ') });
    }
  });
  return { failures, warnings };
}

/**
 * Nodes that are not EDGE_LOC and parent nothing (topology validation.go checkForLeafMids); the
 * original's text names MID_LOC whatever their type.
 */
export function leafMidFailures(nodes: TopologyNodeInput[], types: string[]): RuleFailure[] {
  const hasChild = new Set(nodes.flatMap((n) => n.parents));
  return nodes
    .filter((node, index) => types[index] !== EDGE_LOC && !hasChild.has(index))
    .map((node) => ({
      key: `node ${node.cachegroup} leaf mid`,
      text: `cachegroup ${node.cachegroup}'s type is ${MID_LOC}; it cannot be a leaf (it must have at least 1 primary or secondary child cache group)`,
    }));
}

/** `'<key>' <text>` of each failure, joined with `, ` (docs/decisions.md#d7). */
export function joinFailures(failures: RuleFailure[]): string {
  return failures.map((f) => `'${f.key}' ${f.text}`).join(', ');
}

/** The original's name rule: letters, digits, underscores and dashes. */
export function nameFailure(name: string): RuleFailure | undefined {
  if (name === '') {
    return { key: 'name', text: 'cannot be blank' };
  }
  if (!/^[A-Za-z0-9_-]+$/.test(name)) {
    return { key: 'name', text: 'must consist of only alphanumeric, dash, or underscore characters.' };
  }
  return undefined;
}
