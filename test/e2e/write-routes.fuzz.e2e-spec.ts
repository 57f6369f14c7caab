import type { INestApplication } from '@nestjs/common';
import fc from 'fast-check';
import { Reflector } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { AppModule } from 'src/app.module';
import { Public } from 'src/common/decorators/auth.decorators';
import { routesOfModule } from 'src/common/routes/route-inventory';
import { NotAChange } from 'src/modules/change-log/change-log.decorator';
import { ApiClient, createUser } from 'test/e2e/support/api';
import { createTestApp } from 'test/e2e/support/app';
import { USER_PASSWORD } from 'test/e2e/support/constants';

/**
 * Property-based: generated bodies and query strings thrown at every write route (POST, PUT,
 * DELETE) of the code. Whatever arrives, the answer is never a 5xx, a 4xx is an alert, a
 * refused request writes nothing (every table keeps its row count, the change log included) and an
 * accepted one adds exactly one change-log entry (none for sign-in and sign-out). Path ids are ones that do not
 * exist (or are not ids), so that no generated request can remove what other suites rely on.
 */

const FIELDS = [
  'name',
  'id',
  'ids',
  'cdnId',
  'cdn',
  'typeId',
  'type',
  'profileNames',
  'profileId',
  'interfaces',
  'ipAddresses',
  'asn',
  'cachegroupId',
  'cachegroup',
  'xmlId',
  'displayName',
  'tenantId',
  'active',
  'dsIds',
  'dsId',
  'replace',
  'userIds',
  'servers',
  'deliveryServices',
  'action',
  'value',
  'targetId',
  'parentId',
  'description',
  'useInTable',
  'domainName',
  'dnssecEnabled',
  'ttlOverride',
  'division',
  'divisionName',
  'regionId',
  'shortName',
  'secure',
  'configFile',
  'parameterId',
  'permissions',
  'privLevel',
  'username',
  'localPasswd',
  'confirmLocalPasswd',
  'role',
  'email',
  'fullName',
  'cname',
  'ttl',
  'ipAddress',
  'fedResolverIds',
  'mappings',
  'deliveryService',
  'federations',
  'routingName',
  'geoLimit',
  'geoLimitCountries',
  'rangeRequestHandling',
  'rangeSliceBlockSize',
  'latitude',
  'longitude',
  'hostName',
  'statusId',
  'physLocationId',
  'u',
  'p',
];

const scalar = fc.oneof(
  fc.integer(),
  fc.constantFrom(0, -1, 1, 2 ** 31, 2 ** 53 + 2, Number.MAX_SAFE_INTEGER, -(2 ** 40)),
  fc.double({ noNaN: true }),
  fc.string({ maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '0',
    'true',
    "'; DROP TABLE cdn; --",
    '%00',
    '\u0000',
    'ü€😀',
    '192.0.2.1/33',
    '::1',
  ),
  fc.boolean(),
  fc.constant(null),
);
const value = fc.letrec((tie) => ({
  any: fc.oneof({ depthSize: 'small' }, scalar, fc.array(tie('any'), { maxLength: 3 }), tie('object')),
  object: fc.dictionary(fc.constantFrom(...FIELDS), tie('any'), { maxKeys: 6 }),
})).any;
const body = fc.oneof(
  fc.dictionary(fc.constantFrom(...FIELDS), value, { maxKeys: 10 }),
  fc.array(fc.dictionary(fc.constantFrom(...FIELDS), value, { maxKeys: 6 }), { maxLength: 3 }),
  scalar,
);
const pathValue = fc.constantFrom('999999', '0', '-1', 'abc', '1.5', '99999999999999999999', 'no-such-name');
const query = fc.dictionary(
  fc.constantFrom('id', 'name', 'limit', 'offset', 'page', 'orderby', 'sortOrder', 'cdn', 'dsId', 'replace'),
  fc.oneof(pathValue, fc.string({ maxLength: 10 })),
  { maxKeys: 3 },
);

describe('write routes under generated input', () => {
  let app: INestApplication;
  let client: ApiClient;
  let username: string;
  let dataSource: DataSource;
  let tables: string[];

  const rowCounts = async (): Promise<Record<string, number>> => {
    const [row] = await dataSource.query<Record<string, number | string>[]>(
      `SELECT ${tables.map((t) => `(SELECT COUNT(*) FROM ${t}) AS ${t}`).join(', ')}`,
    );
    return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v)]));
  };

  beforeAll(async () => {
    app = await createTestApp();
    const admin = await ApiClient.admin(app);
    // A fresh admin of its own: generated PUT /federations and the like touch only its rows.
    ({ client, username } = await createUser(app, admin, 'admin'));
    dataSource = app.get(DataSource);
    tables = dataSource.entityMetadatas.map((m) => m.tableName).filter((t) => t !== 'tm_user');
  });

  afterAll(() => app.close());

  const writes = routesOfModule(AppModule).filter((r) => ['POST', 'PUT', 'DELETE'].includes(r.method));

  it('finds the write routes', () => {
    expect(writes.length).toBeGreaterThan(40);
  });

  it.each(writes.map((r) => [`${r.method} ${r.path}`, r] as const))('%s', async (_name, route) => {
    const reflector = new Reflector();
    const logged = ![Public, NotAChange].some((marker) =>
      reflector.getAllAndOverride(marker, [route.handler, route.controller]),
    );
    const isPublic = reflector.getAllAndOverride(Public, [route.handler, route.controller]) === true;
    const signsOut = /(^|\/)user\/logout$/.test(route.path);
    const version = route.versions.includes('4.0') ? '4.0' : route.versions[0];
    await fc.assert(
      fc.asyncProperty(body, query, pathValue, async (sent, params, id) => {
        const path = route.path.replace(/:\w+/g, encodeURIComponent(id));
        const search = new URLSearchParams(Object.entries(params)).toString();
        const url = `${path}${search ? `?${search}` : ''}`;
        const before = await rowCounts();
        const at = client.at(version);
        const res = await (route.method === 'POST'
          ? at.raw('post', url, JSON.stringify(sent))
          : route.method === 'PUT'
            ? at.raw('put', url, JSON.stringify(sent))
            : at.delete(url));
        if (res.status >= 500) {
          throw new Error(`${route.method} ${url} ${JSON.stringify(sent)} → ${res.status} ${res.text}`);
        }
        if (res.status >= 400) {
          expect((res.body as { alerts?: { level: string }[] }).alerts?.[0]?.level).toBe('error');
          expect(await rowCounts()).toEqual(before);
        } else {
          expect((await rowCounts()).log).toBe(before.log + (logged ? 1 : 0));
        }
        if (res.status === 401 && !isPublic) {
          throw new Error(`${route.method} ${url} → 401: the session ended`);
        }
        if (signsOut && res.status === 200) {
          // Signing out ends the user's sessions: the next requests need a new one.
          client = await ApiClient.login(app, username, USER_PASSWORD);
        }
      }),
      { numRuns: 25 },
    );
  });
});
