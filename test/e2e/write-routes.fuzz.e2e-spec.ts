import { rowCounts } from 'test/e2e/support/route-probe';
import fc from 'fast-check';
import { Reflector } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { AppModule } from 'src/app.module';
import { Public } from 'src/common/decorators/auth.decorators';
import { routesOfModule } from 'src/common/routes/route-inventory';
import { NotAChange } from 'src/common/decorators/not-a-change.decorator';
import { ApiClient } from 'test/e2e/support/api';
import { USER_PASSWORD } from 'test/e2e/support/constants';
import { useApp } from 'test/e2e/support/suite';

/**
 * Property-based: generated bodies and query strings thrown at every write route (POST, PUT,
 * DELETE) of the code. Whatever arrives, the answer is never a 5xx, a 4xx is an alert, a
 * refused request writes nothing (every table keeps its row count, the change log included) and an
 * accepted one adds exactly one change-log entry (none for sign-in and sign-out). Path ids are ones that do not
 * exist (or are not ids), so that no generated request can remove what other suites rely on.
 * Bodies include numbers out of every column's range (written as JSON text, so that 2^53+1 arrives
 * as such), floats where integers belong, deep nesting and repeated keys. Every read route (GET)
 * gets generated paging and integer filters, out of range too: never a 5xx either.
 */

const FIELDS = [
  'name',
  't',
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
  'paramIds',
  'serverNames',
  'setNumber',
  'pattern',
  'regex',
  'startTime',
  'ttlHours',
  'invalidationType',
  'assetUrl',
  'createdBy',
  'keyword',
  'parameters',
  'nodes',
  'parents',
  'topology',
  'cdnName',
  'deliveryServiceName',
  'statName',
  'statValue',
  'summaryTime',
  'statDate',
  'serverId',
  'serverCapability',
  'serverIds',
  'serverCapabilities',
  'pageType',
  'deliveryServiceID',
  'requiredCapability',
  'coordinateId',
  'fqdn',
  'ip6Address',
  'port',
  'protocol',
  'paramId',
  'profileIds',
  'profile',
  'parameters',
  'changeType',
  'status',
  'requested',
  'original',
  'assignee',
  'assigneeId',
  'deliveryServiceRequestId',
  'key',
  'deliveryservice',
  'version',
  'hostname',
  'certificate',
  'authType',
  'notification',
  'message',
  'soft',
  'sharedUserNames',
  'servercheck_short_name',
  'host_name',
  'version',
  'info_url',
  'script_file',
  'isactive',
  'host',
  'address',
  'deliveryserviceId',
  'kskExpirationDays',
  'zskExpirationDays',
  'effectiveDate',
  'expirationDays',
  'metadata',
  'host-metadata',
];

/** JSON text put in a body as is (JSON.stringify would round 2^53+1, and cannot repeat a key). */
class RawJson {
  constructor(readonly text: string) {}
}

/** The body as JSON text, with each RawJson in place. */
function toJson(value: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_key, v: unknown) =>
    v instanceof RawJson ? `@@raw:${raws.push(v.text) - 1}@@` : v,
  );
  return (text ?? 'null').replace(/"@@raw:(\d+)@@"/g, (_m, i: string) => raws[Number(i)]);
}

