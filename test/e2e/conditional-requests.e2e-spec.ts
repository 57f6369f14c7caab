import type { CdnWire } from 'src/modules/cdns/dto/cdn.response';
import { Reflector } from '@nestjs/core';
import { AppModule } from 'src/app.module';
import { ConditionalOn } from 'src/common/conditional/conditional.decorator';
import { routesOfModule } from 'src/common/routes/route-inventory';
import { ApiClient, responseOf, uniqueName, type Wire } from 'test/e2e/support/api';
import { createUser } from 'test/e2e/support/accounts';
import { expectError, expectErrors } from 'test/e2e/support/alerts';
import { createCachegroup } from 'test/e2e/support/fixtures/cachegroups';
import { insertDeliveryService } from 'test/e2e/support/fixtures/delivery-services';
import {
  assignFederationDeliveryServices,
  assignFederationUsers,
  countRows,
  createFederation,
  uniqueIpv4,
} from 'test/e2e/support/fixtures/federations';
import { insertSteeringTarget } from 'test/e2e/support/fixtures/steering';
import { assignParameter, createParameter, createProfile } from 'test/e2e/support/fixtures/profiles';
import { createServer } from 'test/e2e/support/fixtures/servers';
import { createRegion } from 'test/e2e/support/fixtures/topology';
import { useApp } from 'test/e2e/support/suite';

