import { DataSource } from 'typeorm';
import { ApiClient, responseOf, uniqueName, type Wire } from 'test/e2e/support/api';
import { expectError, expectErrors, expectMalformedJson, expectSuccessAlert } from 'test/e2e/support/alerts';
import { expectOk } from 'test/e2e/support/headers';
import { CUSTOM_TIME, RFC3339_TIME } from 'test/e2e/support/times';
import { createCdn } from 'test/e2e/support/fixtures/profiles';
import { insertDeliveryService } from 'test/e2e/support/fixtures/delivery-services';
import type {
  ServiceCategoryV3,
  ServiceCategoryV5,
} from 'src/modules/service-categories/dto/service-category.response';
import { useApp } from 'test/e2e/support/suite';

describe('service_categories', () => {
  const { app, admin, readOnly } = useApp({ users: { readOnly: 'read-only' } });
  let dataSource: DataSource;

  const name = (): string => uniqueName('sc').replace(/_/g, '-');
  const names = async (): Promise<string[]> =>
    responseOf<Wire<ServiceCategoryV3>[]>(await admin.get('service_categories?orderby=name')).map(
      (s) => s.name,
    );
  const create = async (n = name()): Promise<string> => {
    const res = await admin.post('service_categories', { name: n });
    expect(res.status).toBe(200);
    return n;
  };

  beforeAll(() => {
    dataSource = app.get(DataSource);
  });

  describe('3.x/4.x', () => {
    it.each(['3.0', '4.0', '4.1'])('creates and lists with TimeNoMod timestamps on %s', async (version) => {
      const n = name();
      const res = expectOk(await admin.at(version).post('service_categories', { name: n }));
      expectSuccessAlert(res, 'serviceCategory was created.');
      expect(responseOf<Wire<ServiceCategoryV3>>(res)).toEqual({
        name: n,
        lastUpdated: expect.stringMatching(CUSTOM_TIME),
      });
      const list = expectOk(await readOnly.client.at(version).get(`service_categories?name=${n}`));
      expect(responseOf(list)).toEqual([{ name: n, lastUpdated: expect.stringMatching(CUSTOM_TIME) }]);
    });

    it('orders by name by default', async () => {
      await create();
      await create();
      const listed = responseOf<Wire<ServiceCategoryV3>[]>(await admin.get('service_categories')).map(
        (s) => s.name,
      );
      expect(listed).toEqual([...listed].sort());
    });

    it('refuses a bad or taken name, malformed JSON and wrong types, writing nothing', async () => {
      const n = await create();
      const before = await names();
      await expectErrors([
        [admin.post('service_categories', {}), 400, "'name' cannot be blank"],
        [
          admin.post('service_categories', { name: 'a_b' }),
          400,
          "'name' must consist of only alphanumeric or dash characters.",
        ],
        [admin.post('service_categories', { name: 7 }), 400, "'name' must be a string"],
        [admin.post('service_categories', { name: n }), 400, `service_category name '${n}' already exists.`],
      ]);
      expectMalformedJson(await admin.raw('post', 'service_categories', '{"name"'));
      expect(await names()).toEqual(before);
    });

    it('renames by name, answering the original empty object', async () => {
      const from = await create();
      const to = name();
      const res = expectOk(await admin.put(`service_categories/${from}`, { name: to }));
      expect(res.body).toEqual({
        alerts: [{ level: 'success', text: `Service Category update from ${from} to ${to} was successful.` }],
        response: {},
      });
      const all = await names();
      expect(all).toContain(to);
      expect(all).not.toContain(from);
    });

    it('refuses renaming a missing category (400), to a taken name, or with a bad name', async () => {
      const a = await create();
      const b = await create();
      expectError(
        await admin.put('service_categories/no-such-cat', { name: name() }),
        400,
        'no service category found with name no-such-cat',
      );
      expectError(
        await admin.put(`service_categories/${a}`, { name: b }),
        400,
        `service_category name '${b}' already exists.`,
      );
      expectError(
        await admin.put(`service_categories/${a}`, { name: 'x y' }),
        400,
        "'name' must consist of only alphanumeric or dash characters.",
      );
      expect(await names()).toEqual(expect.arrayContaining([a, b]));
    });

    it('deletes by name; a missing one is 404', async () => {
      const n = await create();
      const res = await admin.delete(`service_categories/${n}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ alerts: [{ level: 'success', text: 'serviceCategory was deleted.' }] });
      expect(await names()).not.toContain(n);
      expectError(
        await admin.delete(`service_categories/${n}`),
        404,
        'no serviceCategory with that key found',
      );
    });
  });

  describe('5.0', () => {
    const v5 = (): ApiClient => admin.at('5.0');

    it('creates, lists, renames and deletes with RFC 3339 timestamps and the 5.0 texts', async () => {
      const n = `${name()}_x`;
      const created = expectOk(await v5().post('service_categories', { name: n }));
      expectSuccessAlert(created, 'service category was created.');
      expect(responseOf<ServiceCategoryV5>(created)).toEqual({
        name: n,
        lastUpdated: expect.stringMatching(RFC3339_TIME),
      });
      expect(responseOf(await v5().get(`service_categories?name=${n}`))).toEqual([
        { name: n, lastUpdated: expect.stringMatching(RFC3339_TIME) },
      ]);
      const to = `${name()}_y`;
      const renamed = await v5().put(`service_categories/${n}`, { name: to });
      expect(renamed.status).toBe(200);
      expectSuccessAlert(renamed, 'service category was updated');
      expect(responseOf(renamed)).toEqual({ name: to, lastUpdated: expect.stringMatching(RFC3339_TIME) });
      const deleted = await v5().delete(`service_categories/${to}`);
      expect(deleted.body).toEqual({ alerts: [{ level: 'success', text: `${to} was deleted.` }] });
    });

    it('answers the 5.0 errors', async () => {
      const n = await create();
      expectError(
        await v5().post('service_categories', { name: n }),
        400,
        `service category name '${n}' already exists.`,
      );
      expectError(
        await v5().post('service_categories', { name: 'a.b' }),
        400,
        "'name' must consist of only alphanumeric, dash, or underscore characters",
      );
      expectError(
        await v5().put('service_categories/no-such-cat', { name: name() }),
        404,
        'service category with name: no-such-cat not found',
      );
      expectError(
        await v5().delete('service_categories/no-such-cat'),
        404,
        'no service category exists for name: no-such-cat',
      );
    });
  });

  it('refuses deleting a category a delivery service names (D80)', async () => {
    const n = await create();
    const cdn = await createCdn(admin);
    const ds = await insertDeliveryService(app, cdn.id);
    await dataSource.query('UPDATE deliveryservice SET service_category = ? WHERE id = ?', [n, ds.id]);
    await expectErrors([
      [
        admin.at('5.0').delete(`service_categories/${n}`),
        400,
        'can not delete a service category with 1 assigned Delivery Service(s)',
      ],
      [
        admin.delete(`service_categories/${n}`),
        400,
        'cannot delete service_category because it is being used by a deliveryservice',
      ],
    ]);
    expect(await names()).toContain(n);
  });

  it('answers If-Modified-Since with 304 and refuses a stale If-Unmodified-Since with 412', async () => {
    const n = await create();
    const future = new Date(Date.now() + 60_000).toUTCString();
    const notModified = await admin.get('service_categories').set('If-Modified-Since', future);
    expect(notModified.status).toBe(304);
    const past = new Date(Date.now() - 3_600_000).toUTCString();
    expectError(
      await admin.put(`service_categories/${n}`).set('If-Unmodified-Since', past).send({ name: name() }),
      412,
      'resource was modified since the time specified by the request headers',
    );
    expect(await names()).toContain(n);
  });
});
