import type {
  AssignmentListWire,
  AssignmentRow,
} from 'src/modules/delivery-service-servers/dto/delivery-service-server.response';
import { ApiClient, responseOf, type Wire } from 'test/e2e/support/api';
import { type CreatedUser, createTenant, createUser } from 'test/e2e/support/accounts';
import { expectError, expectErrors, expectMalformedJson } from 'test/e2e/support/alerts';
import { expectOk } from 'test/e2e/support/headers';
import { CUSTOM_TIME } from 'test/e2e/support/times';
import { insertDeliveryService } from 'test/e2e/support/fixtures/delivery-services';
import {
  assignedPairs,
  setTopology,
  uniqueTopology,
  twoCdnServers,
} from 'test/e2e/support/fixtures/delivery-service-servers';
import type { ServerResponse } from 'test/e2e/support/fixtures/servers';
import { useApp } from 'test/e2e/support/suite';

type Assignment = Wire<AssignmentRow>;

describe('deliveryserviceserver', () => {
  const { app, admin } = useApp();
  let cdnA: { id: number; name: string };
  let cdnB: { id: number; name: string };
  let edges: ServerResponse[];
  let offlineEdge: ServerResponse, org: ServerResponse, otherCdnEdge: ServerResponse;
  let parentTenant: { id: number };
  let childTenant: { id: number }, siblingTenant: { id: number }, inactiveTenant: { id: number };

  const newDs = async (options: { tenantId?: number; active?: string; cdnId?: number } = {}) =>
    (await insertDeliveryService(app, options.cdnId ?? cdnA.id, options)).id;
  const assign = (client: ApiClient, dsId: number, servers: number[], replace = false) =>
    client.post('deliveryserviceserver', { dsId, servers, replace });

  beforeAll(async () => {
    const { server, ...cdns } = await twoCdnServers(admin);
    ({ cdnA, cdnB } = cdns);
    edges = [await server('EDGE'), await server('EDGE'), await server('EDGE')];
    offlineEdge = await server('EDGE', 'OFFLINE');
    org = await server('ORG');
    otherCdnEdge = await server('EDGE', 'ONLINE', true);
    parentTenant = await createTenant(admin);
    childTenant = await createTenant(admin, parentTenant.id);
    siblingTenant = await createTenant(admin);
    inactiveTenant = await createTenant(admin, parentTenant.id, false);
  });

  describe('POST /deliveryserviceserver', () => {
    it('assigns servers and answers what was asked', async () => {
      const dsId = await newDs();
      const res = expectOk(
        await assign(admin, dsId, [edges[0].id, edges[1].id]),
        'server assignments complete',
      );
      expect(responseOf(res)).toEqual({ dsId, replace: false, servers: [edges[0].id, edges[1].id] });
      expect(await assignedPairs(admin, [dsId])).toEqual([
        [dsId, edges[0].id],
        [dsId, edges[1].id],
      ]);
    });

    it('is idempotent: assigning again (or twice in one request) keeps the same rows', async () => {
      const dsId = await newDs();
      expect((await assign(admin, dsId, [edges[0].id])).status).toBe(200);
      const before = responseOf<Assignment[]>(
        await admin.get(`deliveryserviceserver?deliveryserviceids=${dsId}`),
      );
      const again = await assign(admin, dsId, [edges[0].id, edges[0].id, edges[1].id]);
      expect(again.status).toBe(200);
      expect(responseOf(again)).toEqual({
        dsId,
        replace: false,
        servers: [edges[0].id, edges[0].id, edges[1].id],
      });
      const after = responseOf<Assignment[]>(
        await admin.get(`deliveryserviceserver?deliveryserviceids=${dsId}`),
      );
      expect(after).toHaveLength(2);
      expect(after).toContainEqual(before[0]);
    });

    it('replaces the existing assignments when replace is set', async () => {
      const dsId = await newDs();
      await assign(admin, dsId, [edges[0].id, edges[1].id]);
      expect((await assign(admin, dsId, [edges[1].id, edges[2].id], true)).status).toBe(200);
      expect(await assignedPairs(admin, [dsId])).toEqual([
        [dsId, edges[1].id],
        [dsId, edges[2].id],
      ]);
      const inactive = await newDs({ active: 'INACTIVE' });
      await assign(admin, inactive, [edges[0].id]);
      expect((await assign(admin, inactive, [], true)).status).toBe(200);
      expect(await assignedPairs(admin, [inactive])).toEqual([]);
    });

    it('answers 200 on every version', async () => {
      for (const version of ['3.0', '3.1', '4.0', '4.1', '5.0']) {
        const dsId = await newDs();
        expect((await assign(admin.at(version), dsId, [edges[0].id])).status).toBe(200);
        expect(await assignedPairs(admin, [dsId])).toEqual([[dsId, edges[0].id]]);
      }
    });

    it('refuses missing fields in the original order and mistyped ones', async () => {
      const dsId = await newDs();
      const cases: [unknown, string][] = [
        [{}, 'servers must exist in post'],
        [{ dsId, replace: true }, 'servers must exist in post'],
        [{ servers: [edges[0].id], replace: true }, 'dsid must exist in post'],
        [{ dsId, servers: [edges[0].id] }, 'replace must exist in post'],
        [{ dsId: 'x', servers: [edges[0].id], replace: false }, "'dsId' must be an integer"],
        [{ dsId, servers: [String(edges[0].id)], replace: false }, "'servers' must be an array of integers"],
        [{ dsId, servers: edges[0].id, replace: false }, "'servers' must be an array of integers"],
        [{ dsId, servers: [edges[0].id], replace: 'yes' }, "'replace' must be a boolean"],
        [[dsId], 'the request body must be a JSON object'],
      ];
      for (const [body, text] of cases) {
        expectError(await admin.post('deliveryserviceserver', body), 400, text);
      }
      const res = await admin.raw('post', 'deliveryserviceserver', '{"dsId":');
      expectMalformedJson(res);
      expect(await assignedPairs(admin, [dsId])).toEqual([]);
    });

    it('refuses an unknown delivery service', async () => {
      expectError(
        await assign(admin, 987654321, [edges[0].id]),
        400,
        'no delivery service with that ID exists',
      );
    });

    it('refuses servers of another CDN, writing nothing', async () => {
      const dsId = await newDs();
      await assign(admin, dsId, [edges[0].id]);
      expectError(
        await assign(admin, dsId, [edges[1].id, otherCdnEdge.id], true),
        400,
        'server and delivery service CDNs do not match',
      );
      expect(await assignedPairs(admin, [dsId])).toEqual([[dsId, edges[0].id]]);
    });

    it('refuses unknown servers, writing nothing', async () => {
      const dsId = await newDs();
      await assign(admin, dsId, [edges[0].id]);
      expectError(await assign(admin, dsId, [edges[1].id, 987654321], true), 404, 'server not found');
      expect(await assignedPairs(admin, [dsId])).toEqual([[dsId, edges[0].id]]);
    });

    it('only lets ORG servers be assigned to a topology-based delivery service', async () => {
      const dsId = await newDs();
      await setTopology(app, dsId, uniqueTopology(), [org.cachegroupId]);
      expectError(
        await assign(admin, dsId, [edges[0].id]),
        400,
        'only servers of type ORG may be assigned to topology-based delivery services',
      );
      expect((await assign(admin, dsId, [org.id])).status).toBe(200);
    });

    it('refuses to leave an active delivery service without available servers (409)', async () => {
      const dsId = await newDs();
      await assign(admin, dsId, [edges[0].id]);
      const text = `this server assignment leaves Active Delivery Service #${dsId} without any 'ONLINE' or 'REPORTED' servers`;
      expectError(await assign(admin, dsId, [], true), 409, text);
      expectError(await assign(admin, dsId, [offlineEdge.id], true), 409, text);
      expectError(await assign(admin, dsId, [org.id], true), 409, text);
      expect(await assignedPairs(admin, [dsId])).toEqual([[dsId, edges[0].id]]);
      expect((await assign(admin, dsId, [offlineEdge.id])).status).toBe(200);
    });

    describe('tenancy', () => {
      it('allows delivery services of the user tenant and its descendants, even inactive ones', async () => {
        const user = await createUser(app, admin, 'operations', parentTenant.id);
        for (const tenantId of [parentTenant.id, childTenant.id, inactiveTenant.id]) {
          const dsId = await newDs({ tenantId });
          expect((await assign(user.client, dsId, [edges[0].id])).status).toBe(200);
        }
      });

      it('refuses delivery services of a parent or sibling tenant, and users of an inactive tenant', async () => {
        const child = await createUser(app, admin, 'operations', childTenant.id);
        const inactive = await createUser(app, admin, 'operations', inactiveTenant.id);
        const refused: [CreatedUser, number][] = [
          [child, await newDs({ tenantId: parentTenant.id })],
          [child, await newDs({ tenantId: siblingTenant.id })],
          [inactive, await newDs({ tenantId: inactiveTenant.id })],
        ];
        for (const [user, dsId] of refused) {
          expectError(await assign(user.client, dsId, [edges[0].id]), 403, 'not authorized on this tenant');
          expect(await assignedPairs(admin, [dsId])).toEqual([]);
        }
      });
    });

    describe('authorization', () => {});
  });

  describe('GET /deliveryserviceserver', () => {
    let dsIds: number[];

    beforeAll(async () => {
      dsIds = [await newDs(), await newDs()];
      await assign(admin, dsIds[0], [edges[0].id, edges[1].id, edges[2].id]);
      await assign(admin, dsIds[1], [edges[0].id]);
    });

    const list = (query: string, client = admin) =>
      client.get(`deliveryserviceserver?deliveryserviceids=${dsIds.join(',')}${query}`);

    it("answers the original's body: orderby, response, size and limit (20 by default)", async () => {
      const res = expectOk(await list(''));
      const body = res.body as Wire<AssignmentListWire>;
      expect(Object.keys(body)).toEqual(['orderby', 'response', 'size', 'limit']);
      expect(body).toMatchObject({ orderby: 'deliveryService', size: 0, limit: 20 });
      expect(body.response).toHaveLength(4);
      expect(body.response[0]).toEqual({
        server: edges[0].id,
        deliveryService: dsIds[0],
        lastUpdated: expect.stringMatching(CUSTOM_TIME),
      });
      expect(body.response.map((r) => r.deliveryService)).toEqual([dsIds[0], dsIds[0], dsIds[0], dsIds[1]]);
      const all = await admin.get('deliveryserviceserver');
      expect((all.body as Wire<AssignmentListWire>).response.length).toBeLessThanOrEqual(20);
    });

    it('filters by server ids and CDN name', async () => {
      const res = await list(`&serverids=${edges[0].id}, ${edges[2].id}`);
      expect(responseOf<Assignment[]>(res).map((r) => [r.deliveryService, r.server])).toEqual([
        [dsIds[0], edges[0].id],
        [dsIds[0], edges[2].id],
        [dsIds[1], edges[0].id],
      ]);
      expect(responseOf<Assignment[]>(await list(`&cdn=${cdnA.name}`))).toHaveLength(4);
      expect(responseOf<Assignment[]>(await list(`&cdn=${cdnB.name}`))).toEqual([]);
      expect(responseOf<Assignment[]>(await list('&cdn=no-such-cdn'))).toEqual([]);
    });

    it('orders, pages and validates the list parameters', async () => {
      const desc = responseOf<Assignment[]>(await list('&orderby=server&sortOrder=desc'));
      expect(desc.map((r) => r.server)).toEqual([edges[2].id, edges[1].id, edges[0].id, edges[0].id]);
      const full = responseOf<Assignment[]>(await list('&orderby=deliveryService&limit=-1'));
      const page2 = await list('&limit=2&page=2');
      expect(page2.body).toMatchObject({ size: 2, limit: 2 });
      expect(responseOf(page2)).toEqual(full.slice(2, 4));
      expect(responseOf(await list('&limit=1&offset=3'))).toEqual(full.slice(3, 4));
      expect(responseOf(await list('&orderby=nonsense&limit=-1'))).toEqual(full);
      expectError(await list('&limit=-2'), 400, 'limit parameter must be bigger than -1');
      expectError(await list('&limit=2&page=0'), 400, 'page parameter must be a positive integer');
      expectError(await list('&limit=2&offset=0'), 400, 'offset parameter must be a positive integer');
      await expectErrors([
        [
          admin.get('deliveryserviceserver?deliveryserviceids=1,x'),
          400,
          "deliveryserviceids query parameter must be a comma-delimited list of integers, got '1,x'",
        ],
        [
          admin.get('deliveryserviceserver?serverids=y'),
          400,
          "serverids query parameter must be a comma-delimited list of integers, got 'y'",
        ],
      ]);
    });

    it('lists only delivery services within the user tenancy', async () => {
      const parentDs = await newDs({ tenantId: parentTenant.id });
      const childDs = await newDs({ tenantId: childTenant.id });
      await assign(admin, parentDs, [edges[0].id]);
      await assign(admin, childDs, [edges[0].id]);
      const ids = `deliveryserviceids=${parentDs},${childDs}&limit=-1`;
      const seen = async (user: CreatedUser) =>
        responseOf<Assignment[]>(await user.client.get(`deliveryserviceserver?${ids}`)).map(
          (r) => r.deliveryService,
        );
      expect(await seen(await createUser(app, admin, 'read-only', parentTenant.id))).toEqual([
        parentDs,
        childDs,
      ]);
      expect(await seen(await createUser(app, admin, 'read-only', childTenant.id))).toEqual([childDs]);
      expect(await seen(await createUser(app, admin, 'read-only', siblingTenant.id))).toEqual([]);
      expect(await seen(await createUser(app, admin, 'read-only', inactiveTenant.id))).toEqual([]);
    });
  });

  describe('DELETE /deliveryserviceserver/{dsId}/{serverId}', () => {
    const remove = (dsId: number | string, serverId: number | string, client = admin) =>
      client.delete(`deliveryserviceserver/${dsId}/${serverId}`);

    it('unlinks a server', async () => {
      const dsId = await newDs();
      await assign(admin, dsId, [edges[0].id, edges[1].id]);
      const res = expectOk(await remove(dsId, edges[0].id));
      expect(res.body).toEqual({
        alerts: [{ text: 'Server unlinked from delivery service.', level: 'success' }],
      });
      expect(await assignedPairs(admin, [dsId])).toEqual([[dsId, edges[1].id]]);
    });

    it("answers the original's errors", async () => {
      const dsId = await newDs({ active: 'INACTIVE' });
      await assign(admin, dsId, [edges[0].id]);
      expectError(
        await remove('x', edges[0].id),
        400,
        "getting integer parameters: parameter 'dsid' not an integer",
      );
      expectError(
        await remove(dsId, 'y'),
        400,
        "getting integer parameters: parameter 'serverid' not an integer",
      );
      expectError(await remove(987654321, edges[0].id), 404, 'no such Delivery Service: #987654321');
      expectError(await remove(dsId, 987654321), 404, 'server not found');
      expectError(await remove(dsId, edges[1].id), 404, 'Not Found');
      expect(await assignedPairs(admin, [dsId])).toEqual([[dsId, edges[0].id]]);
      expect((await remove(dsId, edges[0].id)).status).toBe(200);
    });

    it('refuses to remove the last available EDGE of an active delivery service (409)', async () => {
      const dsId = await newDs();
      await assign(admin, dsId, [edges[0].id, offlineEdge.id]);
      expectError(
        await remove(dsId, edges[0].id),
        409,
        `removing server #${edges[0].id} from active Delivery Service #${dsId} would leave it with no REPORTED/ONLINE EDGE servers`,
      );
      expect((await remove(dsId, offlineEdge.id)).status).toBe(200);
      expect(await assignedPairs(admin, [dsId])).toEqual([[dsId, edges[0].id]]);
    });

    it('applies tenancy', async () => {
      const parentDs = await newDs({ tenantId: parentTenant.id, active: 'INACTIVE' });
      await assign(admin, parentDs, [edges[0].id, edges[1].id]);
      const child = await createUser(app, admin, 'operations', childTenant.id);
      const sibling = await createUser(app, admin, 'operations', siblingTenant.id);
      expectError(await remove(parentDs, edges[0].id, child.client), 403, 'not authorized on this tenant');
      expectError(await remove(parentDs, edges[0].id, sibling.client), 403, 'not authorized on this tenant');
      const parent = await createUser(app, admin, 'operations', parentTenant.id);
      expect((await remove(parentDs, edges[0].id, parent.client)).status).toBe(200);
      expect(await assignedPairs(admin, [parentDs])).toEqual([[parentDs, edges[1].id]]);
    });
  });
});