/** Numbers around and far beyond the columns' ranges, and floats where integers are expected. */
const OUT_OF_RANGE = [
  '2147483647',
  '2147483648',
  '-2147483649',
  '4294967296',
  '9007199254740991',
  '9007199254740993',
  '-9007199254740993',
  '9223372036854775808',
  '-9223372036854775809',
  '99999999999999999999',
  '1e20',
  '-1e300',
  '1.5',
  '0.1',
  '-0.0',
  '1e-7',
  '2147483647.5',
  '1E2',
];
const numberText = fc.oneof(
  fc.constantFrom(...OUT_OF_RANGE),
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String),
);
const rawNumber = numberText.map((text) => new RawJson(text));
/** Arrays or objects nested around the limit (64 levels) and far beyond it. */
const deepNesting = fc
  .tuple(fc.constantFrom(63, 64, 65, 2000, 5000), fc.boolean())
  .map(([depth, arrays]) =>
    arrays
      ? new RawJson(`${'['.repeat(depth)}1${']'.repeat(depth)}`)
      : new RawJson(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`),
  );

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
  rawNumber,
  rawNumber,
);
const value = fc.letrec((tie) => ({
  any: fc.oneof(
    { depthSize: 'small' },
    scalar,
    fc.array(tie('any'), { maxLength: 3 }),
    tie('object'),
    fc.array(rawNumber, { maxLength: 3 }),
    deepNesting,
  ),
  object: fc.dictionary(fc.constantFrom(...FIELDS), tie('any'), { maxKeys: 6 }),
})).any;
/** An object whose key appears twice (a proxy and JSON.parse would read different values). */
const repeatedKey = fc
  .tuple(fc.constantFrom(...FIELDS), scalar, scalar)
  .map(
    ([field, a, b]) =>
      new RawJson(`{${JSON.stringify(field)}:${toJson(a)},${JSON.stringify(field)}:${toJson(b)}}`),
  );
const body = fc.oneof(
  fc.dictionary(fc.constantFrom(...FIELDS), value, { maxKeys: 10 }),
  fc.array(fc.dictionary(fc.constantFrom(...FIELDS), value, { maxKeys: 6 }), { maxLength: 3 }),
  scalar,
  deepNesting,
  repeatedKey,
);
const pathValue = fc.constantFrom(
  '999999',
  '0',
  '-1',
  'abc',
  '1.5',
  '2147483648',
  '99999999999999999999',
  'no-such-name',
);
/** Paging and the integer filters of the lists (and the id keys of query-string writes). */
const QUERY_NAMES = [
  'id',
  'name',
  'limit',
  'offset',
  'page',
  'orderby',
  'sortOrder',
  'cdn',
  'dsId',
  'replace',
  'type',
  'typeId',
  'cachegroup',
  'profileId',
  'parameterId',
  'tenant',
  'parentId',
  'division',
  'asn',
  'value',
  'param',
  'dsID',
  'userID',
  'deliveryserviceids',
  'serverids',
  'days',
  'updated',
  'reval_updated',
  'config_apply_time',
  'revalidate_apply_time',
  'config_update_failed',
  'revalidate_update_failed',
  'profile',
  'cdnID',
  'ucdn',
];
const query = fc.dictionary(
  fc.constantFrom(...QUERY_NAMES),
  fc.oneof(pathValue, fc.string({ maxLength: 10 }), numberText),
  { maxKeys: 4 },
);

describe('write routes under generated input', () => {
  // A fresh admin of its own: generated PUT /federations and the like touch only its rows.
  const { app, fuzzer } = useApp({ users: { fuzzer: 'admin' } });
  let client: ApiClient;
  let username: string;
  let dataSource: DataSource;

  beforeAll(() => {
    ({ client, username } = fuzzer);
    dataSource = app.get(DataSource);
  });

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
        const before = await rowCounts(dataSource, ['tm_user']);
        const at = client.at(version);
        const text = toJson(sent);
        const res = await (route.method === 'POST'
          ? at.raw('post', url, text)
          : route.method === 'PUT'
            ? at.raw('put', url, text)
            : at.delete(url));
        if (res.status >= 500) {
          throw new Error(`${route.method} ${url} ${text.slice(0, 300)} → ${res.status} ${res.text}`);
        }
        if (res.status >= 400) {
          expect((res.body as { alerts?: { level: string }[] }).alerts?.[0]?.level).toBe('error');
          expect(await rowCounts(dataSource, ['tm_user'])).toEqual(before);
        } else {
          expect((await rowCounts(dataSource, ['tm_user'])).log).toBe(before.log + (logged ? 1 : 0));
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

  const reads = routesOfModule(AppModule).filter((r) => r.method === 'GET');

  it('finds the read routes', () => {
    expect(reads.length).toBeGreaterThan(30);
  });

  describe('read routes under generated paging and integer filters', () => {
    // Reads write nothing, so existing ids (1) are fair game too.
    const readPathValue = fc.oneof(pathValue, fc.constant('1'));

    it.each(reads.map((r) => [`GET ${r.path}`, r] as const))('%s', async (_name, route) => {
      const version = route.versions.includes('4.0') ? '4.0' : route.versions[0];
      await fc.assert(
        fc.asyncProperty(query, readPathValue, async (params, id) => {
          const path = route.path.replace(/:\w+/g, encodeURIComponent(id));
          const search = new URLSearchParams(Object.entries(params)).toString();
          const url = `${path}${search ? `?${search}` : ''}`;
          const res = await client.at(version).get(url);
          if (res.status >= 500) {
            throw new Error(`GET ${url} → ${res.status} ${res.text}`);
          }
          if (res.status >= 400) {
            expect((res.body as { alerts?: { level: string }[] }).alerts?.[0]?.level).toBe('error');
          }
        }),
        { numRuns: 15 },
      );
    });
  });
});
