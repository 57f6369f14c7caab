import { DataSource } from 'typeorm';
import type { ApiCapabilityV3, CapabilityV3 } from 'src/modules/capabilities/dto/capability.response';
import { uniqueName } from 'test/e2e/support/api';
import { createUser } from 'test/e2e/support/accounts';
import { expectError } from 'test/e2e/support/alerts';
import { expectOk } from 'test/e2e/support/headers';
import { CUSTOM_TIME } from 'test/e2e/support/times';
import { useApp } from 'test/e2e/support/suite';

const DEPRECATED = {
  text: 'This endpoint is deprecated, and will be removed in the future',
  level: 'warning',
};

/** GET capabilities and GET api_capabilities: 3.x only, read from tables the seed leaves empty (D113). */
describe('capabilities and api_capabilities (3.x)', () => {
  const { app, admin } = useApp({ version: '3.0' });
  let dataSource: DataSource;

  beforeAll(() => {
    dataSource = app.get(DataSource);
  });

  it.each(['3.0', '3.1'])(
    'lists nothing on a fresh installation, with the deprecation warning, on %s',
    async (version) => {
      for (const path of ['capabilities', 'api_capabilities']) {
        const res = expectOk(await admin.at(version).get(path));
        expect(res.body).toEqual({ alerts: [DEPRECATED], response: [] });
      }
    },
  );

  it('lists the rows an operator wrote, filtered and ordered as the original', async () => {
    const [a, b] = [uniqueName('cap-a'), uniqueName('cap-b')].sort();
    await dataSource.query('INSERT INTO capability (name, description) VALUES (?, ?), (?, NULL)', [
      a,
      'first',
      b,
    ]);
    await dataSource.query(
      'INSERT INTO api_capability (http_method, route, capability) VALUES (?, ?, ?), (?, ?, ?)',
      ['GET', 'cdns', a, 'POST', 'cdns', a],
    );
    try {
      const readOnly = await createUser(app, admin, 'read-only', 1, '3.1');
      const caps = await readOnly.client.get(`capabilities?name=${a}`);
      expect(caps.body).toEqual({
        alerts: [DEPRECATED],
        response: [{ description: 'first', lastUpdated: expect.stringMatching(CUSTOM_TIME), name: a }],
      });
      const both = (await readOnly.client.get('capabilities?orderby=name&sortOrder=desc')).body as {
        response: CapabilityV3[];
      };
      expect(both.response.map((c) => [c.name, c.description])).toEqual([
        [b, ''],
        [a, 'first'],
      ]);
      const endpoints = (await readOnly.client.get(`api_capabilities?capability=${a}&httpMethod=POST`))
        .body as {
        response: ApiCapabilityV3[];
      };
      expect(endpoints.response).toEqual([
        {
          id: expect.any(Number),
          httpMethod: 'POST',
          httpRoute: 'cdns',
          capability: a,
          lastUpdated: expect.stringMatching(CUSTOM_TIME),
        },
      ]);
      expectError(await readOnly.client.get('api_capabilities?id=x'), 400, 'id cannot parse to integer');
    } finally {
      await dataSource.query('DELETE FROM api_capability WHERE capability = ?', [a]);
      await dataSource.query('DELETE FROM capability WHERE name IN (?, ?)', [a, b]);
    }
  });

  it.each(['4.0', '4.1', '5.0'])('does not exist on %s, as in the original', async (version) => {
    for (const path of ['capabilities', 'api_capabilities']) {
      expectError(
        await admin.at(version).get(path),
        404,
        `The requested path '/api/${version}/${path}' does not exist.`,
      );
    }
  });
});
