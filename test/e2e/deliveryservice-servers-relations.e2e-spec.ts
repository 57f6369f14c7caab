import { DataSource } from 'typeorm';
import type {
  DsServerV3,
  DsServerV4,
  DsServerV5,
} from 'src/modules/delivery-service-servers/dto/ds-server.response';
import { ApiClient, responseOf } from 'test/e2e/support/api';
import { createRole, createTenant, createUser } from 'test/e2e/support/accounts';
import { expectError, expectErrors, expectMalformedJson } from 'test/e2e/support/alerts';
import { expectOk } from 'test/e2e/support/headers';
import { RFC3339_TIME } from 'test/e2e/support/times';
import { createCachegroup } from 'test/e2e/support/fixtures/cachegroups';
import { insertDeliveryService } from 'test/e2e/support/fixtures/delivery-services';
import {
  assignedPairs,
  setTopology,
  uniqueTopology,
  twoCdnServers,
} from 'test/e2e/support/fixtures/delivery-service-servers';
import { createServer, type ServerResponse } from 'test/e2e/support/fixtures/servers';
import { SERVER_V30 } from 'test/e2e/support/go-types';
import { useApp } from 'test/e2e/support/suite';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are read field by field
type Json = Record<string, any>;

const VERSIONS = ['3.0', '3.1', '4.0', '4.1', '5.0'];
const MISSING_DS = "Either no Delivery Service ids given, or at least one id doesn't exist!";

/** lib/go-tc DSServerV30: the server's 3.x fields less those the original's delivery-service server type leaves out. */
const V3_KEYS = SERVER_V30.keys.filter(
  (k) => !['revalPending', 'statusLastUpdated', 'xmppId', 'xmppPasswd'].includes(k),
);
const V4_KEYS = [
  ...V3_KEYS.filter(
    (k) => !['profile', 'profileDesc', 'profileId', 'routerHostName', 'routerPortName'].includes(k),
  ),
  'profileNames',
];

const pick = (record: Json, keys: string[]): Json => Object.fromEntries(keys.map((k) => [k, record[k]]));

