import type { INestApplication } from '@nestjs/common';
import { ApiClient, createUser, expectApiHeaders, expectError, responseOf } from 'test/e2e/support/api';
import { createTestApp } from 'test/e2e/support/app';
import { typeIdOf } from 'test/e2e/support/fixtures/cachegroups';
import {
  insertDeliveryService,
  type InsertedDeliveryService,
} from 'test/e2e/support/fixtures/delivery-services';
import {
  assignFederationDeliveryServices,
  createFederation,
  type FederationResponse,
  uniqueIpv4,
  uniqueIpv6,
} from 'test/e2e/support/fixtures/federations';
import { createCdn } from 'test/e2e/support/fixtures/profiles';
import type { AllFederationsCdn } from 'src/modules/federations/all-federations.service';
import type { DeliveryServiceMappings } from 'src/modules/federations/federations.service';

type Entry = AllFederationsCdn | DeliveryServiceMappings;

describe('GET federations/all', () => {
  let app: INestApplication;
  let admin: ApiClient;
  let cdn: { id: number; name: string };
  let otherCdn: { id: number; name: string };
  let ds1: InsertedDeliveryService;
  let ds2: InsertedDeliveryService;
  let ds3: InsertedDeliveryService;
  let fed1: FederationResponse;
  let fed2: FederationResponse;
  let fed3: FederationResponse;
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
    app = await createTestApp();
    admin = await ApiClient.admin(app);
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

  afterAll(async () => {
    await app.close();
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
    const res = await admin.get('federations/all');
    expect(res.status).toBe(200);
    expectApiHeaders(res);
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

  it('is for admins only: operations users get 403', async () => {
    const operations = await createUser(app, admin, 'operations');
    expectError(await operations.client.get('federations/all'), 403, 'Forbidden.');
  });
});
