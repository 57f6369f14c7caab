import { cycleText, cycles, edgeParentChecks, leafMidFailures, nodeShapeFailures } from './topology-rules';

describe('topology rules', () => {
  it('finds the cycles of a graph, each in ascending order', () => {
    expect(cycles([[1], [2], [1], []])).toEqual([[1, 2]]);
    expect(cycles([[1], [0], [3], [4], [2]])).toEqual([
      [0, 1],
      [2, 3, 4],
    ]);
    expect(cycles([[1], [2], []])).toEqual([]);
  });

  it("words cycles as the original: 'a, b and c'", () => {
    expect(cycleText(['a', 'b', 'c'], [[1], [2], [0]])?.text).toBe(
      'topology cannot have cycles, cycle detected between cachegroups a, b and c',
    );
    expect(cycleText(['a', 'b'], [[1], []])).toBeUndefined();
  });

  it('checks parents: count, duplicates and self, without reading out of range', () => {
    const nodes = [
      { cachegroup: 'e', parents: [9, 9] },
      { cachegroup: 'm', parents: [1] },
    ];
    expect(nodeShapeFailures(nodes)).toEqual([
      { key: 'node 1 self parent', text: 'cachegroup 1 cannot be a parent of itself' },
    ]);
  });

  it('warns on EDGE_LOC parents of EDGE_LOC, refuses them for other types', () => {
    const nodes = [
      { cachegroup: 'e1', parents: [1] },
      { cachegroup: 'e2', parents: [] },
      { cachegroup: 'm', parents: [0] },
    ];
    const { failures, warnings } = edgeParentChecks(nodes, ['EDGE_LOC', 'EDGE_LOC', 'MID_LOC']);
    expect(warnings).toEqual([
      'EDGE_LOC-typed cachegroup e2 is a parent of e1, unexpected behavior may result',
    ]);
    expect(failures).toEqual([
      {
        key: "parent 'm' edge type",
        text: "cachegroup e1's type is EDGE_LOC; it cannot parent a MID_LOC-typed cachegroup m",
      },
    ]);
  });

  it('refuses non-EDGE_LOC leaves', () => {
    const nodes = [
      { cachegroup: 'e', parents: [] },
      { cachegroup: 'o', parents: [] },
    ];
    expect(leafMidFailures(nodes, ['EDGE_LOC', 'ORG_LOC']).map((f) => f.key)).toEqual(['node o leaf mid']);
  });
});
