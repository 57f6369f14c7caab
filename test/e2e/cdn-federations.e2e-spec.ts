import type { CdnFederationListedWire } from 'src/modules/federations/cdn-federations/cdn-federation.response';
import { responseOf, type Wire } from 'test/e2e/support/api';
import { type CreatedUser, createRole, createTenant, createUser } from 'test/e2e/support/accounts';
import { expectError, expectErrors, expectMalformedJson } from 'test/e2e/support/alerts';
import { expectOk } from 'test/e2e/support/headers';
import { CUSTOM_TIME, timeFormatOn } from 'test/e2e/support/times';
import { insertDeliveryService } from 'test/e2e/support/fixtures/delivery-services';
import type { InsertedDeliveryService } from 'test/e2e/support/fixtures/delivery-services';
import {
  assignFederationDeliveryServices,
  countRows,
  createFederation,
  type FederationResponse,
  uniqueCname,
} from 'test/e2e/support/fixtures/federations';
import { createCdn } from 'test/e2e/support/fixtures/profiles';
import { useApp } from 'test/e2e/support/suite';

type Listed = Wire<CdnFederationListedWire>;

describe('cdns/{name}/federations', () => {
  const { app, admin, readOnly } = useApp({ users: { readOnly: 'read-only' } });
  let cdn: { id: number; name: string };
  let ds: InsertedDeliveryService;
  let childTenant: { id: number; name: string };
  let childDs: InsertedDeliveryService;
  let childAdmin: CreatedUser;

  const path = (cdnName = cdn.name) => `cdns/${cdnName}/federations`;
  const list = async (query = ''): Promise<Listed[]> => {
    const res = await admin.get(`${path()}${query}`);
    expect(res.status).toBe(200);
    return responseOf<Listed[]>(res);
  };
  const stored = (cname: string) => countRows(app, 'federation', 'cname = ?', [cname]);

  beforeAll(async () => {
    cdn = await createCdn(admin);
    ds = await insertDeliveryService(app, cdn.id);
    childTenant = await createTenant(admin);
    childDs = await insertDeliveryService(app, cdn.id, { tenantId: childTenant.id });
    childAdmin = await createUser(app, admin, 'admin', childTenant.id);
  });

  describe('POST', () => {
    it('creates a federation on every version (200, cdnfederation was created.)', async () => {
      for (const version of ['3.0', '4.0', '4.1', '5.0']) {
        const cname = uniqueCname();
        const res = expectOk(
          await admin.at(version).post(path(), { cname, ttl: 68, description: 'd' }),
          'cdnfederation was created.',
        );
        const body = responseOf<FederationResponse>(res);
        expect(body).toEqual({
          id: expect.any(Number),
          cname,
          ttl: 68,
          description: 'd',
          lastUpdated: expect.stringMatching(timeFormatOn(version)),
        });
        expect(Object.keys(body)).toEqual(['id', 'cname', 'ttl', 'description', 'lastUpdated']);
      }
    });

    it('accepts a missing description (null) and a TTL of 0 before 5.0', async () => {
      const cname = uniqueCname();
      const res = await admin.post(path(), { cname, ttl: 0 });
      expect(res.status).toBe(200);
      expect(responseOf<FederationResponse>(res)).toMatchObject({ cname, ttl: 0, description: null });
    });

    it('answers 404 cdn not found for an unknown CDN, writing nothing', async () => {
      const cname = uniqueCname();
      expectError(await admin.post(path('no-such-cdn'), { cname, ttl: 60 }), 404, 'cdn not found');
      expect(await stored(cname)).toBe(0);
    });

    it.each([
      [{ ttl: 60 }, "'cname' cannot be blank"],
      [{ cname: '', ttl: 60 }, "'cname' cannot be blank"],
      [{ cname: 'no-dot.example.com', ttl: 60 }, "'cname' must end with a period"],
      [{ cname: 'bad name.example.com.', ttl: 60 }, "'cname' must be a valid hostname"],
      [{ cname: 5, ttl: 60 }, "'cname' must be a string"],
      [{ cname: 'x.example.com.' }, "'ttl' cannot be blank"],
      [{ cname: 'x.example.com.', ttl: null }, "'ttl' cannot be blank"],
      [{ cname: 'x.example.com.', ttl: -1 }, "'ttl' must be no less than 0"],
      [{ cname: 'x.example.com.', ttl: '60' }, "'ttl' must be an integer"],
      [{ cname: 'x.example.com.', ttl: 1.5 }, "'ttl' must be an integer"],
      [{ cname: 'x.example.com.', ttl: 60, description: 7 }, "'description' must be a string"],
      [{}, "'cname' cannot be blank, 'ttl' cannot be blank"],
    ])('answers 400 for %j', async (body, text) => {
      expectError(await admin.post(path(), body), 400, text);
    });

    it('needs a TTL of at least 60 on 5.0', async () => {
      const cname = uniqueCname();
      expectError(
        await admin.at('5.0').post(path(), { cname, ttl: 59 }),
        400,
        "'ttl' must be no less than 60",
      );
      expect(await stored(cname)).toBe(0);
    });

    it('answers 400 for malformed JSON and for a body that is not an object', async () => {
      const res = await admin.raw('post', path(), '{"cname": ');
      expectMalformedJson(res);
      expect((await admin.post(path(), [1])).status).toBe(400);
    });

    it('names, on 4.0+, the permissions the user lacks; 3.x does not check them', async () => {
      const body = { cname: uniqueCname(), ttl: 60 };
      const role = await createRole(admin, ['CDN:READ']);
      const limited = await createUser(app, admin, role);
      expectError(
        await limited.client.post(path(), body),
        403,
        'missing required Permissions: FEDERATION:CREATE, FEDERATION:READ',
      );
      expect(await stored(body.cname)).toBe(0);
      expect((await limited.client.at('3.0').post(path(), body)).status).toBe(200);
    });
  });

  describe('GET', () => {
    let a: FederationResponse, b: FederationResponse, unassigned: FederationResponse;

    beforeAll(async () => {
      a = await createFederation(admin, cdn.name, { cname: uniqueCname('aaa'), ttl: 61 });
      b = await createFederation(admin, cdn.name, { cname: uniqueCname('bbb'), ttl: 62 });
      unassigned = await createFederation(admin, cdn.name);
      await assignFederationDeliveryServices(admin, a.id, [ds.id]);
      await assignFederationDeliveryServices(admin, b.id, [ds.id, childDs.id]);
    });

    it('lists the federations of the CDN, one entry per delivery service, ordered by cname', async () => {
      const res = expectOk(await readOnly.client.get(path()));
      const federations = responseOf<Listed[]>(res);
      const ours = federations.filter((f) => [a.id, b.id, unassigned.id].includes(f.id));
      expect(ours).toEqual([
        {
          ...a,
          lastUpdated: expect.stringMatching(CUSTOM_TIME),
          deliveryService: { id: ds.id, xmlId: ds.xmlId },
        },
        {
          ...b,
          lastUpdated: expect.stringMatching(CUSTOM_TIME),
          deliveryService: { id: ds.id, xmlId: ds.xmlId },
        },
        {
          ...b,
          lastUpdated: expect.stringMatching(CUSTOM_TIME),
          deliveryService: { id: childDs.id, xmlId: childDs.xmlId },
        },
      ]);
      const cnames = federations.map((f) => f.cname);
      expect(cnames).toEqual([...cnames].sort());
    });

    it('filters by id and cname, orders and pages', async () => {
      expect((await list(`?id=${a.id}`)).map((f) => f.cname)).toEqual([a.cname]);
      expect((await list(`?cname=${b.cname}`)).map((f) => f.id)).toEqual([b.id, b.id]);
      const all = await list('?orderby=ttl');
      const ttls = all.map((f) => f.ttl);
      expect(ttls).toEqual([...ttls].sort((x, y) => x - y));
      const desc = await list('?orderby=cname&sortOrder=desc');
      expect(desc.map((f) => f.cname)).toEqual(
        all
          .map((f) => f.cname)
          .sort()
          .reverse(),
      );
      const full = await list('?orderby=id');
      expect(await list('?orderby=id&limit=1')).toEqual(full.slice(0, 1));
      expect(await list('?orderby=id&limit=1&offset=1')).toEqual(full.slice(1, 2));
      expect(await list('?orderby=id&limit=1&page=2')).toEqual(full.slice(1, 2));
    });

    it('answers 400 for invalid list parameters', async () => {
      await expectErrors([
        [admin.get(`${path()}?limit=-2`), 400, 'limit parameter must be bigger than -1'],
        [admin.get(`${path()}?limit=1&offset=0`), 400, 'offset parameter must be a positive integer'],
        [admin.get(`${path()}?limit=1&page=0`), 400, 'page parameter must be a positive integer'],
        [admin.get(`${path()}?id=x`), 400, 'id cannot parse to integer'],
      ]);
    });

    it('answers 404 cdn not found for an unknown CDN', async () => {
      expectError(await admin.get(path('no-such-cdn')), 404, 'cdn not found');
    });

    it('filters by delivery service tenancy silently', async () => {
      const child = await createUser(app, admin, 'read-only', childTenant.id);
      const seen = responseOf<Listed[]>(await child.client.get(path()));
      expect(seen.map((f) => [f.id, f.deliveryService.id])).toEqual([[b.id, childDs.id]]);
    });

    it('names, on 4.0+, the permissions the user lacks; 3.x does not check them', async () => {
      const role = await createRole(admin, ['CDN:READ']);
      const limited = await createUser(app, admin, role);
      expectError(
        await limited.client.get(path()),
        403,
        'missing required Permissions: FEDERATION:READ, DELIVERY-SERVICE:READ',
      );
      expect((await limited.client.at('3.0').get(path())).status).toBe(200);
    });
  });

  describe('PUT', () => {
    it('updates a federation on every version (cdnfederation was updated.)', async () => {
      const federation = await createFederation(admin, cdn.name);
      for (const version of ['3.0', '4.0', '5.0']) {
        const cname = uniqueCname('upd');
        const res = await admin
          .at(version)
          .put(`${path()}/${federation.id}`, { cname, ttl: 70, description: null });
        expectOk(res, 'cdnfederation was updated.');
        expect(responseOf<FederationResponse>(res)).toEqual({
          id: federation.id,
          cname,
          ttl: 70,
          description: null,
          lastUpdated: expect.stringMatching(timeFormatOn(version)),
        });
        expect(await stored(cname)).toBe(1);
      }
    });

    it('answers the original 4xx texts, changing nothing', async () => {
      const federation = await createFederation(admin, cdn.name);
      const body = { cname: uniqueCname(), ttl: 60 };
      await expectErrors([
        [admin.put(`${path()}/999999999`, body), 404, 'no cdnfederation found with this id'],
        [admin.put(`${path('no-such-cdn')}/${federation.id}`, body), 404, 'cdn not found'],
        [admin.put(`${path()}/x`, body), 400, 'failed to parse key: id'],
        [
          admin.put(`${path()}/${federation.id}`, { ...body, cname: 'nodot' }),
          400,
          "'cname' must end with a period",
        ],
        [
          admin.at('5.0').put(`${path()}/${federation.id}`, { ...body, ttl: 10 }),
          400,
          "'ttl' must be no less than 60",
        ],
      ]);
      expect(await stored(body.cname)).toBe(0);
      expect(await stored(federation.cname)).toBe(1);
    });

    it('refuses a federation assigned to a delivery service outside the user tenancy (403)', async () => {
      const federation = await createFederation(admin, cdn.name);
      await assignFederationDeliveryServices(admin, federation.id, [ds.id]);
      const body = { cname: uniqueCname(), ttl: 60 };
      expectError(
        await childAdmin.client.put(`${path()}/${federation.id}`, body),
        403,
        'not authorized on this tenant',
      );
      expect(await stored(federation.cname)).toBe(1);
      const own = await createFederation(admin, cdn.name);
      await assignFederationDeliveryServices(admin, own.id, [childDs.id]);
      expect((await childAdmin.client.put(`${path()}/${own.id}`, body)).status).toBe(200);
    });
  });

  describe('DELETE', () => {
    it('deletes a federation and its assignments (cdnfederation was deleted.)', async () => {
      const federation = await createFederation(admin, cdn.name);
      await assignFederationDeliveryServices(admin, federation.id, [ds.id]);
      const res = expectOk(await admin.delete(`${path()}/${federation.id}`), 'cdnfederation was deleted.');
      expect(res.body).toEqual({ alerts: [{ text: 'cdnfederation was deleted.', level: 'success' }] });
      expect(await stored(federation.cname)).toBe(0);
      expect(await countRows(app, 'federation_deliveryservice', 'federation = ?', [federation.id])).toBe(0);
      expectError(
        await admin.delete(`${path()}/${federation.id}`),
        404,
        'no cdnfederation with that key found',
      );
    });

    it('answers the original 4xx texts, deleting nothing', async () => {
      const federation = await createFederation(admin, cdn.name);
      await assignFederationDeliveryServices(admin, federation.id, [ds.id]);
      await expectErrors([
        [admin.delete(`${path('no-such-cdn')}/${federation.id}`), 404, 'cdn not found'],
        [admin.delete(`${path()}/x`), 400, 'failed to parse key: id'],
        [childAdmin.client.delete(`${path()}/${federation.id}`), 403, 'not authorized on this tenant'],
      ]);
      const role = await createRole(admin, ['FEDERATION:READ', 'CDN:READ']);
      const limited = await createUser(app, admin, role);
      expectError(
        await limited.client.delete(`${path()}/${federation.id}`),
        403,
        'missing required Permissions: FEDERATION:DELETE',
      );
      expect(await stored(federation.cname)).toBe(1);
    });
  });
});
