import { DataSource } from 'typeorm';
import { responseOf, uniqueName, type Wire } from 'test/e2e/support/api';
import { expectError, expectErrors, expectMalformedJson } from 'test/e2e/support/alerts';
import { expectOk } from 'test/e2e/support/headers';
import { CUSTOM_TIME, RFC3339_TIME } from 'test/e2e/support/times';
import { type Cachegroup, createCachegroup, typeIdOf } from 'test/e2e/support/fixtures/cachegroups';
import { createDeliveryService, deliveryServiceBody } from 'test/e2e/support/fixtures/delivery-services-api';
import { createCdn, createProfile } from 'test/e2e/support/fixtures/profiles';
import { createServer, type ServerResponse } from 'test/e2e/support/fixtures/servers';
import type {
  TopologyNodeWire,
  TopologyQueueUpdateResponse,
  TopologyV3,
  TopologyV5,
} from 'src/modules/topologies/dto/topology.response';
import { useApp } from 'test/e2e/support/suite';

describe('topologies', () => {
  const { app, admin } = useApp();
  let cdn: { id: number; name: string };
  let otherCdn: { id: number; name: string };
  let profile: string;
  let edge: Cachegroup;
  let edge2: Cachegroup, mid: Cachegroup, mid2: Cachegroup, org: Cachegroup, empty: Cachegroup;
  let servers: Record<string, ServerResponse>;

  const count = async (): Promise<number> => {
    const [row] = await app
      .get(DataSource)
      .query<{ n: number | string }[]>('SELECT COUNT(*) AS n FROM topology');
    return Number(row.n);
  };
  const node = (cachegroup: Cachegroup, parents: number[] = []): TopologyNodeWire => ({
    cachegroup: cachegroup.name,
    parents,
  });
  /** edge → mid → org: the usual three tiers. */
  const threeTiers = (): TopologyNodeWire[] => [node(edge, [1]), node(mid, [2]), node(org)];
  const create = async (nodes: TopologyNodeWire[], name = uniqueName('topo')): Promise<Wire<TopologyV3>> => {
    const res = await admin.post('topologies', { name, description: 'a topology', nodes });
    if (res.status !== 200) {
      throw new Error(`creating topology ${name} failed: ${res.status} ${res.text}`);
    }
    return responseOf<Wire<TopologyV3>>(res);
  };
  /** The request is refused with this text, and no topology was written. */
  const refused = async (body: unknown, text: string): Promise<void> => {
    const before = await count();
    expectError(await admin.post('topologies', body), 400, text);
    expect(await count()).toBe(before);
  };

  beforeAll(async () => {
    [cdn, otherCdn] = [await createCdn(admin), await createCdn(admin)];
    profile = (await createProfile(admin, cdn.id)).name;
    edge = await createCachegroup(admin, { typeName: 'EDGE_LOC' });
    edge2 = await createCachegroup(admin, { typeName: 'EDGE_LOC' });
    mid = await createCachegroup(admin, { typeName: 'MID_LOC' });
    mid2 = await createCachegroup(admin, { typeName: 'MID_LOC' });
    org = await createCachegroup(admin, { typeName: 'ORG_LOC' });
    empty = await createCachegroup(admin, { typeName: 'EDGE_LOC' });
    const server = (cg: Cachegroup, typeName: string) =>
      createServer(admin, cdn.id, { cachegroupId: cg.id, typeName, profileName: profile });
    servers = {
      edge: await server(edge, 'EDGE'),
      edge2: await server(edge2, 'EDGE'),
      mid: await server(mid, 'MID'),
      mid2: await server(mid2, 'MID'),
      org: await server(org, 'ORG'),
    };
  });

  describe('POST', () => {
    it('creates a topology and answers it with its nodes (4.0: lastUpdated as the original writes it)', async () => {
      const name = uniqueName('topo');
      const res = expectOk(
        await admin.post('topologies', { name, description: 'three tiers', nodes: threeTiers() }),
      );
      expect(res.body).toEqual({
        alerts: [{ text: 'topology was created.', level: 'success' }],
        response: {
          name,
          description: 'three tiers',
          nodes: threeTiers(),
          lastUpdated: expect.stringMatching(CUSTOM_TIME) as string,
        },
      });
    });

    it('answers RFC 3339 on 5.0, and a missing description as empty', async () => {
      const name = uniqueName('topo');
      const res = await admin.at('5.0').post('topologies', { name, nodes: threeTiers() });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        alerts: [{ text: 'topology was created.', level: 'success' }],
        response: {
          name,
          description: '',
          nodes: threeTiers(),
          lastUpdated: expect.stringMatching(RFC3339_TIME),
        },
      });
    });

    it('warns when an EDGE_LOC cache group parents another', async () => {
      const res = await admin.post('topologies', {
        name: uniqueName('topo'),
        nodes: [node(edge, [1]), node(edge2)],
      });
      expect(res.status).toBe(200);
      expect((res.body as { alerts: unknown[] }).alerts).toEqual([
        { text: 'topology was created.', level: 'success' },
        {
          text: `EDGE_LOC-typed cachegroup ${edge2.name} is a parent of ${edge.name}, unexpected behavior may result`,
          level: 'warning',
        },
      ]);
    });

    it('refuses a blank name and no nodes', () =>
      refused(
        { name: '', description: 'x', nodes: [] },
        "'name' cannot be blank, 'length' must provide 1 or more node, 0 found",
      ));

    it('refuses a name with other characters than letters, digits, - and _', () =>
      refused(
        { name: 'a b', nodes: threeTiers() },
        "'name' must consist of only alphanumeric, dash, or underscore characters.",
      ));

    it('refuses unknown and repeated cache groups', () =>
      refused(
        {
          name: uniqueName('topo'),
          nodes: [node(edge, [1]), { cachegroup: 'nope', parents: [] }, node(edge)],
        },
        "'cachegroup nope not found' node 1 references nonexistent cachegroup nope, " +
          `'duplicate cachegroup name' cachegroup ${edge.name} cannot be used more than once in the topology`,
      ));

    it('refuses more than two parents, the same parent twice and a node parenting itself', () =>
      refused(
        {
          name: uniqueName('topo'),
          nodes: [node(edge, [1, 2, 3]), node(mid, [2, 2]), node(mid2, [2]), node(org)],
        },
        "'node 0 parents size' the length must be no more than 2, " +
          `'node 1 duplicate parents' cachegroup ${mid2.name} cannot be both a primary and secondary parent of cachegroup ${mid.name}, ` +
          "'node 2 self parent' cachegroup 2 cannot be a parent of itself",
      ));

    it('refuses a parent index out of range and an EDGE_LOC parent of another type', () =>
      refused(
        { name: uniqueName('topo'), nodes: [node(edge, [5]), node(mid, [0])] },
        `'parent '${edge.name}' edge type' parent 0 of cachegroup ${edge.name} refers to a cachegroup at index 5, but no such cachegroup exists, ` +
          `'parent '${mid.name}' edge type' cachegroup ${edge.name}'s type is EDGE_LOC; it cannot parent a MID_LOC-typed cachegroup ${mid.name}`,
      ));

    it('refuses cache groups without servers', () =>
      refused(
        { name: uniqueName('topo'), nodes: [node(empty)] },
        `'empty cachegroups' cachegroups with no servers in them: ${empty.name}`,
      ));

    it('refuses a cache group of another type than EDGE_LOC that parents nothing', () =>
      refused(
        { name: uniqueName('topo'), nodes: [node(edge), node(mid)] },
        `'node ${mid.name} leaf mid' cachegroup ${mid.name}'s type is MID_LOC; it cannot be a leaf (it must have at least 1 primary or secondary child cache group)`,
      ));

    it('refuses cycles, within the topology and across topologies', async () => {
      const cycle = `topology cannot have cycles, cycle detected between cachegroups ${mid.name} and ${mid2.name}`;
      const name = uniqueName('topo');
      const res = await admin.post('topologies', {
        name,
        nodes: [node(edge, [1]), node(mid, [2]), node(mid2, [1])],
      });
      expect(res.status).toBe(400);
      expect((res.body as { alerts: { text: string }[] }).alerts[0].text).toMatch(
        new RegExp(
          `^'topology cycles' ${cycle}, 'super-topology cycles' cycles exist between topology ${name} and topologies \\[.*\\]: ${cycle}$`,
        ),
      );

      const first = await create([node(edge, [1]), node(mid, [2]), node(mid2, [3]), node(org)]);
      const second = uniqueName('topo');
      const before = await count();
      const across = await admin.post('topologies', {
        name: second,
        nodes: [node(edge2, [1]), node(mid2, [2]), node(mid, [3]), node(org)],
      });
      expect(across.status).toBe(400);
      // Every topology holding a cache group of the cycle is named, the first one among them.
      const text = (across.body as { alerts: { text: string }[] }).alerts[0].text;
      expect(text).toMatch(
        new RegExp(
          `^'super-topology cycles' cycles exist between topology ${second} and topologies \\[.*\\]: ${cycle}$`,
        ),
      );
      expect(text).toContain(first.name);
      expect(await count()).toBe(before);
    });

    it('refuses a name that exists', async () => {
      const existing = await create(threeTiers());
      await refused(
        { name: existing.name, nodes: threeTiers() },
        `topology name '${existing.name}' already exists.`,
      );
    });

    it('refuses wrong JSON types and malformed JSON', async () => {
      await refused({ name: 7, nodes: threeTiers() }, "'name' must be a string");
      await refused({ name: 'x', nodes: {} }, "'nodes' must be an array");
      await refused({ name: 'x', nodes: [7] }, "'nodes[0]' must be an object");
      await refused({ name: 'x', nodes: [{ cachegroup: 1 }] }, "'nodes[0].cachegroup' must be a string");
      await refused(
        { name: 'x', nodes: [{ cachegroup: 'a', parents: ['1'] }] },
        "'nodes[0].parents[0]' must be an integer",
      );
      await refused(
        { name: 'x', nodes: [{ cachegroup: 'a', parents: [2147483648] }] },
        "'nodes[0].parents[0]' must be no greater than 2147483647",
      );
      await refused([], 'the request body must be a JSON object');
      expectMalformedJson(await admin.raw('post', 'topologies', '{"name": '));
    });
  });

  describe('GET', () => {
    it('lists topologies by name with their nodes, on 4.0 and 5.0, filtered by name', async () => {
      const created = await create(threeTiers());
      const res = expectOk(await admin.get(`topologies?name=${created.name}`));
      expect(res.body).toEqual({ response: [created] });
      const v5 = responseOf<Wire<TopologyV5>[]>(await admin.at('5.0').get(`topologies?name=${created.name}`));
      expect(v5).toEqual([{ ...created, lastUpdated: expect.stringMatching(RFC3339_TIME) }]);
      const all = responseOf<Wire<TopologyV3>[]>(await admin.get('topologies'));
      expect(all.map((t) => t.name)).toEqual(all.map((t) => t.name).sort());
    });

    it('answers 304 to If-Modified-Since when nothing changed since', async () => {
      await create(threeTiers());
      const later = new Date(Date.now() + 60_000).toUTCString();
      const res = await admin.get('topologies').set('If-Modified-Since', later);
      expect(res.status).toBe(304);
    });
  });

  describe('PUT', () => {
    it('replaces the nodes and renames, by ?name=', async () => {
      const created = await create(threeTiers());
      const name = uniqueName('renamed');
      const nodes = [node(edge2, [1]), node(mid, [2]), node(org)];
      const res = await admin.put(`topologies?name=${created.name}`, { name, description: 'new', nodes });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        alerts: [{ text: 'topology was updated.', level: 'success' }],
        response: { name, description: 'new', nodes, lastUpdated: expect.stringMatching(CUSTOM_TIME) },
      });
      const [read] = responseOf<Wire<TopologyV3>[]>(await admin.get(`topologies?name=${name}`));
      // Kept nodes keep their place; the new one comes last.
      expect(read.nodes).toEqual([node(mid, [1]), node(org), node(edge2, [0])]);
      expect(responseOf<unknown[]>(await admin.get(`topologies?name=${created.name}`))).toEqual([]);
    });

    it('answers the original texts for a missing or unknown name, after the body is valid', async () => {
      await expectErrors([
        [admin.put('topologies', { name: 'x', nodes: threeTiers() }), 400, 'missing key: name'],
        [
          admin.put('topologies?name=nope', { name: 'x', nodes: threeTiers() }),
          400,
          'cannot find exactly 1 topology with the query string provided',
        ],
        [admin.put('topologies?name=nope', { name: '', nodes: threeTiers() }), 400, "'name' cannot be blank"],
      ]);
    });

    it('answers 412 when the topology changed since If-Unmodified-Since', async () => {
      const created = await create(threeTiers());
      const res = await admin
        .put(`topologies?name=${created.name}`, { name: created.name, nodes: threeTiers() })
        .set('If-Unmodified-Since', new Date(Date.now() - 3_600_000).toUTCString());
      expectError(res, 412, 'resource was modified since the time specified by the request headers');
    });
  });

  describe('DELETE', () => {
    it('deletes by ?name= (4.0: the alert only; 5.0: with the topology)', async () => {
      const first = await create(threeTiers());
      const res = await admin.delete(`topologies?name=${first.name}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ alerts: [{ text: 'topology was deleted.', level: 'success' }] });
      const second = await create(threeTiers());
      const v5 = await admin.at('5.0').delete(`topologies?name=${second.name}`);
      expect(v5.body).toEqual({
        alerts: [{ text: 'topology was deleted.', level: 'success' }],
        response: { ...second, lastUpdated: expect.stringMatching(RFC3339_TIME) },
      });
    });

    it('refuses no name, an unknown one and a topology in use', async () => {
      await expectErrors([
        [admin.delete('topologies'), 400, 'Refusing to delete all resources of type Topology'],
        [
          admin.delete('topologies?name=nope'),
          400,
          'cannot find exactly 1 topology with the query string provided',
        ],
      ]);
      const used = await create(threeTiers());
      await createDeliveryService(admin, cdn.id, { topology: used.name });
      expectError(
        await admin.delete(`topologies?name=${used.name}`),
        400,
        'cannot delete topology because it is being used by a deliveryservice',
      );
    });
  });

  describe('cache groups in topologies', () => {
    it('follows a renamed cache group and refuses to delete one in use', async () => {
      const cg = await createCachegroup(admin, { typeName: 'EDGE_LOC' });
      const server = await createServer(admin, cdn.id, { cachegroupId: cg.id, profileName: profile });
      const topology = await create([node(cg, [1]), node(mid, [2]), node(org)]);
      const renamed = uniqueName('cg');
      const res = await admin.put(`cachegroups/${cg.id}`, {
        name: renamed,
        shortName: renamed,
        typeId: cg.typeId,
      });
      expect(res.status).toBe(200);
      const [read] = responseOf<Wire<TopologyV3>[]>(await admin.get(`topologies?name=${topology.name}`));
      expect(read.nodes[0]).toEqual({ cachegroup: renamed, parents: [1] });
      // The API keeps a server in every topology cache group (server-assigned-changes.e2e-spec.ts);
      // a cache group emptied by other means is still refused while a topology uses it.
      expect((await admin.delete(`servers/${server.id}`)).status).toBe(400);
      await app.get(DataSource).query('DELETE FROM server WHERE id = ?', [server.id]);
      expectError(
        await admin.delete(`cachegroups/${cg.id}`),
        400,
        'cachegroup is in use by one or more topologies',
      );
    });
  });

  describe("delivery services' topology", () => {
    let httpType: number;

    beforeAll(async () => {
      httpType = await typeIdOf(admin, 'HTTP');
    });

    it('accepts an existing topology whose cache groups have servers in the CDN, and follows its renames', async () => {
      const topology = await create(threeTiers());
      const res = await admin.post(
        'deliveryservices',
        deliveryServiceBody(cdn.id, httpType, { topology: topology.name }),
      );
      expect(res.status).toBe(200);
      const [ds] = responseOf<{ id: number; topology: string }[]>(res);
      expect(ds.topology).toBe(topology.name);
      const renamed = uniqueName('renamed');
      await admin.put(`topologies?name=${topology.name}`, { name: renamed, nodes: threeTiers() });
      const [read] = responseOf<{ topology: string }[]>(await admin.get(`deliveryservices?id=${ds.id}`));
      expect(read.topology).toBe(renamed);
      const v3 = responseOf<{ topology: string }[]>(
        await admin.at('3.0').get(`deliveryservices?id=${ds.id}`),
      );
      expect(v3[0].topology).toBe(renamed);
    });

    it('refuses an unknown topology, and one whose cache groups lack servers in the CDN', async () => {
      expectError(
        await admin.post('deliveryservices', deliveryServiceBody(cdn.id, httpType, { topology: 'nope' })),
        400,
        "no such Topology 'nope'",
      );
      const topology = await create(threeTiers());
      expectError(
        await admin.post(
          'deliveryservices',
          deliveryServiceBody(otherCdn.id, httpType, { topology: topology.name }),
        ),
        400,
        `empty cachegroups in Topology ${topology.name} found for CDN ${otherCdn.id}: ` +
          `topology is assigned to delivery service on CDN ${otherCdn.id}, but that CDN has no servers`,
      );
    });

    it("refuses a topology update that leaves a cache group without servers in a delivery service's CDN", async () => {
      const topology = await create(threeTiers());
      await createDeliveryService(admin, cdn.id, { topology: topology.name });
      const lonely = await createCachegroup(admin, { typeName: 'EDGE_LOC' });
      await createServer(admin, otherCdn.id, { cachegroupId: lonely.id });
      expectError(
        await admin.put(`topologies?name=${topology.name}`, {
          name: topology.name,
          nodes: [...threeTiers(), node(lonely, [1])],
        }),
        400,
        `'empty cachegroups' topology is assigned to delivery service(s) on CDN ${cdn.id}, ` +
          `but the following cachegroups have no servers in CDN ${cdn.id}: ${lonely.name}`,
      );
    });
  });

  describe('POST topologies/{name}/queue_update', () => {
    const pending = async (server: ServerResponse): Promise<boolean> =>
      responseOf<{ updPending: boolean }[]>(await admin.get(`servers?id=${server.id}`))[0].updPending;

    it("queues and dequeues the updates of the topology's servers in the CDN", async () => {
      const topology = await create([node(edge, [1]), node(mid)]);
      const res = await admin.post(`topologies/${topology.name}/queue_update`, {
        action: 'queue',
        cdnId: cdn.id,
      });
      expectOk(res);
      expect(res.body).toEqual({
        response: {
          action: 'queue',
          cdnId: cdn.id,
          topology: topology.name,
        } satisfies TopologyQueueUpdateResponse,
      });
      expect(await pending(servers.edge)).toBe(true);
      expect(await pending(servers.mid)).toBe(true);
      expect(await pending(servers.org)).toBe(false);
      const other = await admin.post(`topologies/${topology.name}/queue_update`, {
        action: 'dequeue',
        cdnId: cdn.id,
      });
      expect(other.status).toBe(200);
      expect(await pending(servers.edge)).toBe(false);
      expect(await pending(servers.mid)).toBe(false);
    });

    it('reports a bad action, an unknown CDN and an unknown topology together', async () => {
      expectError(
        await admin.post('topologies/nope/queue_update', { action: 'go', cdnId: 2147483647 }),
        400,
        "invalid request to queue updates: 'action' action must be 'queue' or 'dequeue', " +
          "'cdnId' no cdn exists with id 2147483647, 'topology' no topology exists by the name of nope",
      );
      expectError(
        await admin.post('topologies/nope/queue_update', { action: 'queue', cdnId: '1' }),
        400,
        "'cdnId' must be an integer",
      );
      expectMalformedJson(await admin.raw('post', 'topologies/nope/queue_update', '{'));
    });
  });
});
