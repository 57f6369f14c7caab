import type { SteeringTargetWire } from 'src/modules/steering/dto/steering-target.response';
import { ApiClient, responseOf } from 'test/e2e/support/api';
import { type CreatedUser, createRole, createTenant, createUser } from 'test/e2e/support/accounts';
import { expectError, expectErrors, expectMalformedJson, expectSuccessAlert } from 'test/e2e/support/alerts';
import { expectOk } from 'test/e2e/support/headers';
import { insertDeliveryService } from 'test/e2e/support/fixtures/delivery-services';
import type { InsertedDeliveryService } from 'test/e2e/support/fixtures/delivery-services';
import { createCdn } from 'test/e2e/support/fixtures/profiles';
import { typeIdOf } from 'test/e2e/support/fixtures/cachegroups';
import { steeringTargetRows } from 'test/e2e/support/fixtures/steering';
import { useApp } from 'test/e2e/support/suite';

const VERSIONS = ['3.0', '3.1', '4.0', '4.1', '5.0'];

describe('steering/{id}/targets', () => {
  const { app, admin } = useApp();
  let readOnly: CreatedUser;
  let steering: CreatedUser;
  let portal: CreatedUser, federation: CreatedUser, otherTenant: CreatedUser, withoutPermissions: CreatedUser;
  let cdnId: number;
  let ds: InsertedDeliveryService, clientDs: InsertedDeliveryService, httpDs: InsertedDeliveryService;
  let targets: InsertedDeliveryService[];
  const types: Record<string, number> = {};

  const newDs = (typeName = 'HTTP') => insertDeliveryService(app, cdnId, { typeName });
  const targetsOf = (id: number) => steeringTargetRows(app, id);
  const path = (id: number | string, target?: number | string) =>
    target === undefined ? `steering/${id}/targets` : `steering/${id}/targets/${target}`;
  const expected = (
    steeringDs: InsertedDeliveryService,
    target: InsertedDeliveryService,
    type: string,
    value: number,
  ) => ({
    deliveryService: steeringDs.xmlId,
    deliveryServiceId: steeringDs.id,
    target: target.xmlId,
    targetId: target.id,
    type,
    typeId: types[type],
    value,
  });

  beforeAll(async () => {
    [readOnly, steering, portal, federation] = await Promise.all(
      ['read-only', 'steering', 'portal', 'federation'].map((role) => createUser(app, admin, role)),
    );
    const tenant = await createTenant(admin);
    otherTenant = await createUser(app, admin, 'admin', tenant.id);
    withoutPermissions = await createUser(app, admin, await createRole(admin, ['STEERING:READ']));
    cdnId = (await createCdn(admin)).id;
    ds = await newDs('STEERING');
    clientDs = await newDs('CLIENT_STEERING');
    httpDs = await newDs('HTTP');
    targets = [];
    for (let i = 0; i < 4; i++) {
      targets.push(await newDs());
    }
    for (const name of [
      'STEERING_WEIGHT',
      'STEERING_ORDER',
      'STEERING_GEO_ORDER',
      'STEERING_GEO_WEIGHT',
      'HTTP',
    ]) {
      types[name] = await typeIdOf(admin, name);
    }
  });

  describe('POST', () => {
    it('creates a target as a steering user, answering the joined row', async () => {
      const res = await steering.client.post(path(ds.id), {
        targetId: targets[0].id,
        value: 42,
        typeId: types.STEERING_WEIGHT,
      });
      expectOk(res, 'steeringtarget was created.');
      expect(responseOf(res)).toEqual(expected(ds, targets[0], 'STEERING_WEIGHT', 42));
      expect(Object.keys(responseOf(res))).toEqual([
        'deliveryService',
        'deliveryServiceId',
        'target',
        'targetId',
        'type',
        'typeId',
        'value',
      ]);
      expect(await targetsOf(ds.id)).toEqual([
        { target: targets[0].id, value: 42, type: types.STEERING_WEIGHT },
      ]);
    });

    it.each(VERSIONS)('creates and deletes on %s, answering 200 (D2)', async (version) => {
      const client = portal.client.at(version);
      const res = await client.post(path(clientDs.id), {
        targetId: targets[3].id,
        value: '17',
        typeId: types.STEERING_GEO_ORDER,
      });
      expectSuccessAlert(res, 'steeringtarget was created.');
      expect(responseOf(res)).toEqual(expected(clientDs, targets[3], 'STEERING_GEO_ORDER', 17));
      const removed = await client.delete(path(clientDs.id, targets[3].id));
      expectSuccessAlert(removed, 'steeringtarget was deleted.');
      expect(removed.body).toEqual({ alerts: [{ text: 'steeringtarget was deleted.', level: 'success' }] });
      expect(await targetsOf(clientDs.id)).toEqual([]);
    });

    it('lets portal and federation users (level 15) create', async () => {
      for (const [user, target] of [
        [portal, targets[1]],
        [federation, targets[2]],
      ] as const) {
        const res = await user.client.post(path(clientDs.id), {
          targetId: target.id,
          value: -3,
          typeId: types.STEERING_ORDER,
        });
        expectSuccessAlert(res, 'steeringtarget was created.');
      }
      expect((await targetsOf(clientDs.id)).map((t) => t.target)).toEqual([targets[1].id, targets[2].id]);
      for (const target of [targets[1], targets[2]]) {
        expect((await admin.delete(path(clientDs.id, target.id))).status).toBe(200);
      }
    });

    describe('refusals write nothing', () => {
      let before: Awaited<ReturnType<typeof targetsOf>>;
      beforeEach(async () => {
        before = await targetsOf(ds.id);
      });
      afterEach(async () => {
        expect(await targetsOf(ds.id)).toEqual(before);
      });

      const post = (body: unknown, client = admin, id: number | string = ds.id) =>
        client.post(path(id), body);

      it('missing typeId and value, joined with "; "', async () => {
        expectError(await post({ targetId: targets[1].id }), 400, 'missing typeId; missing value');
        expectError(await post({}), 400, 'missing typeId; missing value');
        expectError(
          await post({ targetId: targets[1].id, typeId: types.STEERING_ORDER }),
          400,
          'missing value',
        );
        expectError(await post({ targetId: targets[1].id, value: 1, typeId: null }), 400, 'missing typeId');
      });

      it('a type that is not a steering_target type, or no type at all', async () => {
        expectError(
          await post({ targetId: targets[1].id, value: 1, typeId: types.HTTP }),
          400,
          'type is not a valid steering_target type',
        );
        expectError(
          await post({ targetId: targets[1].id, typeId: types.HTTP }),
          400,
          'type is not a valid steering_target type; missing value',
        );
        expectError(
          await post({ targetId: targets[1].id, value: 1, typeId: 99999999 }),
          400,
          'type not found',
        );
      });

      it('a missing target', async () => {
        expectError(await post({ value: 1, typeId: types.STEERING_ORDER }), 400, 'missing target');
      });

      it('wrong JSON types, arrays and malformed JSON', async () => {
        const valid = { targetId: targets[1].id, value: 1, typeId: types.STEERING_ORDER };
        expectError(await post({ ...valid, typeId: 'x' }), 400, "'typeId' must be an integer");
        expectError(await post({ ...valid, targetId: 1.5 }), 400, "'targetId' must be an integer");
        expectError(await post({ ...valid, value: true }), 400, "'value' must be an integer");
        expectError(await post({ ...valid, value: '1x' }), 400, "'value' must be an integer");
        expectError(
          await post({ ...valid, value: 2 ** 60 }),
          400,
          "'value' must be no greater than 9007199254740991",
        );
        expectError(await post([valid]), 400, 'the request body must be a JSON object');
        const malformed = await admin.raw('post', path(ds.id), '{"targetId": ');
        expectMalformedJson(malformed);
      });

      it('an unknown or non-integer steering delivery service', async () => {
        const body = { targetId: targets[1].id, value: 1, typeId: types.STEERING_ORDER };
        expectError(await post(body, admin, 99999999), 404, 'delivery service 99999999 not found');
        expectError(await post(body, admin, 'abc'), 400, 'delivery service ID must be an integer');
      });

      it('(D120) accepts a target on a delivery service of any type, as the original does', async () => {
        const body = { targetId: targets[1].id, value: 1, typeId: types.STEERING_ORDER };
        const res = await post(body, admin, httpDs.id);
        expect(res.status).toBe(200);
        expect(await targetsOf(httpDs.id)).toHaveLength(1);
        expect((await admin.delete(path(httpDs.id, targets[1].id))).status).toBe(200);
        expect(await targetsOf(httpDs.id)).toEqual([]);
      });

      it('an unknown target delivery service (foreign key, 404)', async () => {
        expectError(
          await post({ targetId: 99999999, value: 1, typeId: types.STEERING_ORDER }),
          404,
          'deliveryservice not found',
        );
      });

      it('ids beyond the 32-bit id columns (400 naming the field)', async () => {
        expectError(
          await post({ targetId: 99999999999, value: 1, typeId: types.STEERING_ORDER }),
          400,
          "'targetId' must be no greater than 2147483647",
        );
        expectError(
          await post({ targetId: targets[1].id, value: 1, typeId: 2 ** 53 + 2 }),
          400,
          "'typeId' must be no greater than 2147483647",
        );
      });

      it('a target the delivery service already has (unique index, 400)', async () => {
        expectError(
          await post({ targetId: targets[0].id, value: 1, typeId: types.STEERING_ORDER }),
          400,
          `steering_target deliveryservice, target '${ds.id}, ${targets[0].id}' already exists.`,
        );
      });

      it('a steering delivery service outside the user tenancy (403)', async () => {
        expectError(
          await post({ targetId: targets[1].id, value: 1, typeId: types.STEERING_ORDER }, otherTenant.client),
          403,
          'not authorized on this tenant',
        );
      });

      it('names, on 4.0, the permissions the user lacks', async () => {
        const body = { targetId: targets[1].id, value: 1, typeId: types.STEERING_ORDER };
        expectError(
          await post(body, withoutPermissions.client),
          403,
          'missing required Permissions: STEERING:CREATE, DELIVERY-SERVICE:READ, TYPE:READ',
        );
      });
    });

    it('on 3.0 the role without permissions is allowed by its level', async () => {
      const res = await withoutPermissions.client
        .at('3.0')
        .post(path(ds.id), { targetId: targets[1].id, value: 5, typeId: types.STEERING_ORDER });
      expectSuccessAlert(res, 'steeringtarget was created.');
      expect((await admin.delete(path(ds.id, targets[1].id))).status).toBe(200);
    });
  });

  describe('GET', () => {
    let listDs: InsertedDeliveryService;
    let t: InsertedDeliveryService[];

    beforeAll(async () => {
      listDs = await newDs('STEERING');
      t = [];
      for (let i = 0; i < 3; i++) {
        t.push(await newDs());
      }
      // xmlIds are random: the default order (target xmlId) is checked against a sort.
      const values = [30, 10, 20];
      for (let i = 0; i < 3; i++) {
        const res = await admin.post(path(listDs.id), {
          targetId: t[i].id,
          value: values[i],
          typeId: i === 1 ? types.STEERING_ORDER : types.STEERING_WEIGHT,
        });
        expect(res.status).toBe(200);
      }
    });

    const list = async (query = '', client = readOnly.client) => {
      const res = await client.get(`${path(listDs.id)}${query}`);
      expect(res.status).toBe(200);
      return responseOf<SteeringTargetWire[]>(res);
    };

    it('lists the targets ordered by target xmlId, for read-only users too', async () => {
      const res = expectOk(await readOnly.client.get(path(listDs.id)));
      const rows = responseOf<SteeringTargetWire[]>(res);
      const sorted = [...t].sort((a, b) => (a.xmlId < b.xmlId ? -1 : 1));
      expect(rows.map((r) => r.target)).toEqual(sorted.map((x) => x.xmlId));
      expect(rows.find((r) => r.targetId === t[1].id)).toEqual(expected(listDs, t[1], 'STEERING_ORDER', 10));
      expect(res.body).toEqual({ response: rows });
    });

    it.each(VERSIONS)('answers on %s', async (version) => {
      expect(await list('', readOnly.client.at(version))).toHaveLength(3);
    });

    it('filters by target id (the original key) and by the response fields', async () => {
      expect(await list(`?target=${t[2].id}`)).toEqual([expected(listDs, t[2], 'STEERING_WEIGHT', 20)]);
      expect(await list(`?targetId=${t[0].id}`)).toEqual([expected(listDs, t[0], 'STEERING_WEIGHT', 30)]);
      expect((await list(`?type=STEERING_ORDER`)).map((r) => r.targetId)).toEqual([t[1].id]);
      expect((await list(`?value=20`)).map((r) => r.targetId)).toEqual([t[2].id]);
      expect(await list(`?target=99999999`)).toEqual([]);
    });

    it('orders and pages', async () => {
      expect((await list('?orderby=value')).map((r) => r.value)).toEqual([10, 20, 30]);
      expect((await list('?orderby=value&sortOrder=desc')).map((r) => r.value)).toEqual([30, 20, 10]);
      expect((await list('?orderby=value&limit=1&offset=1')).map((r) => r.value)).toEqual([20]);
      expect((await list('?orderby=value&limit=2&page=2')).map((r) => r.value)).toEqual([30]);
      expect((await list('?orderby=nonsense')).map((r) => r.target)).toEqual(
        (await list()).map((r) => r.target),
      );
    });

    it('refuses bad list parameters and ids', async () => {
      await expectErrors([
        [admin.get(`${path(listDs.id)}?limit=-2`), 400, 'limit parameter must be bigger than -1'],
        [
          admin.get(`${path(listDs.id)}?limit=1&offset=0`),
          400,
          'offset parameter must be a positive integer',
        ],
        [admin.get(`${path(listDs.id)}?limit=1&page=0`), 400, 'page parameter must be a positive integer'],
        [admin.get(`${path(listDs.id)}?target=abc`), 400, 'target cannot parse to integer'],
        [admin.get(path('abc')), 400, 'deliveryservice cannot parse to integer'],
      ]);
    });

    it('answers an empty list for an unknown delivery service or one outside the tenancy', async () => {
      expect(responseOf(await admin.get(path(99999999)))).toEqual([]);
      expect(await list('', otherTenant.client)).toEqual([]);
    });

    it('GET steering/{id}/targets/{targetId} answers the one target as an array', async () => {
      const res = expectOk(await readOnly.client.get(path(listDs.id, t[1].id)));
      expect(responseOf(res)).toEqual([expected(listDs, t[1], 'STEERING_ORDER', 10)]);
      expect(responseOf(await admin.get(path(listDs.id, 99999999)))).toEqual([]);
      expect(responseOf(await otherTenant.client.get(path(listDs.id, t[1].id)))).toEqual([]);
      await expectErrors([
        [admin.get(path(listDs.id, 'x')), 400, 'target cannot parse to integer'],
        [admin.get(path('x', t[1].id)), 400, 'deliveryservice cannot parse to integer'],
      ]);
      for (const version of VERSIONS) {
        expect(responseOf(await admin.at(version).get(path(listDs.id, t[1].id)))).toHaveLength(1);
      }
    });

    it('names, on 4.0, the permissions the user lacks; 3.0 does not check them', async () => {
      await expectErrors([
        [
          withoutPermissions.client.get(path(listDs.id)),
          403,
          'missing required Permissions: DELIVERY-SERVICE:READ, TYPE:READ',
        ],
        [
          withoutPermissions.client.get(path(listDs.id, t[0].id)),
          403,
          'missing required Permissions: DELIVERY-SERVICE:READ, TYPE:READ',
        ],
      ]);
      expect(await list('', withoutPermissions.client.at('3.0'))).toHaveLength(3);
    });
  });

  describe('PUT', () => {
    let putDs: InsertedDeliveryService, target: InsertedDeliveryService;

    beforeAll(async () => {
      putDs = await newDs('CLIENT_STEERING');
      target = await newDs();
      const res = await admin.post(path(putDs.id), {
        targetId: target.id,
        value: 1,
        typeId: types.STEERING_WEIGHT,
      });
      expect(res.status).toBe(200);
    });

    it.each(VERSIONS)('changes value and type on %s', async (version) => {
      const value = Number(version.replace('.', ''));
      const res = await steering.client
        .at(version)
        .put(path(putDs.id, target.id), { value, typeId: types.STEERING_GEO_WEIGHT, targetId: 12345 });
      expectOk(res, 'steeringtarget was updated.');
      expect(responseOf(res)).toEqual(expected(putDs, target, 'STEERING_GEO_WEIGHT', value));
      expect(await targetsOf(putDs.id)).toEqual([
        { target: target.id, value, type: types.STEERING_GEO_WEIGHT },
      ]);
    });

    describe('refusals write nothing', () => {
      let before: Awaited<ReturnType<typeof targetsOf>>;
      beforeEach(async () => {
        before = await targetsOf(putDs.id);
      });
      afterEach(async () => {
        expect(await targetsOf(putDs.id)).toEqual(before);
      });
      const put = (
        body: unknown,
        client = admin,
        id: number | string = putDs.id,
        t: number | string = target.id,
      ) => client.put(path(id, t), body);

      it('bad bodies', async () => {
        expectError(await put({}), 400, 'missing typeId; missing value');
        expectError(await put({ typeId: types.STEERING_ORDER }), 400, 'missing value');
        expectError(
          await put({ value: 3, typeId: types.HTTP }),
          400,
          'type is not a valid steering_target type',
        );
        expectError(await put({ value: 3, typeId: 99999999 }), 400, 'type not found');
        expectError(
          await put({ value: [3], typeId: types.STEERING_ORDER }),
          400,
          "'value' must be an integer",
        );
        expectError(
          await admin.raw('put', path(putDs.id, target.id), '"text"'),
          400,
          'the request body must be a JSON object',
        );
        const malformed = await admin.raw('put', path(putDs.id, target.id), '{');
        expectMalformedJson(malformed);
      });

      it('unknown or non-integer keys', async () => {
        const body = { value: 3, typeId: types.STEERING_ORDER };
        expectError(await put(body, admin, 99999999), 404, 'delivery service 99999999 not found');
        expectError(await put(body, admin, putDs.id, 99999999), 404, 'no steering target found with this id');
        expectError(await put(body, admin, 'x'), 400, 'failed to parse key: deliveryservice');
        expectError(await put(body, admin, putDs.id, 'x'), 400, 'failed to parse key: target');
      });

      it('tenancy, and the permissions the user lacks', async () => {
        const body = { value: 3, typeId: types.STEERING_ORDER };
        expectError(await put(body, otherTenant.client), 403, 'not authorized on this tenant');
        expectError(
          await put(body, withoutPermissions.client),
          403,
          'missing required Permissions: STEERING:UPDATE, DELIVERY-SERVICE:READ, TYPE:READ',
        );
      });
    });
  });

  describe('DELETE', () => {
    let delDs: InsertedDeliveryService, target: InsertedDeliveryService;

    beforeAll(async () => {
      delDs = await newDs('STEERING');
      target = await newDs();
      const res = await admin.post(path(delDs.id), {
        targetId: target.id,
        value: 1,
        typeId: types.STEERING_ORDER,
      });
      expect(res.status).toBe(200);
    });

    it('refuses unknown keys, other tenants and missing permissions, deleting nothing', async () => {
      const del = (client: ApiClient, id: number | string = delDs.id, t: number | string = target.id) =>
        client.delete(path(id, t));
      expectError(await del(admin, 99999999), 404, 'delivery service 99999999 not found');
      expectError(await del(admin, 'x'), 400, 'failed to parse key: deliveryservice');
      expectError(await del(admin, delDs.id, 'x'), 400, 'failed to parse key: target');
      expectError(await del(otherTenant.client), 403, 'not authorized on this tenant');
      expectError(
        await del(withoutPermissions.client),
        403,
        'missing required Permissions: STEERING:DELETE, DELIVERY-SERVICE:READ, TYPE:READ',
      );
      expect(await targetsOf(delDs.id)).toHaveLength(1);
    });

    it('deletes as a steering user, then answers 404', async () => {
      expectOk(await steering.client.delete(path(delDs.id, target.id)), 'steeringtarget was deleted.');
      expect(await targetsOf(delDs.id)).toEqual([]);
      expectError(await steering.client.delete(path(delDs.id, target.id)), 404, 'steering target not found');
    });
  });
});
