import { compareDocuments, leavesOf } from 'src/cli/compare/documents';

describe('compare: CDN documents leaf by leaf', () => {
  it('names array elements by their name field and keeps other arrays as sets', () => {
    const leaves = leavesOf({
      trafficServers: [
        { hostName: 'edge-2', ip6: 'fd00::2/64' },
        { hostName: 'edge-1', ip6: 'fd00::1/64' },
      ],
      domains: ['b.example.net', 'a.example.net'],
      empty: {},
    });
    expect([...leaves]).toEqual([
      ['trafficServers[edge-2].hostName', '"edge-2"'],
      ['trafficServers[edge-2].ip6', '"fd00::2/64"'],
      ['trafficServers[edge-1].hostName', '"edge-1"'],
      ['trafficServers[edge-1].ip6', '"fd00::1/64"'],
      ['domains[0]', '"a.example.net"'],
      ['domains[1]', '"b.example.net"'],
      ['empty', '{}'],
    ]);
  });

  it('reports each differing leaf, in any order of keys and elements, and ignores the instance leaves', () => {
    const there = {
      stats: { date: 1, tm_host: 'to.example.net', tm_user: 'admin' },
      contentServers: { 'edge-1': { ip6: 'fd00::1/64', port: 80 } },
      list: [{ name: 'b' }, { name: 'a', weight: 1 }],
    };
    const here = {
      contentServers: { 'edge-1': { port: 80, ip6: 'fd00::0:1/64' } },
      list: [{ weight: 1, name: 'a' }, { name: 'b' }],
      stats: { date: 2, tm_host: 'cp.example.net', tm_user: 'admin' },
    };
    expect(compareDocuments(there, here)).toEqual([
      '  contentServers.edge-1.ip6: "fd00::1/64" ≠ "fd00::0:1/64"',
    ]);
    expect(compareDocuments(there, { ...here, stats: { ...here.stats, tm_user: 'ops' } })).toHaveLength(2);
  });

  it('counts what it does not print', () => {
    const there = Object.fromEntries(Array.from({ length: 45 }, (_, i) => [`k${i}`, i]));
    const lines = compareDocuments(there, { k0: 0 });
    expect(lines).toHaveLength(41);
    expect(lines[40]).toBe('  (+4 more leaves differ)');
  });
});
