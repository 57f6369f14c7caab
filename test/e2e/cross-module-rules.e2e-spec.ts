import { DataSource } from 'typeorm';
import { responseOf, uniqueName } from 'test/e2e/support/api';
import { expectError } from 'test/e2e/support/alerts';
import { expectOk } from 'test/e2e/support/headers';
import { type Cachegroup, createCachegroup, typeIdOf } from 'test/e2e/support/fixtures/cachegroups';
import { createDeliveryService, deliveryServiceBody } from 'test/e2e/support/fixtures/delivery-services-api';
import type { DeliveryServiceResponse } from 'test/e2e/support/fixtures/delivery-services-api';
import { setTopology } from 'test/e2e/support/fixtures/delivery-service-servers';
import { createCdn, createProfile } from 'test/e2e/support/fixtures/profiles';
import { createServer, type ServerResponse } from 'test/e2e/support/fixtures/servers';
import { useApp } from 'test/e2e/support/suite';

type Ds = DeliveryServiceResponse;

/**
 * The rules that join modules built apart: delivery services naming service categories (D80),
 * required capabilities of topology-based delivery services (D63), and the capability and topology
 * rules of server assignments (D88).
 */
describe('rules across delivery services, service categories, topologies and capabilities', () => {
  const { app, admin } = useApp();
  let dataSource: DataSource;
  let httpType: number;

  const count = async (sql: string, params: unknown[]): Promise<number> =>
    Number((await dataSource.query<{ n: number | string }[]>(sql, params))[0].n);
  const dsById = async (id: number, version = '4.0'): Promise<Ds> =>
    responseOf<Ds[]>(await admin.at(version).get(`deliveryservices?id=${id}`))[0];
  const category = async (): Promise<string> => {
    const name = uniqueName('sc').replace(/_/g, '-');
    expect((await admin.post('service_categories', { name })).status).toBe(200);
    return name;
  };
  const capability = async (): Promise<string> => {
    const name = uniqueName('cap').replace(/_/g, '-');
    expect((await admin.post('server_capabilities', { name })).status).toBe(200);
    return name;
  };
  const giveCapability = async (server: ServerResponse, name: string): Promise<void> => {
    const res = await admin.post('server_server_capabilities', {
      serverId: server.id,
      serverCapability: name,
    });
    expect(res.status).toBe(200);
  };
  const topology = async (nodes: { cachegroup: string; parents: number[] }[]): Promise<string> => {
    const name = uniqueName('topo');
    const res = await admin.post('topologies', { name, description: 'a topology', nodes });
    expect(res.status).toBe(200);
    return name;
  };
  const requiredCapabilities = (dsId: number): Promise<number> =>
    count('SELECT COUNT(*) AS n FROM deliveryservices_required_capability WHERE deliveryservice_id = ?', [
      dsId,
    ]);
  const assignments = (dsId: number): Promise<number> =>
    count('SELECT COUNT(*) AS n FROM deliveryservice_server WHERE deliveryservice = ?', [dsId]);
  const hostNames = (res: { body: unknown }): string[] =>
    responseOf<{ hostName: string }[]>(res as never)
      .map((s) => s.hostName)
      .sort();

  beforeAll(async () => {
    dataSource = app.get(DataSource);
    httpType = await typeIdOf(admin, 'HTTP');
  });

  describe('delivery services and service categories (D80)', () => {
    let cdn: { id: number; name: string };

    beforeAll(async () => {
      cdn = await createCdn(admin);
    });

    it('stores the category a delivery service names, on create and update', async () => {
      const name = await category();
      const res = await admin.post(
        'deliveryservices',
        deliveryServiceBody(cdn.id, httpType, { serviceCategory: name }),
      );
      expectOk(res);
      const [created] = responseOf<Ds[]>(res);
      expect(created.serviceCategory).toBe(name);
      expect((await dsById(created.id, '5.0')).serviceCategory).toBe(name);

      const other = await category();
      const body = deliveryServiceBody(cdn.id, httpType, { xmlId: created.xmlId, serviceCategory: other });
      const updated = await admin.put(`deliveryservices/${created.id}`, body);
      expect(updated.status).toBe(200);
      expect((await dsById(created.id)).serviceCategory).toBe(other);
      const cleared = await admin.put(`deliveryservices/${created.id}`, { ...body, serviceCategory: null });
      expect(cleared.status).toBe(200);
      expect((await dsById(created.id)).serviceCategory).toBeNull();
    });

    it('refuses an unknown category with the foreign key text, writing nothing', async () => {
      const body = deliveryServiceBody(cdn.id, httpType, { serviceCategory: 'no-such-category' });
      expectError(await admin.post('deliveryservices', body), 404, 'service_category not found');
      expect(await count('SELECT COUNT(*) AS n FROM deliveryservice WHERE xml_id = ?', [body.xmlId])).toBe(0);
    });

    it('renames the category in the delivery services naming it (ON UPDATE CASCADE)', async () => {
      const name = await category();
      const ds = await createDeliveryService(admin, cdn.id, { serviceCategory: name });
      const renamed = `${name}-new`;
      expect((await admin.at('5.0').put(`service_categories/${name}`, { name: renamed })).status).toBe(200);
      expect((await dsById(ds.id)).serviceCategory).toBe(renamed);
    });

    it('refuses deleting a category in use (3.x/4.x: the foreign key; 5.0: the count), then deletes it once unused', async () => {
      const name = await category();
      const ds = await createDeliveryService(admin, cdn.id, { serviceCategory: name });
      for (const version of ['3.0', '4.0']) {
        expectError(
          await admin.at(version).delete(`service_categories/${name}`),
          400,
          'cannot delete service_category because it is being used by a deliveryservice',
        );
      }
      expectError(
        await admin.at('5.0').delete(`service_categories/${name}`),
        400,
        'can not delete a service category with 1 assigned Delivery Service(s)',
      );
      expect(await count('SELECT COUNT(*) AS n FROM service_category WHERE name = ?', [name])).toBe(1);
      expect((await admin.delete(`deliveryservices/${ds.id}`)).status).toBe(200);
      expect((await admin.delete(`service_categories/${name}`)).status).toBe(200);
      expect(await count('SELECT COUNT(*) AS n FROM service_category WHERE name = ?', [name])).toBe(0);
    });
  });

  describe('required capabilities of topology-based delivery services (D63)', () => {
    let cdn: { id: number; name: string };
    let edgeCg: Cachegroup, midCg: Cachegroup;
    let edge: ServerResponse, mid: ServerResponse;
    let topo: string, profileName: string;

    beforeAll(async () => {
      cdn = await createCdn(admin);
      profileName = (await createProfile(admin, cdn.id)).name;
      edgeCg = await createCachegroup(admin, { typeName: 'EDGE_LOC' });
      midCg = await createCachegroup(admin, { typeName: 'MID_LOC' });
      edge = await createServer(admin, cdn.id, { cachegroupId: edgeCg.id, profileName });
      mid = await createServer(admin, cdn.id, { cachegroupId: midCg.id, profileName, typeName: 'MID' });
      topo = await topology([
        { cachegroup: edgeCg.name, parents: [1] },
        { cachegroup: midCg.name, parents: [] },
      ]);
    });

    const lacking = (cachegroups: Cachegroup[]): string =>
      "the following cachegroups in this delivery service's topology do not contain at least one server " +
      `with the required capabilities: ${cachegroups
        .map((c) => c.name)
        .sort()
        .join(', ')}`;

    it('adds a capability only when every cache group of the topology has a server with all of them', async () => {
      const cap = await capability();
      const ds = await createDeliveryService(admin, cdn.id, { topology: topo });
      const add = () =>
        admin.post('deliveryservices_required_capabilities', {
          deliveryServiceID: ds.id,
          requiredCapability: cap,
        });
      expectError(await add(), 400, `cannot add required capability: ${lacking([edgeCg, midCg])}`);
      await giveCapability(edge, cap);
      expectError(await add(), 400, `cannot add required capability: ${lacking([midCg])}`);
      expect(await requiredCapabilities(ds.id)).toBe(0);
      await giveCapability(mid, cap);
      const res = await add();
      expect(res.status).toBe(200);
      expect(await requiredCapabilities(ds.id)).toBe(1);
      expectError(
        await add(),
        400,
        `capability ${cap} already exists for delivery service with ID: ${ds.id}`,
      );
    });

    it('refuses a capability when the topology has no server in the delivery service CDN', async () => {
      const otherCdn = await createCdn(admin);
      const lonely = await createCachegroup(admin, { typeName: 'EDGE_LOC' });
      await createServer(admin, otherCdn.id, { cachegroupId: lonely.id });
      const lonelyTopology = await topology([{ cachegroup: lonely.name, parents: [] }]);
      const ds = await createDeliveryService(admin, cdn.id);
      await setTopology(app, ds.id, lonelyTopology);
      const cap = await capability();
      expectError(
        await admin.post('deliveryservices_required_capabilities', {
          deliveryServiceID: ds.id,
          requiredCapability: cap,
        }),
        400,
        `cannot add required capability: topology ${lonelyTopology} contains no servers in this delivery ` +
          "service's CDN; therefore, this delivery service's required capabilities cannot be satisfied",
      );
      expect(await requiredCapabilities(ds.id)).toBe(0);
    });

    it('refuses giving a topology to a delivery service whose capabilities its cache groups lack', async () => {
      const cap = await capability();
      const ds = await createDeliveryService(admin, cdn.id);
      const body = deliveryServiceBody(cdn.id, httpType, { xmlId: ds.xmlId, topology: topo });
      // 4.1+: the capabilities of the body.
      expectError(
        await admin.at('4.1').put(`deliveryservices/${ds.id}`, { ...body, requiredCapabilities: [cap] }),
        400,
        lacking([edgeCg, midCg]),
      );
      expect((await dsById(ds.id)).topology).toBeNull();
      // Before 4.1: those the delivery service requires.
      expect(
        (
          await admin.post('deliveryservices_required_capabilities', {
            deliveryServiceID: ds.id,
            requiredCapability: cap,
          })
        ).status,
      ).toBe(200);
      await giveCapability(edge, cap);
      expectError(await admin.at('4.0').put(`deliveryservices/${ds.id}`, body), 400, lacking([midCg]));
      expect((await dsById(ds.id)).topology).toBeNull();
      await giveCapability(mid, cap);
      const res = await admin.at('4.0').put(`deliveryservices/${ds.id}`, body);
      expect(res.status).toBe(200);
      expect((await dsById(ds.id)).topology).toBe(topo);
    });

    it("refuses a topology update that leaves a cache group without a server with a delivery service's capabilities", async () => {
      const cap = await capability();
      await giveCapability(edge, cap);
      await giveCapability(mid, cap);
      const own = await topology([
        { cachegroup: edgeCg.name, parents: [1] },
        { cachegroup: midCg.name, parents: [] },
      ]);
      const ds = await createDeliveryService(admin, cdn.id, { topology: own });
      const required = await admin.post('deliveryservices_required_capabilities', {
        deliveryServiceID: ds.id,
        requiredCapability: cap,
      });
      expect(required.status).toBe(200);
      const otherEdgeCg = await createCachegroup(admin, { typeName: 'EDGE_LOC' });
      const otherEdge = await createServer(admin, cdn.id, {
        cachegroupId: otherEdgeCg.id,
        profileName,
      });
      const nodes = [
        { cachegroup: otherEdgeCg.name, parents: [1] },
        { cachegroup: midCg.name, parents: [] },
      ];
      expectError(
        await admin.put(`topologies?name=${own}`, { name: own, nodes }),
        400,
        "'required capabilities' cannot update topology. The following delivery services would not be " +
          `satisfied: ${ds.xmlId}: cachegroups [${otherEdgeCg.name}] do not meet required capabilities`,
      );
      const [unchanged] = responseOf<{ nodes: { cachegroup: string }[] }[]>(
        await admin.get(`topologies?name=${own}`),
      );
      expect(unchanged.nodes.map((n) => n.cachegroup)).toEqual([edgeCg.name, midCg.name]);
      await giveCapability(otherEdge, cap);
      expect((await admin.put(`topologies?name=${own}`, { name: own, nodes })).status).toBe(200);
    });

    it("refuses removing a capability from a topology cache group's last server with a delivery service's capabilities", async () => {
      const cap = await capability();
      const cg = await createCachegroup(admin, { typeName: 'EDGE_LOC' });
      const first = await createServer(admin, cdn.id, { cachegroupId: cg.id, profileName });
      await giveCapability(first, cap);
      const own = await topology([{ cachegroup: cg.name, parents: [] }]);
      const ds = await createDeliveryService(admin, cdn.id, { topology: own });
      const required = await admin.post('deliveryservices_required_capabilities', {
        deliveryServiceID: ds.id,
        requiredCapability: cap,
      });
      expect(required.status).toBe(200);
      const removeFirst = () =>
        admin.delete(`server_server_capabilities?serverId=${first.id}&serverCapability=${cap}`);
      expectError(
        await removeFirst(),
        400,
        "this capability is required by delivery services, but there are no other servers in this server's " +
          `cachegroup to satisfy them (xml_id = ${ds.xmlId}, topology = ${own})`,
      );
      expect(
        await count('SELECT COUNT(*) AS n FROM server_server_capability WHERE server = ?', [first.id]),
      ).toBe(1);
      const second = await createServer(admin, cdn.id, { cachegroupId: cg.id, profileName });
      await giveCapability(second, cap);
      expect((await removeFirst()).status).toBe(200);
    });
  });

  describe('server assignments, eligible servers and servers?dsId (D88)', () => {
    let cdn: { id: number; name: string };
    let profileName: string;
    let edgeCg: Cachegroup, orgCg: Cachegroup, otherOrgCg: Cachegroup;
    let capable: ServerResponse;
    let incapable: ServerResponse, origin: ServerResponse, otherOrigin: ServerResponse;
    let cap: string;
    let ds: Ds;

    beforeAll(async () => {
      cdn = await createCdn(admin);
      profileName = (await createProfile(admin, cdn.id)).name;
      edgeCg = await createCachegroup(admin, { typeName: 'EDGE_LOC' });
      orgCg = await createCachegroup(admin, { typeName: 'ORG_LOC' });
      otherOrgCg = await createCachegroup(admin, { typeName: 'ORG_LOC' });
      capable = await createServer(admin, cdn.id, { cachegroupId: edgeCg.id, profileName });
      incapable = await createServer(admin, cdn.id, { cachegroupId: edgeCg.id, profileName });
      origin = await createServer(admin, cdn.id, { cachegroupId: orgCg.id, profileName, typeName: 'ORG' });
      otherOrigin = await createServer(admin, cdn.id, {
        cachegroupId: otherOrgCg.id,
        profileName,
        typeName: 'ORG',
      });
      cap = await capability();
      await giveCapability(capable, cap);
      ds = await createDeliveryService(admin, cdn.id);
      const res = await admin.post('deliveryservices_required_capabilities', {
        deliveryServiceID: ds.id,
        requiredCapability: cap,
      });
      expect(res.status).toBe(200);
    });

    it('GET deliveryservices/{id}/servers/eligible leaves out the EDGE servers lacking a required capability', async () => {
      const res = expectOk(await admin.get(`deliveryservices/${ds.id}/servers/eligible`));
      expect(hostNames(res)).toEqual([capable.hostName, origin.hostName, otherOrigin.hostName].sort());
    });

    it('POST servers/{id}/deliveryservices refuses a cache lacking a required capability', async () => {
      expectError(
        await admin.post(`servers/${incapable.id}/deliveryservices?replace=false`, [ds.id]),
        400,
        `cache ${incapable.hostName} cannot assign delivery service ${ds.id} without having the required ` +
          `delivery service capabilities: [${cap}]`,
      );
      expect(await assignments(ds.id)).toBe(0);
      expect((await admin.post(`servers/${capable.id}/deliveryservices?replace=false`, [ds.id])).status).toBe(
        200,
      );
      expect((await admin.post(`servers/${origin.id}/deliveryservices?replace=false`, [ds.id])).status).toBe(
        200,
      );
      expect(await assignments(ds.id)).toBe(2);
    });

    it('POST deliveryservices/{xmlId}/servers refuses a cache lacking a required capability', async () => {
      const before = await assignments(ds.id);
      expectError(
        await admin.post(`deliveryservices/${ds.xmlId}/servers`, { serverNames: [incapable.hostName] }),
        400,
        `the cache ${incapable.hostName} cannot be assigned to this delivery service without having the ` +
          `required delivery service capabilities: [${cap}]`,
      );
      expect(await assignments(ds.id)).toBe(before);
    });

    it('GET servers?dsId= lists only the assigned caches having the required capabilities, and assigned origins', async () => {
      await dataSource.query('INSERT INTO deliveryservice_server (deliveryservice, server) VALUES (?, ?)', [
        ds.id,
        incapable.id,
      ]);
      const res = await admin.get(`servers?dsId=${ds.id}`);
      expect(res.status).toBe(200);
      expect(hostNames(res)).toEqual([capable.hostName, origin.hostName].sort());
    });

    describe('a topology-based delivery service', () => {
      let topo: string;
      let topoDs: Ds;

      beforeAll(async () => {
        topo = await topology([
          { cachegroup: edgeCg.name, parents: [1] },
          { cachegroup: orgCg.name, parents: [] },
        ]);
        topoDs = await createDeliveryService(admin, cdn.id, { topology: topo });
      });

      it('POST servers/{id}/deliveryservices refuses an ORG server outside its topology', async () => {
        expectError(
          await admin.post(`servers/${otherOrigin.id}/deliveryservices?replace=false`, [topoDs.id]),
          400,
          `ORG server cachegroup (${otherOrgCg.name}) not found in the following topologies: ${topo} (${topoDs.xmlId})`,
        );
        expect(await assignments(topoDs.id)).toBe(0);
        expect(
          (await admin.post(`servers/${origin.id}/deliveryservices?replace=false`, [topoDs.id])).status,
        ).toBe(200);
        expect(await assignments(topoDs.id)).toBe(1);
      });

      it('POST deliveryservices/{xmlId}/servers refuses an ORG server outside its topology', async () => {
        expectError(
          await admin.post(`deliveryservices/${topoDs.xmlId}/servers`, {
            serverNames: [otherOrigin.hostName],
          }),
          400,
          `validating ORG servers in topology ${topo}: the following servers are not in any of the given ` +
            `cachegroups (${edgeCg.name}, ${orgCg.name}): ${otherOrigin.hostName} (${otherOrgCg.name})`,
        );
        expectError(
          await admin.post('deliveryserviceserver', {
            dsId: topoDs.id,
            servers: [otherOrigin.id],
            replace: false,
          }),
          400,
          `validating ORG servers in topology ${topo}: the following servers are not in any of the given ` +
            `cachegroups (${edgeCg.name}, ${orgCg.name}): ${otherOrigin.hostName} (${otherOrgCg.name})`,
        );
        expect(await assignments(topoDs.id)).toBe(1);
      });

      it('GET servers?dsId= lists the caches of its topology cache groups and its assigned origins', async () => {
        const res = await admin.get(`servers?dsId=${topoDs.id}`);
        expect(res.status).toBe(200);
        expect(hostNames(res)).toEqual([capable.hostName, incapable.hostName, origin.hostName].sort());
      });
    });
  });
});
