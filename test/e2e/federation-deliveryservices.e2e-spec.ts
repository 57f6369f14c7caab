import { responseOf } from 'test/e2e/support/api';
import { createRole, createUser } from 'test/e2e/support/accounts';
import { expectError, expectErrors, expectMalformedJson, expectSuccessAlert } from 'test/e2e/support/alerts';
import { expectOk } from 'test/e2e/support/headers';
import { insertDeliveryService } from 'test/e2e/support/fixtures/delivery-services';
import type { InsertedDeliveryService } from 'test/e2e/support/fixtures/delivery-services';
import { assignFederationDeliveryServices, createFederation } from 'test/e2e/support/fixtures/federations';
import type { FederationResponse } from 'test/e2e/support/fixtures/federations';
import { createCdn } from 'test/e2e/support/fixtures/profiles';
import { useApp } from 'test/e2e/support/suite';

interface FedDs {
  id: number;
  cdn: string;
  type: string;
  xmlId: string;
}

describe('federations/{id}/deliveryservices', () => {
  const { app, admin, readOnly } = useApp({ users: { readOnly: 'read-only' } });
  let cdn: { id: number; name: string };
  let dses: InsertedDeliveryService[];

  const path = (id: number) => `federations/${id}/deliveryservices`;
  const assigned = async (id: number, query = ''): Promise<FedDs[]> => {
    const res = await admin.get(`${path(id)}${query}`);
    expect(res.status).toBe(200);
    return responseOf<FedDs[]>(res);
  };
  const ids = async (id: number) => (await assigned(id, '?orderby=dsID')).map((d) => d.id);

  beforeAll(async () => {
    cdn = await createCdn(admin);
    dses = [];
    for (const typeName of ['HTTP', 'DNS', 'HTTP', 'HTTP']) {
      dses.push(await insertDeliveryService(app, cdn.id, { typeName }));
    }
  });

  describe('POST', () => {
    let federation: FederationResponse;

    beforeEach(async () => {
      federation = await createFederation(admin, cdn.name);
    });

    it('assigns delivery services on every version and echoes the request', async () => {
      for (const version of ['3.0', '4.0', '5.0']) {
        const res = await admin
          .at(version)
          .post(path(federation.id), { dsIds: [dses[0].id, dses[1].id], replace: true });
        expectOk(res, `2 delivery service(s) were assigned to the federation ${federation.id}`);
        expect(responseOf(res)).toEqual({ dsIds: [dses[0].id, dses[1].id], replace: true });
      }
      expect(await ids(federation.id)).toEqual([dses[0].id, dses[1].id]);
    });

    it('adds to the existing assignments without replace, echoing replace null when absent', async () => {
      await assignFederationDeliveryServices(admin, federation.id, [dses[0].id]);
      const res = await admin.post(path(federation.id), { dsIds: [dses[2].id] });
      expectSuccessAlert(res, `1 delivery service(s) were assigned to the federation ${federation.id}`);
      expect(responseOf(res)).toEqual({ dsIds: [dses[2].id], replace: null });
      expect(await ids(federation.id)).toEqual([dses[0].id, dses[2].id]);
    });

    it('fails the whole request on an existing assignment without replace, writing nothing', async () => {
      await assignFederationDeliveryServices(admin, federation.id, [dses[0].id]);
      expectError(
        await admin.post(path(federation.id), { dsIds: [dses[1].id, dses[0].id], replace: false }),
        400,
        `federation_deliveryservice federation, deliveryservice '${federation.id}, ${dses[0].id}' already exists.`,
      );
      expect(await ids(federation.id)).toEqual([dses[0].id]);
      expectError(
        await admin.post(path(federation.id), { dsIds: [dses[2].id, dses[2].id] }),
        400,
        `federation_deliveryservice federation, deliveryservice '${federation.id}, ${dses[2].id}' already exists.`,
      );
      expect(await ids(federation.id)).toEqual([dses[0].id]);
    });

    it('replaces the existing assignments with replace', async () => {
      await assignFederationDeliveryServices(admin, federation.id, [dses[0].id, dses[1].id]);
      const res = await admin.post(path(federation.id), { dsIds: [dses[1].id, dses[2].id], replace: true });
      expect(res.status).toBe(200);
      expect(await ids(federation.id)).toEqual([dses[1].id, dses[2].id]);
    });

    it('refuses replace with no delivery service, keeping the assignments', async () => {
      await assignFederationDeliveryServices(admin, federation.id, [dses[0].id]);
      expectError(
        await admin.post(path(federation.id), { dsIds: [], replace: true }),
        400,
        'A federation must have at least one delivery service assigned',
      );
      expect(await ids(federation.id)).toEqual([dses[0].id]);
    });

    it('answers 404 for an unknown delivery service or federation, writing nothing', async () => {
      await assignFederationDeliveryServices(admin, federation.id, [dses[0].id]);
      expectError(
        await admin.post(path(federation.id), { dsIds: [dses[1].id, 999999999], replace: true }),
        404,
        'deliveryservice not found',
      );
      expect(await ids(federation.id)).toEqual([dses[0].id]);
      await expectErrors([
        [admin.post(path(999999999), { dsIds: [dses[0].id] }), 404, 'federation 999999999 not found'],
        [admin.post(path(999999999), { bad: 1 }), 404, 'federation 999999999 not found'],
      ]);
    });

    it.each([
      [{ replace: true }, 'parse error: validating: dsIds: is required.'],
      [{ dsIds: 'x' }, 'parse error: decoding: dsIds must be an array of integers'],
      [{ dsIds: ['1'] }, 'parse error: decoding: dsIds must be an array of integers'],
      [{ dsIds: [1], replace: 'yes' }, 'parse error: decoding: replace must be a boolean'],
      [[1], 'parse error: decoding: the request body must be a JSON object'],
    ])('answers 400 for %j', async (body, text) => {
      await assignFederationDeliveryServices(admin, federation.id, [dses[0].id]);
      expectError(await admin.post(path(federation.id), body), 400, text);
      expect(await ids(federation.id)).toEqual([dses[0].id]);
    });

    it('answers 400 for malformed JSON and a bad id', async () => {
      const res = await admin.raw('post', path(federation.id), '{"dsIds": [');
      expectMalformedJson(res);
      expectError(
        await admin.post('federations/x/deliveryservices', { dsIds: [1] }),
        400,
        "getting integer parameters: parameter 'id' not an integer",
      );
    });

    it('names, on 4.0+, the permissions the user lacks; 3.x does not check them', async () => {
      const body = { dsIds: [dses[0].id], replace: true };
      const role = await createRole(admin, ['FEDERATION:READ', 'DELIVERY-SERVICE:READ']);
      const limited = await createUser(app, admin, role);
      expectError(
        await limited.client.post(path(federation.id), body),
        403,
        'missing required Permissions: FEDERATION:UPDATE, DELIVERY-SERVICE:UPDATE',
      );
      expect(await ids(federation.id)).toEqual([]);
      expect((await limited.client.at('3.0').post(path(federation.id), body)).status).toBe(200);
    });
  });

  describe('GET', () => {
    let federation: FederationResponse;

    beforeAll(async () => {
      federation = await createFederation(admin, cdn.name);
      await assignFederationDeliveryServices(admin, federation.id, [dses[3].id, dses[1].id, dses[0].id]);
    });

    it('lists the assigned delivery services ordered by xmlId', async () => {
      const res = expectOk(await readOnly.client.get(path(federation.id)));
      const expected = [dses[3], dses[1], dses[0]]
        .map((d, i) => ({ id: d.id, cdn: cdn.name, type: i === 1 ? 'DNS' : 'HTTP', xmlId: d.xmlId }))
        .sort((a, b) => (a.xmlId < b.xmlId ? -1 : 1));
      const listed = responseOf<FedDs[]>(res);
      expect(listed).toEqual(expected);
      expect(Object.keys(listed[0])).toEqual(['id', 'cdn', 'type', 'xmlId']);
    });

    it('filters by dsID, sorts by dsID and pages', async () => {
      expect((await assigned(federation.id, `?dsID=${dses[1].id}`)).map((d) => d.id)).toEqual([dses[1].id]);
      const asc = [dses[0].id, dses[1].id, dses[3].id];
      expect(await ids(federation.id)).toEqual(asc);
      expect((await assigned(federation.id, '?orderby=dsID&sortOrder=desc')).map((d) => d.id)).toEqual(
        [...asc].reverse(),
      );
      expect((await assigned(federation.id, '?orderby=dsID&limit=1')).map((d) => d.id)).toEqual([asc[0]]);
      expect((await assigned(federation.id, '?orderby=dsID&limit=1&offset=1')).map((d) => d.id)).toEqual([
        asc[1],
      ]);
      expect((await assigned(federation.id, '?orderby=dsID&limit=1&page=2')).map((d) => d.id)).toEqual([
        asc[1],
      ]);
    });

    it('answers 400 for invalid list parameters', async () => {
      await expectErrors([
        [admin.get(`${path(federation.id)}?limit=-2`), 400, 'limit parameter must be bigger than -1'],
        [
          admin.get(`${path(federation.id)}?limit=1&offset=0`),
          400,
          'offset parameter must be a positive integer',
        ],
        [
          admin.get(`${path(federation.id)}?limit=1&page=0`),
          400,
          'page parameter must be a positive integer',
        ],
        [admin.get(`${path(federation.id)}?dsID=x`), 400, 'dsID cannot parse to integer'],
      ]);
    });

    it('answers 200 [] for an unknown federation', async () => {
      expect(await assigned(999999999)).toEqual([]);
    });

    it('names, on 4.0+, the permissions the user lacks; 3.x does not check them', async () => {
      const role = await createRole(admin, ['FEDERATION:READ']);
      const limited = await createUser(app, admin, role);
      expectError(
        await limited.client.get(path(federation.id)),
        403,
        'missing required Permissions: DELIVERY-SERVICE:READ',
      );
      expect((await limited.client.at('3.0').get(path(federation.id))).status).toBe(200);
    });
  });

  describe('DELETE', () => {
    it('removes one assignment (federation deliveryservice was deleted.)', async () => {
      const federation = await createFederation(admin, cdn.name);
      await assignFederationDeliveryServices(admin, federation.id, [dses[0].id, dses[1].id]);
      const res = expectOk(
        await admin.delete(`${path(federation.id)}/${dses[0].id}`),
        'federation deliveryservice was deleted.',
      );
      expect(res.body).toEqual({
        alerts: [{ text: 'federation deliveryservice was deleted.', level: 'success' }],
      });
      expect(await ids(federation.id)).toEqual([dses[1].id]);
    });

    it('never removes the last one, nor an unassigned one', async () => {
      const federation = await createFederation(admin, cdn.name);
      await assignFederationDeliveryServices(admin, federation.id, [dses[0].id]);
      expectError(
        await admin.delete(`${path(federation.id)}/${dses[0].id}`),
        400,
        'a federation must have at least one delivery service assigned',
      );
      await assignFederationDeliveryServices(admin, federation.id, [dses[0].id, dses[1].id]);
      expectError(
        await admin.delete(`${path(federation.id)}/${dses[2].id}`),
        400,
        `delivery service ${dses[2].id} is not associated with federation ${federation.id}`,
      );
      expect(await ids(federation.id)).toEqual([dses[0].id, dses[1].id]);
      const empty = await createFederation(admin, cdn.name);
      expectError(
        await admin.delete(`${path(empty.id)}/${dses[0].id}`),
        404,
        `federation ${empty.id} not found`,
      );
      await expectErrors([
        [admin.delete(`${path(999999999)}/${dses[0].id}`), 404, 'federation 999999999 not found'],
        [
          admin.delete(`${path(federation.id)}/x`),
          400,
          "getting integer parameters: parameter 'dsID' not an integer",
        ],
      ]);
    });
  });
});
