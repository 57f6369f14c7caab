import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApiClient } from 'test/e2e/support/api';
import { createUser } from 'test/e2e/support/accounts';
import { expectError } from 'test/e2e/support/alerts';
import { expectApiHeaders } from 'test/e2e/support/headers';
import { createParameter } from 'test/e2e/support/fixtures/profiles';
import { migrationNames } from 'test/e2e/support/migrations';
import { useApp } from 'test/e2e/support/suite';

/** GET about and GET system/info, as the original has them (read-only level, a session). */
describe('about and system info', () => {
  const { app, admin } = useApp();
  let readOnly: ApiClient;
  const { name, version } = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
    name: string;
    version: string;
  };

  beforeAll(async () => {
    readOnly = (await createUser(app, admin, 'read-only')).client;
  });

  it.each(['3.0', '4.0', '5.0'])(
    'GET /api/%s/about answers the build, the Node version and the schema version, unwrapped',
    async (v) => {
      const res = await readOnly.at(v).get('about');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        name,
        Version: version,
        release: '',
        nodeVersion: process.version,
        schemaVersion: migrationNames().at(-1),
      });
      expect(Object.values(res.body as object).every((value) => typeof value === 'string')).toBe(true);
      expectApiHeaders(res);
    },
  );

  it('GET /api/{v}/system/info answers the global parameters', async () => {
    const res = await readOnly.get('system/info');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      response: {
        parameters: expect.objectContaining({
          'tm.instance_name': 'Traffic Ops CDN',
          'tm.toolname': 'Traffic Ops',
        }),
      },
    });
    const values = Object.values((res.body as { response: { parameters: object } }).response.parameters);
    expect(values.every((value) => typeof value === 'string')).toBe(true);
  });

  it('leaves secure global parameters out for a user who may not read them', async () => {
    const secret = await createParameter(admin, {
      configFile: 'global',
      value: 'hidden-value',
      secure: true,
    });
    const plain = await createParameter(admin, { configFile: 'global', value: 'shown-value', secure: false });
    const other = await createParameter(admin, { configFile: 'not-global.config', value: 'elsewhere' });
    const seen = async (client: ApiClient) =>
      ((await client.get('system/info')).body as { response: { parameters: Record<string, string> } })
        .response.parameters;

    const byAdmin = await seen(admin);
    expect(byAdmin[secret.name]).toBe('hidden-value');
    expect(byAdmin[plain.name]).toBe('shown-value');
    expect(byAdmin[other.name]).toBeUndefined();
    for (const v of ['3.0', '4.0', '5.0']) {
      const byReader = await seen(readOnly.at(v));
      expect(byReader[secret.name]).toBeUndefined();
      expect(byReader[plain.name]).toBe('shown-value');
    }
  });

  it.each(['about', 'system/info'])('GET %s needs a session', async (path) => {
    for (const v of ['3.0', '4.0', '5.0']) {
      expectError(await ApiClient.anonymous(app, v).get(path), 401, 'unauthorized, please log in.');
    }
  });
});
