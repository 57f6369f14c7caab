import type { SteeringEntry } from 'src/modules/steering/dto/steering.response';
import { ApiClient, responseOf } from 'test/e2e/support/api';
import { type CreatedUser, createRole, createUser } from 'test/e2e/support/accounts';
import { expectError } from 'test/e2e/support/alerts';
import { expectOk } from 'test/e2e/support/headers';
import { insertDeliveryService } from 'test/e2e/support/fixtures/delivery-services';
import type { InsertedDeliveryService } from 'test/e2e/support/fixtures/delivery-services';
import { createCdn } from 'test/e2e/support/fixtures/profiles';
import { typeIdOf } from 'test/e2e/support/fixtures/cachegroups';
import { insertDeliveryServiceRegex, insertSteeringTarget } from 'test/e2e/support/fixtures/steering';
import { useApp } from 'test/e2e/support/suite';

const VERSIONS = ['3.0', '3.1', '4.0', '4.1', '5.0'];

describe('GET /steering', () => {
  const { app, admin } = useApp();
  let steering: CreatedUser, portal: CreatedUser, federation: CreatedUser, withoutPermissions: CreatedUser;
  let weighted: InsertedDeliveryService;
  let client: InsertedDeliveryService;
  let noFilters: InsertedDeliveryService;
  let withoutTargets: InsertedDeliveryService;
  let a: InsertedDeliveryService;
  let b: InsertedDeliveryService, c: InsertedDeliveryService, d: InsertedDeliveryService;

  const entries = async (user: ApiClient = steering.client) => {
    const res = await user.get('steering');
    expect(res.status).toBe(200);
    return responseOf<SteeringEntry[]>(res);
  };
  const entryOf = (list: SteeringEntry[], ds: InsertedDeliveryService) =>
    list.find((e) => e.deliveryService === ds.xmlId);

  beforeAll(async () => {
    [steering, portal, federation] = await Promise.all(
      ['steering', 'portal', 'federation'].map((role) => createUser(app, admin, role)),
    );
    withoutPermissions = await createUser(app, admin, await createRole(admin, ['STEERING:READ']));
    const cdnId = (await createCdn(admin)).id;
    const ds = (typeName: string) => insertDeliveryService(app, cdnId, { typeName });
    weighted = await ds('STEERING');
    client = await ds('CLIENT_STEERING');
    noFilters = await ds('STEERING');
    withoutTargets = await ds('STEERING');
    [a, b, c, d] = [await ds('HTTP'), await ds('HTTP'), await ds('HTTP'), await ds('HTTP')];

    await insertSteeringTarget(app, weighted.id, a.id, 'STEERING_WEIGHT', 10);
    await insertSteeringTarget(app, weighted.id, b.id, 'STEERING_ORDER', -2);
    await insertSteeringTarget(app, client.id, a.id, 'STEERING_GEO_ORDER', 3);
    await insertSteeringTarget(app, client.id, c.id, 'STEERING_GEO_WEIGHT', 7);
    await insertSteeringTarget(app, noFilters.id, d.id, 'STEERING_WEIGHT', 1);

    // The filters are the targets' STEERING_REGEXP regexes, ordered by pattern; others are ignored.
    await insertDeliveryServiceRegex(app, a.id, 'b-pattern.*', { setNumber: 0 });
    await insertDeliveryServiceRegex(app, a.id, 'a-pattern.*', { setNumber: 1 });
    await insertDeliveryServiceRegex(app, a.id, '.*\\.host\\..*', { typeName: 'HOST_REGEXP' });
    await insertDeliveryServiceRegex(app, c.id, 'c-pattern', { setNumber: 0 });
    await insertDeliveryServiceRegex(app, weighted.id, 'not-a-target', { setNumber: 0 });
  });

  it('lists every steering delivery service with targets, sorted by xmlId', async () => {
    const res = expectOk(await steering.client.get('steering'));
    const list = responseOf<SteeringEntry[]>(res);
    const names = list.map((e) => e.deliveryService);
    expect(names).toEqual([...names].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0)));
    expect(entryOf(list, withoutTargets)).toBeUndefined();
    expect(Object.keys(res.body as object)).toEqual(['response']);
  });

  it('fills order and weight by target type, with the targets STEERING_REGEXP filters', async () => {
    const list = await entries();
    const targetsByXmlId = [a, b].sort((x, y) => (x.xmlId < y.xmlId ? -1 : 1));
    const targetOf: Record<string, Record<string, unknown>> = {
      [a.xmlId]: { order: 0, weight: 10, deliveryService: a.xmlId },
      [b.xmlId]: { order: -2, weight: 0, deliveryService: b.xmlId },
    };
    const filtersOf: Record<string, { deliveryService: string; pattern: string }[]> = {
      [a.xmlId]: [
        { deliveryService: a.xmlId, pattern: 'a-pattern.*' },
        { deliveryService: a.xmlId, pattern: 'b-pattern.*' },
      ],
      [b.xmlId]: [],
    };
    expect(entryOf(list, weighted)).toEqual({
      deliveryService: weighted.xmlId,
      clientSteering: false,
      targets: targetsByXmlId.map((t) => targetOf[t.xmlId]),
      filters: targetsByXmlId.flatMap((t) => filtersOf[t.xmlId]),
    });
  });

  it('marks CLIENT_STEERING and gives the GEO types a geoOrder (no coordinates: origins have none)', async () => {
    const entry = entryOf(await entries(), client)!;
    expect(entry.clientSteering).toBe(true);
    const geoOrder = { order: 0, weight: 0, deliveryService: a.xmlId, geoOrder: 3 };
    const geoWeight = { order: 0, weight: 7, deliveryService: c.xmlId, geoOrder: 0 };
    expect(entry.targets).toEqual(a.xmlId < c.xmlId ? [geoOrder, geoWeight] : [geoWeight, geoOrder]);
    expect(Object.keys(entry.targets[0])).toEqual(['order', 'weight', 'deliveryService', 'geoOrder']);
    const aFilters = [
      { deliveryService: a.xmlId, pattern: 'a-pattern.*' },
      { deliveryService: a.xmlId, pattern: 'b-pattern.*' },
    ];
    const cFilters = [{ deliveryService: c.xmlId, pattern: 'c-pattern' }];
    expect(entry.filters).toEqual(
      a.xmlId < c.xmlId ? [...aFilters, ...cFilters] : [...cFilters, ...aFilters],
    );
  });

  it('answers filters as [] (never null) when the targets have no steering regex', async () => {
    expect(entryOf(await entries(), noFilters)).toEqual({
      deliveryService: noFilters.xmlId,
      clientSteering: false,
      targets: [{ order: 0, weight: 1, deliveryService: d.xmlId }],
      filters: [],
    });
  });

  it.each(VERSIONS)('answers on %s', async (version) => {
    const list = await entries(steering.client.at(version));
    expect(entryOf(list, weighted)).toBeDefined();
  });

  it('is open to Portal, Federation and admin users (level 15 and up)', async () => {
    for (const user of [portal.client, federation.client, admin]) {
      expect(entryOf(await entries(user), noFilters)).toBeDefined();
    }
  });

  it('refuses, on 4.0, missing permissions', async () => {
    expectError(
      await withoutPermissions.client.get('steering'),
      403,
      'missing required Permissions: DELIVERY-SERVICE:READ',
    );
    expect(entryOf(await entries(withoutPermissions.client.at('3.0')), weighted)).toBeDefined();
  });

  it('follows target changes made through the API', async () => {
    const res = await admin.post(`steering/${withoutTargets.id}/targets`, {
      targetId: c.id,
      value: 5,
      typeId: await typeIdOf(admin, 'STEERING_ORDER'),
    });
    expect(res.status).toBe(200);
    expect(entryOf(await entries(), withoutTargets)).toEqual({
      deliveryService: withoutTargets.xmlId,
      clientSteering: false,
      targets: [{ order: 5, weight: 0, deliveryService: c.xmlId }],
      filters: [{ deliveryService: c.xmlId, pattern: 'c-pattern' }],
    });
  });
});