describe('delivery service ↔ server relation routes', () => {
  const { app, admin, readOnly, operations } = useApp({
    users: { readOnly: 'read-only', operations: 'operations' },
  });
  let cdnA: { id: number; name: string };
  let cdnB: { id: number; name: string };
  let edges: ServerResponse[];
  let offlineEdge: ServerResponse, org: ServerResponse, mid: ServerResponse, otherCdnEdge: ServerResponse;
  let parentTenant: { id: number }, childTenant: { id: number };

  const newDs = async (options: { tenantId?: number; active?: string; cdnId?: number } = {}) =>
    insertDeliveryService(app, options.cdnId ?? cdnA.id, options);
  const pairs = (dsId: number) => assignedPairs(admin, [dsId]);
  const link = async (dsId: number, serverIds: number[]) => {
    const res = await admin.post('deliveryserviceserver', { dsId, servers: serverIds, replace: false });
    expect(res.status).toBe(200);
  };
  /** The server as GET /servers answers it on `version` (the source of the fields both lists share). */
  const serverAt = async (id: number, version: string, client = admin): Promise<Json> =>
    responseOf<Json[]>(await client.at(version).get(`servers?id=${id}`))[0];
  const assignToServer = (client: ApiClient, serverId: number, dsIds: unknown, replace = 'false') =>
    client.post(`servers/${serverId}/deliveryservices?replace=${replace}`, dsIds);

  beforeAll(async () => {
    const { server, ...cdns } = await twoCdnServers(admin);
    ({ cdnA, cdnB } = cdns);
    edges = [await server('EDGE'), await server('EDGE')];
    offlineEdge = await server('EDGE', 'OFFLINE');
    org = await server('ORG');
    mid = await server('MID');
    otherCdnEdge = await server('EDGE', 'ONLINE', true);
    // ILO details on one server, to see who may read its password.
    await app
      .get(DataSource)
      .query("UPDATE server SET ilo_password = 'ilo-secret', ilo_username = 'ilo-user' WHERE id = ?", [
        edges[0].id,
      ]);
    parentTenant = await createTenant(admin);
    childTenant = await createTenant(admin, parentTenant.id);
  });

  describe('GET deliveryservices/{id}/servers', () => {
    it('lists the assigned servers in the 3.x shape (one profile, the router on the server)', async () => {
      const ds = await newDs();
      await link(ds.id, [edges[0].id, org.id]);
      for (const version of ['3.0', '3.1']) {
        const res = expectOk(await admin.at(version).get(`deliveryservices/${ds.id}/servers`));
        const expected = [
          pick(await serverAt(edges[0].id, version), V3_KEYS),
          pick(await serverAt(org.id, version), V3_KEYS),
        ];
        expect(expected[0]).toMatchObject({
          iloPassword: 'ilo-secret',
          routerHostName: '',
          profileId: expect.any(Number),
        });
        expect(res.body).toEqual({ response: expected });
        const typed: DsServerV3[] = responseOf(res);
        expect(typed.map((s) => s.id)).toEqual([edges[0].id, org.id]);
      }
    });

    it('lists them in the 4.x shape (profile names, the router on each interface)', async () => {
      const ds = await newDs();
      await link(ds.id, [edges[1].id, edges[0].id]);
      for (const version of ['4.0', '4.1']) {
        const res = await admin.at(version).get(`deliveryservices/${ds.id}/servers`);
        expect(res.status).toBe(200);
        const listed: DsServerV4[] = responseOf(res);
        expect(listed).toEqual([
          pick(await serverAt(edges[0].id, version), V4_KEYS),
          pick(await serverAt(edges[1].id, version), V4_KEYS),
        ]);
        expect(listed[0].interfaces[0]).toEqual({
          ipAddresses: edges[0].interfaces[0].ipAddresses,
          maxBandwidth: null,
          monitor: true,
          mtu: 1500,
          name: 'eth0',
          routerHostName: '',
          routerPortName: '',
        });
      }
    });

    it('lists them in the 5.0 shape (the 5.0 server fields, empty optional ones left out)', async () => {
      const ds = await newDs();
      await link(ds.id, [edges[0].id, edges[1].id]);
      const res = await admin.at('5.0').get(`deliveryservices/${ds.id}/servers`);
      expect(res.status).toBe(200);
      const listed: DsServerV5[] = responseOf(res);
      const v4 = await serverAt(edges[0].id, '4.0');
      expect(listed[0]).toEqual({
        cacheGroup: v4.cachegroup,
        cacheGroupID: v4.cachegroupId,
        cdnID: cdnA.id,
        cdn: cdnA.name,
        configUpdateFailed: false,
        domainName: 'example.net',
        guid: null,
        hostName: edges[0].hostName,
        id: edges[0].id,
        iloPassword: 'ilo-secret',
        iloUsername: 'ilo-user',
        interfaces: v4.interfaces,
        lastUpdated: expect.stringMatching(RFC3339_TIME),
        offlineReason: null,
        physicalLocation: v4.physLocation,
        physicalLocationID: v4.physLocationId,
        profiles: v4.profileNames,
        rack: null,
        revalUpdateFailed: false,
        status: 'ONLINE',
        statusID: v4.statusId,
        tcpPort: null,
        type: 'EDGE',
        typeID: v4.typeId,
        xmppId: null,
        xmppPasswd: null,
      });
      // The same instant as the 4.0 timestamp, which has whole seconds.
      expect(Math.floor(new Date(listed[0].lastUpdated).getTime() / 1000) * 1000).toBe(
        new Date(`${v4.lastUpdated.replace(' ', 'T')}:00`).getTime(),
      );
      expect(listed.map((s) => s.id)).toEqual([edges[0].id, edges[1].id]);
      expect(listed[1]).not.toHaveProperty('iloPassword');
    });

    it('hides the ILO password from those who may not read it: "" on every version', async () => {
      const ds = await newDs();
      await link(ds.id, [edges[0].id]);
      for (const version of VERSIONS) {
        const listed = responseOf<Json[]>(
          await readOnly.client.at(version).get(`deliveryservices/${ds.id}/servers`),
        );
        expect([version, listed[0].iloPassword, listed[0].iloUsername]).toEqual([version, '', 'ilo-user']);
      }
      // Operations is not enough before 5.0 (the admin level is); on 5.0 SECURE-SERVER:READ is, which
      // the original's seeds give the operations role (D130).
      for (const version of VERSIONS) {
        const listed = responseOf<Json[]>(
          await operations.client.at(version).get(`deliveryservices/${ds.id}/servers`),
        );
        expect([version, listed[0].iloPassword]).toEqual([version, version === '5.0' ? 'ilo-secret' : '']);
      }
    });

    it('answers an empty list for a delivery service without servers or unknown, and 400 for a bad id', async () => {
      const ds = await newDs();
      expect(responseOf(await admin.get(`deliveryservices/${ds.id}/servers`))).toEqual([]);
      expect(responseOf(await admin.get('deliveryservices/2147480000/servers'))).toEqual([]);
      expectError(
        await admin.get('deliveryservices/x/servers'),
        400,
        "getting integer parameters: parameter 'id' not an integer",
      );
    });

    it('needs the permissions on 4.0 and later', async () => {
      const limited = await createUser(
        app,
        admin,
        await createRole(admin, ['SERVER:READ', 'DELIVERY-SERVICE:READ']),
      );
      expectError(
        await limited.client.get('deliveryservices/1/servers'),
        403,
        'missing required Permissions: CACHE-GROUP:READ, CDN:READ, TYPE:READ, PROFILE:READ',
      );
    });
  });

  describe('GET deliveryservices/{id}/servers/eligible', () => {
    it("lists the EDGE and ORG servers of the delivery service's CDN, whether assigned or not", async () => {
      const ds = await newDs();
      await link(ds.id, [edges[0].id]);
      for (const version of VERSIONS) {
        const res = expectOk(
          await readOnly.client.at(version).get(`deliveryservices/${ds.id}/servers/eligible`),
        );
        const ids = responseOf<Json[]>(res).map((s) => s.id);
        expect(ids).toEqual(expect.arrayContaining([edges[0].id, edges[1].id, offlineEdge.id, org.id]));
        expect(ids).not.toContain(mid.id);
        expect(ids).not.toContain(otherCdnEdge.id);
      }
      const v4 = responseOf<DsServerV4[]>(await admin.get(`deliveryservices/${ds.id}/servers/eligible`));
      expect(v4.find((s) => s.id === edges[0].id)).toEqual(pick(await serverAt(edges[0].id, '4.0'), V4_KEYS));
      const v5 = responseOf<DsServerV5[]>(
        await readOnly.client.at('5.0').get(`deliveryservices/${ds.id}/servers/eligible`),
      );
      expect(v5.find((s) => s.id === edges[0].id)).toMatchObject({ cdnID: cdnA.id, iloPassword: '' });
    });

    it('answers 404 for an unknown delivery service and 403 out of tenancy', async () => {
      expectError(
        await admin.get('deliveryservices/2147480000/servers/eligible'),
        404,
        'delivery service 2147480000 not found',
      );
      const ds = await newDs({ tenantId: parentTenant.id });
      const child = await createUser(app, admin, 'read-only', childTenant.id);
      expectError(
        await child.client.get(`deliveryservices/${ds.id}/servers/eligible`),
        403,
        'not authorized on this tenant',
      );
      const parent = await createUser(app, admin, 'read-only', parentTenant.id);
      expect((await parent.client.get(`deliveryservices/${ds.id}/servers/eligible`)).status).toBe(200);
      expectError(
        await admin.get('deliveryservices/x/servers/eligible'),
        400,
        "getting integer parameters: parameter 'id' not an integer",
      );
    });
  });

  describe('GET servers/{id}/deliveryservices', () => {
    it('lists the delivery services the server is assigned to, in each version’s shape', async () => {
      const [a, b] = [await newDs(), await newDs()];
      const server = await createServer(admin, cdnA.id);
      await link(a.id, [server.id]);
      await link(b.id, [server.id]);
      for (const version of VERSIONS) {
        const res = expectOk(await readOnly.client.at(version).get(`servers/${server.id}/deliveryservices`));
        const expected = [
          ...responseOf<Json[]>(await admin.at(version).get(`deliveryservices?id=${a.id}`)),
          ...responseOf<Json[]>(await admin.at(version).get(`deliveryservices?id=${b.id}`)),
        ].sort((x, y) => (x.xmlId < y.xmlId ? -1 : 1));
        expect(responseOf(res)).toEqual(expected);
      }
    });

    it('filters by xmlId, orders and pages; leaves out delivery services out of tenancy', async () => {
      const [a, b] = [await newDs(), await newDs({ tenantId: parentTenant.id })];
      const server = await createServer(admin, cdnA.id);
      await link(a.id, [server.id]);
      await link(b.id, [server.id]);
      const xmlIds = async (client: ApiClient, query = '') =>
        responseOf<Json[]>(await client.get(`servers/${server.id}/deliveryservices${query}`)).map(
          (d) => d.xmlId,
        );
      expect(await xmlIds(admin, `?xmlId=${a.xmlId}`)).toEqual([a.xmlId]);
      expect(await xmlIds(admin, `?xml_id=${b.xmlId}`)).toEqual([b.xmlId]);
      const sorted = [a.xmlId, b.xmlId].sort();
      expect(await xmlIds(admin)).toEqual(sorted);
      expect(await xmlIds(admin, '?orderby=xmlId&sortOrder=desc')).toEqual([...sorted].reverse());
      expect(await xmlIds(admin, '?limit=1&offset=1')).toEqual([sorted[1]]);
      const child = await createUser(app, admin, 'read-only', childTenant.id);
      expect(await xmlIds(child.client)).toEqual([]);
    });

    it('adds the topology-based delivery services of its CDN whose topology holds its cache group', async () => {
      const group = await createCachegroup(admin);
      const edge = await createServer(admin, cdnA.id, { cachegroupId: group.id });
      const origin = await createServer(admin, cdnA.id, { cachegroupId: group.id, typeName: 'ORG' });
      const [inTopology, ofOtherCdn, unrelated] = [
        await newDs(),
        await newDs({ cdnId: cdnB.id }),
        await newDs(),
      ];
      const topology = `topo-${group.id}`;
      await setTopology(app, inTopology.id, topology);
      await setTopology(app, ofOtherCdn.id, topology);
      await setTopology(app, unrelated.id, `other-${group.id}`);
      await app
        .get(DataSource)
        .query('INSERT INTO topology_cachegroup (topology, cachegroup) VALUES (?, ?)', [
          topology,
          group.name,
        ]);
      const xmlIds = async (serverId: number) =>
        responseOf<Json[]>(await admin.at('5.0').get(`servers/${serverId}/deliveryservices`)).map(
          (d) => d.xmlId,
        );
      expect(await xmlIds(edge.id)).toEqual([inTopology.xmlId]);
      // An origin gets only what it is assigned to.
      expect(await xmlIds(origin.id)).toEqual([]);
    });

    it('answers 404 for an unknown server and 400 for a bad id', async () => {
      await expectErrors([
        [admin.get('servers/2147480000/deliveryservices'), 404, "server with ID 2147480000 doesn't exist"],
        [admin.get('servers/x/deliveryservices'), 400, 'cannot parse to integer'],
      ]);
    });

    it('answers If-Modified-Since from the assignments: 304 until one changes', async () => {
      const server = await createServer(admin, cdnA.id);
      const future = new Date(Date.now() + 86_400_000).toUTCString();
      const notModified = await admin
        .get(`servers/${server.id}/deliveryservices`)
        .set('If-Modified-Since', future);
      expect([notModified.status, notModified.text]).toEqual([304, '']);
      const past = new Date(Date.now() - 86_400_000).toUTCString();
      const modified = await admin
        .get(`servers/${server.id}/deliveryservices`)
        .set('If-Modified-Since', past);
      expect(modified.status).toBe(200);
      expect(modified.headers['last-modified']).toEqual(expect.any(String));
    });
  });

  describe('POST servers/{id}/deliveryservices', () => {
    it('assigns delivery services to the server on every version, keeping existing pairs', async () => {
      for (const version of VERSIONS) {
        const [a, b] = [await newDs(), await newDs()];
        const server = await createServer(admin, cdnA.id);
        await link(a.id, [server.id]);
        const res = expectOk(
          await assignToServer(admin.at(version), server.id, [a.id, b.id]),
          'successfully assigned dses to server',
        );
        expect(responseOf(res)).toEqual({ serverId: server.id, dsIds: [a.id, b.id], replace: false });
        expect([...(await pairs(a.id)), ...(await pairs(b.id))]).toEqual([
          [a.id, server.id],
          [b.id, server.id],
        ]);
      }
    });

    it("replaces the server's other assignments with replace, reading Go's boolean syntax", async () => {
      const [a, b, c] = [await newDs({ active: 'INACTIVE' }), await newDs(), await newDs()];
      const server = await createServer(admin, cdnA.id, { statusName: 'OFFLINE' });
      await link(a.id, [server.id]);
      const res = await assignToServer(operations.client, server.id, [b.id], 'T');
      expect(responseOf(res)).toEqual({ serverId: server.id, dsIds: [b.id], replace: true });
      expect(await pairs(a.id)).toEqual([]);
      expect(await pairs(b.id)).toEqual([[b.id, server.id]]);
      expect((await assignToServer(admin, server.id, [c.id], '0')).status).toBe(200);
      expect(await pairs(b.id)).toEqual([[b.id, server.id]]);
      const cleared = await assignToServer(admin, server.id, [], 'true');
      expect(responseOf(cleared)).toEqual({ serverId: server.id, dsIds: [], replace: true });
      expect([...(await pairs(b.id)), ...(await pairs(c.id))]).toEqual([]);
    });

    it("answers the original's texts for bad input, writing nothing", async () => {
      const ds = await newDs();
      const server = await createServer(admin, cdnA.id);
      const payload = 'payload must be a list of integers representing delivery service ids';
      expectError(await assignToServer(admin, server.id, { dsIds: [ds.id] }), 400, payload);
      expectError(await assignToServer(admin, server.id, [ds.id, String(ds.id)]), 400, payload);
      expectError(await assignToServer(admin, server.id, [1.5]), 400, payload);
      expectError(await admin.post(`servers/${server.id}/deliveryservices?replace=false`), 400, payload);
      expectError(
        await assignToServer(admin, server.id, [2 ** 31]),
        400,
        "'[0]' must be no greater than 2147483647",
      );
      expectMalformedJson(
        await admin.raw('post', `servers/${server.id}/deliveryservices?replace=false`, '[1,'),
      );
      expectError(
        await admin.post(`servers/${server.id}/deliveryservices`, [ds.id]),
        400,
        'strconv.ParseBool: parsing "": invalid syntax',
      );
      expectError(
        await assignToServer(admin, server.id, [ds.id], 'yes'),
        400,
        'strconv.ParseBool: parsing "yes": invalid syntax',
      );
      expectError(
        await admin.post('servers/x/deliveryservices?replace=false', [ds.id]),
        400,
        "getting integer parameters: parameter 'id' not an integer",
      );
      expectError(await assignToServer(admin, 2147480000, [ds.id]), 404, 'no server with that ID found');
      expectError(await assignToServer(admin, server.id, [ds.id, 2147480000]), 404, MISSING_DS);
      expectError(await assignToServer(admin, server.id, [ds.id, ds.id]), 404, MISSING_DS);
      expect(await pairs(ds.id)).toEqual([]);
    });

    it('refuses delivery services of another CDN (409) and out of tenancy (404, as unknown)', async () => {
      const ds = await newDs();
      const other = await newDs({ cdnId: cdnB.id });
      const server = await createServer(admin, cdnA.id);
      const serverCdn = responseOf<Json[]>(await admin.get(`cdns?id=${cdnA.id}`))[0].name as string;
      expectError(
        await assignToServer(admin, server.id, [ds.id, other.id]),
        409,
        `Delivery Service ${other.xmlId} (#${other.id}) is not in the same CDN as server ${server.hostName} ` +
          `(#${server.id}) (server is in ${serverCdn} (#${cdnA.id}), DS is in ${cdnB.name} (#${cdnB.id}))!`,
      );
      const parentDs = await newDs({ tenantId: parentTenant.id });
      const child = await createUser(app, admin, 'operations', childTenant.id);
      expectError(await assignToServer(child.client, server.id, [parentDs.id]), 404, MISSING_DS);
      expect([...(await pairs(ds.id)), ...(await pairs(parentDs.id))]).toEqual([]);
      const childDs = await newDs({ tenantId: childTenant.id });
      expect((await assignToServer(child.client, server.id, [childDs.id])).status).toBe(200);
    });

    it('refuses to leave an active delivery service without its last available EDGE server (409)', async () => {
      const server = await createServer(admin, cdnA.id);
      const [a, b, c] = [await newDs(), await newDs(), await newDs()];
      const inactive = await newDs({ active: 'INACTIVE' });
      for (const ds of [a, b, c, inactive]) {
        await link(ds.id, [server.id, offlineEdge.id]);
      }
      const withOther = await newDs();
      await link(withOther.id, [server.id, edges[0].id]);
      const prefix = 'Delivery Service assignment would leave Active Delivery Service';
      const suffix = "with no 'ONLINE' or 'REPORTED' EDGE servers";
      expectError(
        await assignToServer(admin, server.id, [a.id, b.id], 'true'),
        409,
        `${prefix} #${c.id} ${suffix}`,
      );
      expectError(
        await assignToServer(admin, server.id, [a.id], 'true'),
        409,
        `${prefix}s #${b.id} and #${c.id} ${suffix}`,
      );
      expectError(
        await assignToServer(admin, server.id, [], 'true'),
        409,
        `${prefix}s #${a.id}, #${b.id}, and #${c.id} ${suffix}`,
      );
      expect(await pairs(a.id)).toEqual(
        [
          [a.id, server.id],
          [a.id, offlineEdge.id],
        ].sort((x, y) => x[1] - y[1]),
      );
      expect((await assignToServer(admin, server.id, [a.id, b.id, c.id], 'true')).status).toBe(200);
      expect(await pairs(withOther.id)).toEqual([[withOther.id, edges[0].id]]);
      expect(await pairs(inactive.id)).toEqual([[inactive.id, offlineEdge.id]]);
    });

    it('says ORG for an origin that is the last of a multi-site-origin delivery service', async () => {
      const origin = await createServer(admin, cdnA.id, { typeName: 'ORG' });
      const ds = await newDs();
      await app
        .get(DataSource)
        .query('UPDATE deliveryservice SET multi_site_origin = 1 WHERE id = ?', [ds.id]);
      await link(ds.id, [origin.id]);
      expectError(
        await assignToServer(admin, origin.id, [], 'true'),
        409,
        `Delivery Service assignment would leave Active Delivery Service #${ds.id} with no 'ONLINE' or 'REPORTED' ORG servers`,
      );
    });
  });

  describe('POST deliveryservices/{xmlId}/servers', () => {
    it('assigns servers by host name on every version, answering {serverNames, xmlId} without an alert', async () => {
      for (const version of VERSIONS) {
        const ds = await newDs();
        await link(ds.id, [edges[0].id]);
        const serverNames = [edges[0].hostName, org.hostName];
        const res = expectOk(
          await admin.at(version).post(`deliveryservices/${ds.xmlId}/servers`, { serverNames }),
        );
        expect(res.body).toEqual({ response: { serverNames, xmlId: ds.xmlId } });
        expect(await pairs(ds.id)).toEqual(
          [
            [ds.id, edges[0].id],
            [ds.id, org.id],
          ].sort((x, y) => x[1] - y[1]),
        );
      }
    });

    it('echoes a missing list as null and assigns nothing', async () => {
      const ds = await newDs();
      const res = await operations.client.post(`deliveryservices/${ds.xmlId}/servers`, {});
      expect(res.body).toEqual({ response: { serverNames: null, xmlId: ds.xmlId } });
      expect(await pairs(ds.id)).toEqual([]);
    });

    it("answers the original's texts, in its order, writing nothing", async () => {
      const ds = await newDs();
      const post = (xmlId: string, body: unknown, client = admin) =>
        client.post(`deliveryservices/${xmlId}/servers`, body);
      expectError(await post('no-such-ds', { serverNames: 5 }), 400, "no such deliveryservice: 'no-such-ds'");
      const parentDs = await newDs({ tenantId: parentTenant.id });
      const child = await createUser(app, admin, 'operations', childTenant.id);
      expectError(
        await post(parentDs.xmlId, { serverNames: [edges[0].hostName] }, child.client),
        403,
        'Forbidden',
      );
      expectError(
        await post(ds.xmlId, { serverNames: [edges[0].hostName, otherCdnEdge.hostName] }),
        400,
        'server and delivery service CDNs do not match',
      );
      expectError(
        await post(ds.xmlId, { serverNames: [edges[0].hostName, 'no-such-host'] }),
        404,
        'servers not found',
      );
      expectError(
        await post(ds.xmlId, { serverNames: [edges[0].hostName, edges[0].hostName] }),
        404,
        'servers not found',
      );
      expectError(
        await post(ds.xmlId, { serverNames: [edges[0].id] }),
        400,
        'malformed JSON: serverNames must be an array of strings',
      );
      expectError(
        await post(ds.xmlId, [edges[0].hostName]),
        400,
        'malformed JSON: the request body must be a JSON object',
      );
      expectError(await admin.post(`deliveryservices/${ds.xmlId}/servers`), 400, 'malformed JSON: EOF');
      expectMalformedJson(await admin.raw('post', `deliveryservices/${ds.xmlId}/servers`, '{"serverNames":'));
      expect(await pairs(ds.id)).toEqual([]);
      expect(await pairs(parentDs.id)).toEqual([]);
    });

    it('takes only ORG servers for a topology-based delivery service', async () => {
      const ds = await newDs();
      await setTopology(app, ds.id, uniqueTopology(), [org.cachegroupId]);
      expectError(
        await admin.post(`deliveryservices/${ds.xmlId}/servers`, { serverNames: [edges[0].hostName] }),
        400,
        'only servers of type ORG may be assigned to topology-based delivery services',
      );
      expect(
        (await admin.post(`deliveryservices/${ds.xmlId}/servers`, { serverNames: [org.hostName] })).status,
      ).toBe(200);
    });
  });
});