const MODIFIED = 'resource was modified since the time specified by the request headers';
const DAY = 24 * 3600 * 1000;
const httpDate = (offsetMs: number) => new Date(Date.now() + offsetMs).toUTCString();
const etagAt = (ms: number) => `"v1-${(BigInt(ms) * 1_000_000n).toString(36)}"`;
/** The time an ETag names, in milliseconds. */
const msOfEtag = (etag: string): number => {
  const digits = /^"v1-([0-9a-z]+)"$/.exec(etag)?.[1] ?? '';
  const nanos = [...digits].reduce((n, digit) => n * 36n + BigInt(parseInt(digit, 36)), 0n);
  return Number(nanos / 1_000_000n);
};
/** Waits until the clock is between 100 and 700 ms past a whole second. */
const midSecond = async (): Promise<void> => {
  while (Date.now() % 1000 < 100 || Date.now() % 1000 > 700) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

const reflector = new Reflector();
/** The lists (GETs without path parameters) of the controllers and handlers marked @ConditionalOn. */
const conditionalLists = routesOfModule(AppModule).filter(
  (route) =>
    route.method === 'GET' &&
    !route.path.includes(':') &&
    (reflector.get(ConditionalOn, route.handler) ?? reflector.get(ConditionalOn, route.controller)) !==
      undefined,
);

type Cdn = Wire<CdnWire>;

/** Conditional requests as the original serves them (docs/api-conventions.md#conditional-requests). */
describe('conditional requests', () => {
  const { app, admin } = useApp();

  const cdnBody = () => {
    const name = uniqueName('ims-cdn');
    return { name, domainName: `${name}.example.net`, dnssecEnabled: false };
  };
  const createCdn = async (): Promise<Cdn> => responseOf<Cdn>(await admin.post('cdns', cdnBody()));

  describe('If-Modified-Since on lists', () => {
    // First, while most tables are still empty: a table that never held a row has not changed
    // since any date either (docs/decisions.md#d85).
    it('answers 304 to a date in the future on every conditional list, empty tables included (D85)', async () => {
      expect(conditionalLists.map((route) => route.path)).toEqual(
        expect.arrayContaining(['cdns', 'federation_resolvers', 'servers', 'deliveryservices']),
      );
      for (const route of conditionalLists) {
        const res = await admin.get(route.path).set('If-Modified-Since', httpDate(DAY));
        expect([route.path, res.status, res.text]).toEqual([route.path, 304, '']);
        expect(new Date(res.headers['last-modified']).getTime()).toBeLessThanOrEqual(Date.now());
      }
    });

    it('answers 304 with Last-Modified and no body when nothing changed since', async () => {
      await createCdn();
      const res = await admin.get('cdns').set('If-Modified-Since', httpDate(DAY));
      expect(res.status).toBe(304);
      expect(res.text).toBe('');
      expect(new Date(res.headers['last-modified']).getTime()).toBeLessThanOrEqual(Date.now());
    });

    it('answers the list with Last-Modified when something changed since', async () => {
      await createCdn();
      const res = await admin.get('cdns').set('If-Modified-Since', httpDate(-DAY));
      expect(res.status).toBe(200);
      expect(responseOf<Cdn[]>(res).length).toBeGreaterThan(0);
      expect(res.headers['last-modified']).toEqual(expect.any(String));
    });

    it('counts a deletion as a change', async () => {
      const asnClient = admin;
      const cachegroup = await createCachegroup(asnClient);
      const created = await asnClient.post('asns', {
        asn: 2_000_000 + Math.floor(Math.random() * 1e6),
        cachegroupId: cachegroup.id,
      });
      const asn = responseOf<{ id: number }>(created);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const before = new Date(Date.now()).toUTCString();
      expect((await asnClient.get('asns').set('If-Modified-Since', before)).status).toBe(304);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      expect((await asnClient.delete(`asns?id=${asn.id}`)).status).toBe(200);
      expect((await asnClient.get('asns').set('If-Modified-Since', before)).status).toBe(200);
    });

    it("answers a profile's parameters (by id and by name, as t3c asks) 304 until a parameter or link changes", async () => {
      const cdn = responseOf<Cdn>(await admin.post('cdns', cdnBody()));
      const profile = await createProfile(admin, cdn.id);
      const parameter = await createParameter(admin);
      await assignParameter(admin, profile.id, parameter.id);
      const paths = [`profiles/${profile.id}/parameters`, `profiles/name/${profile.name}/parameters`];
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const before = new Date().toUTCString();
      for (const path of paths) {
        expect([path, (await admin.get(path).set('If-Modified-Since', before)).status]).toEqual([path, 304]);
      }
      await new Promise((resolve) => setTimeout(resolve, 1100));
      expect((await admin.put(`parameters/${parameter.id}`, { ...parameter, value: 'changed' })).status).toBe(
        200,
      );
      for (const path of paths) {
        const res = await admin.get(path).set('If-Modified-Since', before);
        expect([path, res.status]).toEqual([path, 200]);
        expect(responseOf<{ value: string }[]>(res).map((p) => p.value)).toEqual(['changed']);
      }
      const after = new Date(Date.now() + 1000).toUTCString();
      await new Promise((resolve) => setTimeout(resolve, 2100));
      expect((await admin.delete(`profileparameters/${profile.id}/${parameter.id}`)).status).toBe(200);
      for (const path of paths) {
        const res = await admin.get(path).set('If-Modified-Since', after);
        expect([path, res.status, responseOf<unknown[]>(res)]).toEqual([path, 200, []]);
      }
    });

    it('ignores a malformed date', async () => {
      expect((await admin.get('cdns').set('If-Modified-Since', 'yesterday')).status).toBe(200);
    });

    it('still needs a session and the permissions', async () => {
      expectError(
        await ApiClient.anonymous(app).get('cdns').set('If-Modified-Since', httpDate(DAY)),
        401,
        'unauthorized, please log in.',
      );
      const readOnly = await createUser(app, admin, 'read-only');
      expect((await readOnly.client.get('types').set('If-Modified-Since', httpDate(DAY))).status).toBe(304);
    });
  });

  describe('If-Unmodified-Since and If-Match on writes', () => {
    it('answers 412 to a PUT when the row changed after the given time, changing nothing', async () => {
      const cdn = await createCdn();
      const changes = cdnBody();
      expectError(
        await admin.put(`cdns/${cdn.id}`, changes).set('If-Unmodified-Since', httpDate(-DAY)),
        412,
        MODIFIED,
      );
      expect(responseOf<Cdn[]>(await admin.get(`cdns?id=${cdn.id}`))[0].name).toBe(cdn.name);
      expect(
        (await admin.put(`cdns/${cdn.id}`, changes).set('If-Unmodified-Since', httpDate(DAY))).status,
      ).toBe(200);
    });

    it('answers 412 to an If-Match ETag older than the row, and accepts the current one', async () => {
      const created = await admin.post('cdns', cdnBody());
      const etag = created.headers.etag;
      expect(etag).toMatch(/^"v1-[0-9a-z]+"$/);
      expect(created.headers['last-modified']).toEqual(expect.any(String));
      const cdn = responseOf<Cdn>(created);
      expectError(
        await admin
          .put(`cdns/${cdn.id}`, cdnBody())
          .set('If-Match', `"v1-${(BigInt(Date.now() - DAY) * 1_000_000n).toString(36)}"`),
        412,
        MODIFIED,
      );
      const updated = await admin.put(`cdns/${cdn.id}`, cdnBody()).set('If-Match', etag);
      expect(updated.status).toBe(200);
    });

    it('answers 412 to a DELETE of a row changed after the given time, deleting nothing', async () => {
      const cdn = await createCdn();
      expectError(
        await admin.delete(`cdns/${cdn.id}`).set('If-Unmodified-Since', httpDate(-DAY)),
        412,
        MODIFIED,
      );
      expect(responseOf<Cdn[]>(await admin.get(`cdns?id=${cdn.id}`))).toHaveLength(1);
    });

    it('applies to the query-id form too (PUT /asns?id=)', async () => {
      const cachegroup = await createCachegroup(admin);
      const number = 3_000_000 + Math.floor(Math.random() * 1e6);
      const asn = responseOf<{ id: number }>(
        await admin.post('asns', { asn: number, cachegroupId: cachegroup.id }),
      );
      expectError(
        await admin
          .put(`asns?id=${asn.id}`, { asn: number + 1, cachegroupId: cachegroup.id })
          .set('If-Unmodified-Since', httpDate(-DAY)),
        412,
        MODIFIED,
      );
      expect(responseOf<{ asn: number }[]>(await admin.get(`asns?id=${asn.id}`))[0].asn).toBe(number);
    });
  });

  describe('preconditions hold against every write, however close', () => {
    it('gives every write a new ETag and refuses the previous one, even within one second', async () => {
      const created = await admin.post('cdns', cdnBody());
      const cdn = responseOf<Cdn>(created);
      const etags = [created.headers.etag];
      for (let i = 0; i < 4; i++) {
        const res = await admin.put(`cdns/${cdn.id}`, cdnBody()).set('If-Match', etags[etags.length - 1]);
        expect(res.status).toBe(200);
        etags.push(res.headers.etag);
      }
      expect(new Set(etags).size).toBe(etags.length);
      const stale = cdnBody();
      for (const etag of etags.slice(0, -1)) {
        await expectErrors([
          [admin.put(`cdns/${cdn.id}`, stale).set('If-Match', etag), 412, MODIFIED],
          [admin.delete(`cdns/${cdn.id}`).set('If-Match', etag), 412, MODIFIED],
        ]);
      }
      expect(responseOf<Cdn[]>(await admin.get(`cdns?id=${cdn.id}`))[0].name).not.toBe(stale.name);
      expect((await admin.put(`cdns/${cdn.id}`, stale).set('If-Match', etags[etags.length - 1])).status).toBe(
        200,
      );
    });

    it('lets exactly one of concurrent PUTs holding one ETag through', async () => {
      const created = await admin.post('cdns', cdnBody());
      const cdn = responseOf<Cdn>(created);
      const bodies = Array.from({ length: 10 }, () => cdnBody());
      const results = await Promise.all(
        bodies.map((body) => admin.put(`cdns/${cdn.id}`, body).set('If-Match', created.headers.etag)),
      );
      expect(results.map((r) => r.status).sort()).toEqual([200, ...Array<number>(9).fill(412)]);
      for (const loser of results.filter((r) => r.status !== 200)) {
        expectError(loser, 412, MODIFIED);
      }
      const winner = bodies[results.findIndex((r) => r.status === 200)];
      expect(responseOf<Cdn[]>(await admin.get(`cdns?id=${cdn.id}`))[0].name).toBe(winner.name);
    });

    it('compares If-Unmodified-Since with the instant it names: a change later in that second is refused', async () => {
      await midSecond();
      const cdn = await createCdn();
      const res = await admin.put(`cdns/${cdn.id}`, cdnBody());
      const second = res.headers['last-modified'];
      // The ETag carries the change to the millisecond; Last-Modified is its whole second.
      const changedAt = msOfEtag(res.headers.etag);
      expect(new Date(second).getTime()).toBe(Math.floor(changedAt / 1000) * 1000);
      const sameSecond = await admin.put(`cdns/${cdn.id}`, cdnBody()).set('If-Unmodified-Since', second);
      if (changedAt % 1000 === 0) {
        // Changed exactly on the whole second (midSecond() makes this all but impossible): not after it.
        expect(sameSecond.status).toBe(200);
      } else {
        expectError(sameSecond, 412, MODIFIED);
      }
      const next = new Date(new Date(second).getTime() + 1000).toUTCString();
      expect((await admin.put(`cdns/${cdn.id}`, cdnBody()).set('If-Unmodified-Since', next)).status).toBe(
        200,
      );
    });

    it('checks If-Match against the row the handler writes when the id is repeated (the first)', async () => {
      const cachegroup = await createCachegroup(admin);
      const number = 4_000_000 + Math.floor(Math.random() * 1e6);
      const asn = responseOf<{ id: number }>(
        await admin.post('asns', { asn: number, cachegroupId: cachegroup.id }),
      );
      const other = await admin.post('asns', { asn: number + 1, cachegroupId: cachegroup.id });
      expectError(
        await admin
          .put(`asns?id=${asn.id}&id=${responseOf<{ id: number }>(other).id}`, {
            asn: number + 2,
            cachegroupId: cachegroup.id,
          })
          .set('If-Match', etagAt(Date.now() - DAY)),
        412,
        MODIFIED,
      );
      expect(responseOf<{ asn: number }[]>(await admin.get(`asns?id=${asn.id}`))[0].asn).toBe(number);
    });
  });

  describe('every PUT and DELETE of one row honours them', () => {
    const stale = { 'If-Unmodified-Since': httpDate(-DAY) };

    it('roles, by name on 4.0 and later and by id on 3.x', async () => {
      const name = uniqueName('role');
      const created = await admin.post('roles', { name, description: 'a role', permissions: ['CDN:READ'] });
      expect(created.status).toBe(200);
      const body = { name, description: 'changed', permissions: ['CDN:READ'] };
      for (const version of ['4.0', '4.1', '5.0']) {
        expectError(await admin.at(version).put(`roles?name=${name}`, body).set(stale), 412, MODIFIED);
        expectError(await admin.at(version).delete(`roles?name=${name}`).set(stale), 412, MODIFIED);
      }
      const [role] = responseOf<{ id: number }[]>(await admin.at('3.0').get(`roles?name=${name}`));
      expectError(
        await admin
          .at('3.0')
          .put(`roles?id=${role.id}`, { name, description: 'changed', privLevel: 10, capabilities: [] })
          .set(stale),
        412,
        MODIFIED,
      );
      expect(
        responseOf<{ description: string }[]>(await admin.get(`roles?name=${name}`))[0].description,
      ).toBe('a role');
      const updated = await admin.put(`roles?name=${name}`, body).set('If-Match', created.headers.etag);
      expect(updated.status).toBe(200);
      expectError(
        await admin.put(`roles?name=${name}`, body).set('If-Match', created.headers.etag),
        412,
        MODIFIED,
      );
      expect((await admin.delete(`roles?name=${name}`).set('If-Match', updated.headers.etag)).status).toBe(
        200,
      );
    });

    it("steering targets, with the original's text", async () => {
      const cdn = await createCdn();
      const steeringDs = await insertDeliveryService(app, cdn.id, { typeName: 'STEERING' });
      const target = await insertDeliveryService(app, cdn.id);
      await insertSteeringTarget(app, steeringDs.id, target.id, 'STEERING_WEIGHT', 5);
      const types = responseOf<{ id: number }[]>(await admin.get('types?name=STEERING_WEIGHT'));
      const path = `steering/${steeringDs.id}/targets/${target.id}`;
      await expectErrors([
        [
          admin.put(path, { targetId: target.id, value: 9, typeId: types[0].id }).set(stale),
          412,
          'resource was modified',
        ],
        [admin.delete(path).set(stale), 412, 'resource was modified'],
      ]);
      expect(responseOf<{ value: number }[]>(await admin.get(path))).toEqual([
        expect.objectContaining({ value: 5 }),
      ]);
    });

    it('regions deleted by name or id', async () => {
      const region = await createRegion(admin);
      await expectErrors([
        [admin.delete(`regions?name=${region.name}`).set(stale), 412, MODIFIED],
        [admin.delete(`regions?id=${region.id}`).set(stale), 412, MODIFIED],
      ]);
      expect(responseOf<unknown[]>(await admin.get(`regions?id=${region.id}`))).toHaveLength(1);
      expect(
        (await admin.delete(`regions?name=${region.name}`).set('If-Unmodified-Since', httpDate(DAY))).status,
      ).toBe(200);
    });

    it('server assignments and profile parameters', async () => {
      const cdn = await createCdn();
      const ds = await insertDeliveryService(app, cdn.id);
      const server = await createServer(admin, cdn.id);
      expect(
        (await admin.post('deliveryserviceserver', { dsId: ds.id, servers: [server.id], replace: false }))
          .status,
      ).toBe(200);
      expectError(
        await admin.delete(`deliveryserviceserver/${ds.id}/${server.id}`).set(stale),
        412,
        MODIFIED,
      );
      expect(
        responseOf<unknown[]>(await admin.get(`deliveryserviceserver?deliveryserviceids=${ds.id}`)),
      ).toHaveLength(1);

      const profile = await createProfile(admin, cdn.id);
      const parameter = await createParameter(admin);
      await assignParameter(admin, profile.id, parameter.id);
      expectError(
        await admin.delete(`profileparameters/${profile.id}/${parameter.id}`).set(stale),
        412,
        MODIFIED,
      );
      expect(
        responseOf<unknown[]>(
          await admin.get(`profileparameters?profileId=${profile.id}&parameterId=${parameter.id}`),
        ),
      ).toHaveLength(1);
    });

    it('federation assignments and resolvers', async () => {
      const cdn = await createCdn();
      const federation = await createFederation(admin, cdn.name);
      const [first, second] = [
        await insertDeliveryService(app, cdn.id),
        await insertDeliveryService(app, cdn.id),
      ];
      await assignFederationDeliveryServices(admin, federation.id, [first.id, second.id]);
      const user = await createUser(app, admin, 'federation');
      await assignFederationUsers(admin, federation.id, [user.id]);
      await expectErrors([
        [admin.delete(`federations/${federation.id}/deliveryservices/${first.id}`).set(stale), 412, MODIFIED],
        [admin.delete(`federations/${federation.id}/users/${user.id}`).set(stale), 412, MODIFIED],
      ]);
      expect(await countRows(app, 'federation_deliveryservice', 'federation = ?', [federation.id])).toBe(2);
      expect(await countRows(app, 'federation_tmuser', 'federation = ?', [federation.id])).toBe(1);

      const types = responseOf<{ id: number }[]>(await admin.get('types?name=RESOLVE4'));
      const resolver = responseOf<{ id: number }>(
        await admin.post('federation_resolvers', { ipAddress: uniqueIpv4(), typeId: types[0].id }),
      );
      expectError(await admin.delete(`federation_resolvers?id=${resolver.id}`).set(stale), 412, MODIFIED);
      expect(await countRows(app, 'federation_resolver', 'id = ?', [resolver.id])).toBe(1);
    });
  });
});
