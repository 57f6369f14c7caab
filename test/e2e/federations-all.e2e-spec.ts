import { DataSource } from 'typeorm';
import { responseOf } from 'test/e2e/support/api';
import { createUser } from 'test/e2e/support/accounts';
import { expectError } from 'test/e2e/support/alerts';
import { expectOk } from 'test/e2e/support/headers';
import { typeIdOf } from 'test/e2e/support/fixtures/cachegroups';
import { insertDeliveryService } from 'test/e2e/support/fixtures/delivery-services';
import type { InsertedDeliveryService } from 'test/e2e/support/fixtures/delivery-services';
import {
  assignFederationDeliveryServices,
  createFederation,
  type FederationResponse,
  uniqueIpv4,
  uniqueIpv6,
} from 'test/e2e/support/fixtures/federations';
import { createCdn } from 'test/e2e/support/fixtures/profiles';
import { useApp } from 'test/e2e/support/suite';
import type { AllFederationsCdn } from 'src/modules/federations/all/all-federations.service';
import type { DeliveryServiceMappings } from 'src/modules/federations/mappings/federations.service';

type Entry = AllFederationsCdn | DeliveryServiceMappings;

const pause = () => new Promise((resolve) => setTimeout(resolve, 1100));

describe('GET federations/all', () => {
  const { app, admin } = useApp();
  let cdn: { id: number; name: string };
  let otherCdn: { id: number; name: string };
  let ds1: InsertedDeliveryService, ds2: InsertedDeliveryService, ds3: InsertedDeliveryService;
  let fed1: FederationResponse, fed2: FederationResponse, fed3: FederationResponse;
  const ips = { a4: uniqueIpv4(), a6: uniqueIpv6(), b4: uniqueIpv4() };

  const createResolver = async (ipAddress: string, type: string): Promise<number> => {
    const res = await admin.post('federation_resolvers', { ipAddress, typeId: await typeIdOf(admin, type) });
    expect(res.status).toBe(200);
    return responseOf<{ id: number }>(res).id;
  };
  const link = async (federationId: number, ids: number[]) => {
    const res = await admin.post(`federations/${federationId}/federation_resolvers`, {
      fedResolverIds: ids,
      replace: true,
    });
    expect(res.status).toBe(200);
  };
  const mine = (entries: Entry[]): Entry[] =>
    entries.filter(
      (entry) => 'cdnName' in entry || [ds1.xmlId, ds2.xmlId, ds3.xmlId].includes(entry.deliveryService),
    );

  beforeAll(async () => {
    cdn = await createCdn(admin);
    otherCdn = await createCdn(admin);
    ds1 = await insertDeliveryService(app, cdn.id, { xmlId: `a-${cdn.name}` });
    ds2 = await insertDeliveryService(app, cdn.id, { xmlId: `b-${cdn.name}` });
    ds3 = await insertDeliveryService(app, otherCdn.id, { xmlId: `c-${cdn.name}` });
    fed1 = await createFederation(admin, cdn.name, { ttl: 60 });
    fed2 = await createFederation(admin, cdn.name, { ttl: 120 });
    fed3 = await createFederation(admin, otherCdn.name, { ttl: 30 });
    await assignFederationDeliveryServices(admin, fed1.id, [ds1.id, ds2.id]);
    await assignFederationDeliveryServices(admin, fed2.id, [ds1.id]);
    await assignFederationDeliveryServices(admin, fed3.id, [ds3.id]);
    await link(fed1.id, [await createResolver(ips.a4, 'RESOLVE4'), await createResolver(ips.a6, 'RESOLVE6')]);
    await link(fed2.id, [await createResolver(ips.b4, 'RESOLVE4')]);
  });

  const expected = (): DeliveryServiceMappings[] => [
    {
      mappings: [
        { ttl: 60, cname: fed1.cname, resolve4: [ips.a4], resolve6: [ips.a6] },
        { ttl: 120, cname: fed2.cname, resolve4: [ips.b4] },
      ],
      deliveryService: ds1.xmlId,
    },
    {
      mappings: [{ ttl: 60, cname: fed1.cname, resolve4: [ips.a4], resolve6: [ips.a6] }],
      deliveryService: ds2.xmlId,
    },
    { mappings: [{ ttl: 30, cname: fed3.cname }], deliveryService: ds3.xmlId },
  ];

  it("answers every CDN's mappings per delivery service, with each federation's resolvers", async () => {
    const res = expectOk(await admin.get('federations/all'));
    expect(mine(responseOf<Entry[]>(res))).toEqual(expected());
  });

  it("answers one CDN's mappings after an entry naming the CDN, with cdnName", async () => {
    const res = await admin.get(`federations/all?cdnName=${cdn.name}`);
    expect(res.status).toBe(200);
    expect(responseOf(res)).toEqual([{ cdnName: cdn.name }, ...expected().slice(0, 2)]);
  });

  it('answers only the entry naming an unknown CDN', async () => {
    expect(responseOf(await admin.get('federations/all?cdnName=no-such-cdn'))).toEqual([
      { cdnName: 'no-such-cdn' },
    ]);
  });

  it('answers the same on every version', async () => {
    for (const version of ['3.0', '4.1', '5.0']) {
      expect(responseOf(await admin.at(version).get(`federations/all?cdnName=${cdn.name}`))).toEqual([
        { cdnName: cdn.name },
        ...expected().slice(0, 2),
      ]);
    }
  });

  /**
   * If-Modified-Since from the last change of every table the answer is built from: federation,
   * federation_deliveryservice, federation_federation_resolver, deliveryservice and cdn
   * (docs/decisions.md#d108), deletions included.
   */
  describe('If-Modified-Since', () => {
    const sql = (query: string, params: unknown[] = []) => app.get(DataSource).query(query, params);

    /** `federations/all` answers 304 for a date just before `change`, and the answer with a later Last-Modified after it. */
    const expectChangeSeen = async (change: () => Promise<void>, path = 'federations/all'): Promise<void> => {
      await pause();
      const before = new Date().toUTCString();
      const unchanged = await admin.get(path).set('If-Modified-Since', before);
      expect([unchanged.status, unchanged.text]).toEqual([304, '']);
      await pause();
      await change();
      const changed = await admin.get(path).set('If-Modified-Since', before);
      expect(changed.status).toBe(200);
      expect(new Date(changed.headers['last-modified']).getTime()).toBeGreaterThan(
        new Date(before).getTime(),
      );
    };

    it('answers 304 without a body when nothing changed since, and to a date in the future (D85)', async () => {
      const future = new Date(Date.now() + 24 * 3600 * 1000).toUTCString();
      for (const path of ['federations/all', `federations/all?cdnName=${cdn.name}`]) {
        for (const version of ['3.0', '4.0', '5.0']) {
          const res = await admin.at(version).get(path).set('If-Modified-Since', future);
          expect([path, version, res.status, res.text]).toEqual([path, version, 304, '']);
          expect(new Date(res.headers['last-modified']).getTime()).toBeLessThanOrEqual(Date.now());
        }
      }
      const res = await admin
        .get('federations/all')
        .set('If-Modified-Since', 'Sat, 01 Jan 2000 00:00:00 GMT');
      expect(res.status).toBe(200);
      expect(mine(responseOf<Entry[]>(res))).toEqual(expected());
    });

    it('still needs the admin level', async () => {
      const operations = await createUser(app, admin, 'operations');
      const future = new Date(Date.now() + 24 * 3600 * 1000).toUTCString();
      expectError(
        await operations.client.get('federations/all').set('If-Modified-Since', future),
        403,
        'Forbidden.',
      );
    });

    it('answers 200 after a federation is changed, and after one is deleted', async () => {
      const federation = await createFederation(admin, otherCdn.name);
      await assignFederationDeliveryServices(admin, federation.id, [ds3.id]);
      await expectChangeSeen(async () => {
        const res = await admin.put(`cdns/${otherCdn.name}/federations/${federation.id}`, {
          cname: federation.cname,
          ttl: 90,
          description: 'changed',
        });
        expect(res.status).toBe(200);
      });
      await expectChangeSeen(async () => {
        expect((await admin.delete(`cdns/${otherCdn.name}/federations/${federation.id}`)).status).toBe(200);
      });
    });

    it('answers 200 after a delivery service is assigned to a federation, and after one is removed', async () => {
      const federation = await createFederation(admin, otherCdn.name);
      await assignFederationDeliveryServices(admin, federation.id, [ds3.id]);
      const extra = await insertDeliveryService(app, otherCdn.id);
      await expectChangeSeen(async () => {
        await assignFederationDeliveryServices(admin, federation.id, [extra.id], false);
      });
      await expectChangeSeen(async () => {
        const res = await admin.delete(`federations/${federation.id}/deliveryservices/${extra.id}`);
        expect(res.status).toBe(200);
      });
    });

    it("answers 200 after a resolver is linked to a federation, and after the link goes with the resolver's deletion", async () => {
      const federation = await createFederation(admin, otherCdn.name);
      await assignFederationDeliveryServices(admin, federation.id, [ds3.id]);
      const ip = uniqueIpv4();
      const resolver = await createResolver(ip, 'RESOLVE4');
      await expectChangeSeen(async () => {
        await link(federation.id, [resolver]);
      });
      const linked = mine(responseOf<Entry[]>(await admin.get('federations/all')));
      expect(JSON.stringify(linked)).toContain(ip);
      // Deleting the resolver removes the link (ON DELETE CASCADE): the link's table counts as changed.
      await expectChangeSeen(async () => {
        expect((await admin.delete(`federation_resolvers?id=${resolver}`)).status).toBe(200);
      });
      const unlinked = mine(responseOf<Entry[]>(await admin.get('federations/all')));
      expect(JSON.stringify(unlinked)).not.toContain(ip);
    });

    it('answers 200 for a CDN after one of its delivery services moved to another CDN', async () => {
      const moving = await insertDeliveryService(app, otherCdn.id);
      const federation = await createFederation(admin, otherCdn.name);
      await assignFederationDeliveryServices(admin, federation.id, [moving.id]);
      const third = await createCdn(admin);
      const path = `federations/all?cdnName=${third.name}`;
      expect(responseOf(await admin.get(path))).toEqual([{ cdnName: third.name }]);
      await expectChangeSeen(async () => {
        await sql('UPDATE deliveryservice SET cdn_id = ? WHERE id = ?', [third.id, moving.id]);
      }, path);
      expect(responseOf(await admin.get(path))).toEqual([
        { cdnName: third.name },
        { mappings: [{ ttl: federation.ttl, cname: federation.cname }], deliveryService: moving.xmlId },
      ]);
    });

    it('answers 200 after a CDN is changed, and after one is deleted', async () => {
      const spare = await createCdn(admin);
      await expectChangeSeen(async () => {
        const res = await admin.put(`cdns/${spare.id}`, {
          name: spare.name,
          domainName: `changed-${spare.name}.example.net`,
          dnssecEnabled: false,
        });
        expect(res.status).toBe(200);
      });
      await expectChangeSeen(async () => {
        expect((await admin.delete(`cdns/${spare.id}`)).status).toBe(200);
      });
    });
  });
});
