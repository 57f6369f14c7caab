import { rowCounts } from 'test/e2e/support/route-probe';
import { DataSource } from 'typeorm';
import { responseOf, uniqueName } from 'test/e2e/support/api';
import { expectError, expectErrors } from 'test/e2e/support/alerts';
import { typeIdOf } from 'test/e2e/support/fixtures/cachegroups';
import { deliveryServiceBody } from 'test/e2e/support/fixtures/delivery-services-api';
import { createFederation } from 'test/e2e/support/fixtures/federations';
import { createCdn, createProfile } from 'test/e2e/support/fixtures/profiles';
import { createServer } from 'test/e2e/support/fixtures/servers';
import { createPhysLocation, createRegion } from 'test/e2e/support/fixtures/topology';
import { useApp } from 'test/e2e/support/suite';

/**
 * Every integer that reaches SQL is bounded by the column it meets (src/common/validation/integers.ts):
 * 32-bit `integer` columns (-2^31 .. 2^31-1), and for `bigint` ones the integers a JSON number
 * carries exactly (±(2^53-1)). Beyond that, a 400 naming the parameter or field, never a database
 * error (a 500 on MySQL) or an altered value (on SQLite).
 */
describe('integer ranges', () => {
  const { app, admin } = useApp();
  let dataSource: DataSource;

  beforeAll(() => {
    dataSource = app.get(DataSource);
  });

  /** Row counts of every table: a refused request must leave them all as they were. */
  describe('list filters and paging', () => {
    it.each([
      ['cdns?limit=99999999999999999999', 'limit parameter must be no greater than 2147483647'],
      ['servers?limit=1&offset=2147483648', 'offset parameter must be no greater than 2147483647'],
      ['profiles?param=99999999999999999999', 'param must be no greater than 2147483647'],
      ['logs?limit=1&page=99999999999999999999', 'page parameter must be no greater than 2147483648'],
      ['deliveryserviceserver?page=99999999999', 'page parameter must be no greater than 107374183'],
      [
        'deliveryserviceserver?deliveryserviceids=1,99999999999999999999',
        "deliveryserviceids query parameter must be a comma-delimited list of integers, got '1,99999999999999999999'",
      ],
    ])('GET %s → 400', async (path, text) => {
      expectError(await admin.get(path), 400, text);
    });

    it.each([
      'cdns?id=99999999999999999999',
      'cdns?id=-2147483649',
      'jobs?id=11111111111',
      'servers?cdn=2147483648',
      'servers?profileId=99999999999999999999',
      'deliveryservices?type=2147483648',
      'deliveryservices?accessibleTo=99999999999999999999',
      'cachegroups?type=2147483648',
      'profileparameters?profileId=2147483648',
      'asns?asn=9007199254740992',
      'asns?cachegroup=2147483648',
      'federation_resolvers?id=2147483648',
    ])('GET %s: a filter value beyond its column matches nothing (200, empty)', async (path) => {
      const res = await admin.get(path);
      expect(res.status).toBe(200);
      expect(responseOf(res)).toEqual([]);
    });

    it('a filter value that is no integer is still refused', async () => {
      await expectErrors([
        [admin.get('jobs?id=1.5'), 400, 'id cannot parse to integer'],
        [admin.get('cdns?id=ten'), 400, 'id cannot parse to integer'],
      ]);
    });

    it('accepts the bounds: a 32-bit id, a bigint ASN beyond 32 bits, the largest limit and offset', async () => {
      expect(responseOf(await admin.get('cdns?id=2147483647'))).toEqual([]);
      expect(responseOf(await admin.get('asns?asn=9007199254740991'))).toEqual([]);
      expect(responseOf(await admin.get('cdns?limit=2147483647&offset=2147483647'))).toEqual([]);
      expect((await admin.get('deliveryserviceserver?page=107374183')).status).toBe(200);
    });
  });

  describe('ids in paths and keys in query strings', () => {
    it.each([
      ['put', 'cdns/2147483648', 'failed to parse key: id'],
      ['put', 'cdns/99999999999999999999', 'failed to parse key: id'],
      ['delete', 'divisions/2147483648', 'failed to parse key: id'],
      ['get', 'profiles/2147483648/export', "getting integer parameters: parameter 'id' not an integer"],
      ['get', 'steering/99999999999999999999/targets', 'deliveryservice cannot parse to integer'],
      ['get', 'steering/1/targets/2147483648', 'target cannot parse to integer'],
      ['put', 'asns?id=2147483648', 'failed to parse key: id'],
      ['delete', 'regions?id=2147483648', 'id cannot parse to integer'],
      [
        'delete',
        'federation_resolvers?id=2147483648',
        "getting integer parameters: parameter 'id' not an integer",
      ],
    ] as const)('%s %s → 400', async (method, path, text) => {
      expectError(await admin[method](path, method === 'put' ? {} : undefined), 400, text);
    });

    it('3.x roles by id', async () => {
      expectError(await admin.at('3.0').delete('roles?id=2147483648'), 400, 'failed to parse key: id');
    });
  });

  describe('request bodies', () => {
    /** 2^53 + 1: JSON.parse reads it as 2^53, a different number. */
    const NOT_SAFE = '9007199254740993';
    const INT64_OVERFLOW = '9223372036854775808';
    const GREATER_INT = 'must be no greater than 2147483647';
    const GREATER_BIGINT = 'must be no greater than 9007199254740991';

    /** `body` with `"<field>": <number text>` set, as raw JSON so that the number arrives as written. */
    const withNumber = (body: Record<string, unknown>, field: string, number: string): string =>
      JSON.stringify({ ...body, [field]: '@@' }).replace('"@@"', number);

    const expectRefused = async (
      method: 'post' | 'put',
      path: string,
      raw: string,
      text: string,
      version = '4.0',
    ) => {
      const before = await rowCounts(dataSource);
      expectError(await admin.at(version).raw(method, path, raw), 400, text);
      expect(await rowCounts(dataSource)).toEqual(before);
    };

    const cdnBody = () => {
      const name = uniqueName('range');
      return { name, domainName: `${name}.example.net`, dnssecEnabled: false };
    };

    it('cdns: ttlOverride is a 32-bit column (2^53+1 was stored altered on SQLite)', async () => {
      for (const number of [NOT_SAFE, '2147483648', INT64_OVERFLOW, '1e300']) {
        await expectRefused(
          'post',
          'cdns',
          withNumber(cdnBody(), 'ttlOverride', number),
          `'ttlOverride' ${GREATER_INT}`,
          '4.1',
        );
      }
      const cdn = responseOf<{ id: number }>(
        await admin.at('4.1').raw('post', 'cdns', withNumber(cdnBody(), 'ttlOverride', '2147483647')),
      );
      const stored = responseOf<{ ttlOverride: number }[]>(await admin.at('4.1').get(`cdns?id=${cdn.id}`));
      expect(stored[0].ttlOverride).toBe(2147483647);
      await expectRefused(
        'put',
        `cdns/${cdn.id}`,
        withNumber(cdnBody(), 'ttlOverride', NOT_SAFE),
        `'ttlOverride' ${GREATER_INT}`,
        '4.1',
      );
      await expectRefused(
        'put',
        `cdns/${cdn.id}`,
        withNumber(cdnBody(), 'ttlOverride', '1.5'),
        "'ttlOverride' must be an integer",
        '4.1',
      );
    });

    it('deliveryservices: every integer field is checked against its column', async () => {
      const cdn = await createCdn(admin);
      const body = deliveryServiceBody(cdn.id, await typeIdOf(admin, 'HTTP'));
      for (const [field, number, text] of [
        ['maxDnsAnswers', NOT_SAFE, `'maxDnsAnswers' ${GREATER_INT}`],
        ['globalMaxMbps', INT64_OVERFLOW, `'globalMaxMbps' ${GREATER_INT}`],
        ['globalMaxTps', '2147483648', `'globalMaxTps' ${GREATER_INT}`],
        ['cdnId', '-9007199254740993', "'cdnId' must be no less than -2147483648"],
        ['dscp', '1.5', "'dscp' must be an integer"],
        ['maxRequestHeaderBytes', NOT_SAFE, `'maxRequestHeaderBytes' ${GREATER_BIGINT}`],
        [
          'maxRequestHeaderBytes',
          '2147483648',
          "invalid request: type fields: 'maxRequestHeaderBytes' maxRequestHeaderBytes must be a valid non negative value between 0 and 2147483647",
        ],
      ]) {
        await expectRefused('post', 'deliveryservices', withNumber(body, field, number), text);
      }
      const res = await admin.raw(
        'post',
        'deliveryservices',
        withNumber(body, 'globalMaxMbps', '2147483647'),
      );
      expect(res.status).toBe(200);
      expect(responseOf<{ globalMaxMbps: number }[]>(res)[0].globalMaxMbps).toBe(2147483647);
    });

    it('servers: mtu (32-bit) and maxBandwidth (bigint), nested in interfaces', async () => {
      const cdn = await createCdn(admin);
      const server = await createServer(admin, cdn.id);
      const current = responseOf<Record<string, unknown>[]>(await admin.get(`servers?id=${server.id}`))[0];
      const withInterface = (field: string, number: string) =>
        withNumber(
          current,
          'interfaces',
          `[${withNumber({ name: 'eth0', ipAddresses: [{ address: '192.0.2.9/24', serviceAddress: true }] }, field, number)}]`,
        );
      await expectRefused(
        'put',
        `servers/${server.id}`,
        withInterface('mtu', NOT_SAFE),
        `'interfaces[0].mtu' ${GREATER_INT}`,
      );
      await expectRefused(
        'put',
        `servers/${server.id}`,
        withInterface('maxBandwidth', INT64_OVERFLOW),
        `'interfaces[0].maxBandwidth' ${GREATER_BIGINT}`,
      );
      await expectRefused(
        'put',
        `servers/${server.id}`,
        withNumber(current, 'physLocationId', '2147483648'),
        `'physLocationId' ${GREATER_INT}`,
      );
      const res = await admin.raw(
        'put',
        `servers/${server.id}`,
        withInterface('maxBandwidth', '9007199254740991'),
      );
      expect(res.status).toBe(200);
      const stored = responseOf<{ interfaces: { maxBandwidth: number }[] }[]>(
        await admin.get(`servers?id=${server.id}`),
      );
      expect(stored[0].interfaces[0].maxBandwidth).toBe(9007199254740991);
    });

    it('asns: the number is a bigint column, the cache group a 32-bit id', async () => {
      const cachegroupId = responseOf<{ id: number }[]>(await admin.get('cachegroups?limit=1'))[0]?.id ?? 1;
      await expectRefused(
        'post',
        'asns',
        withNumber({ cachegroupId }, 'asn', NOT_SAFE),
        `'asn' ${GREATER_BIGINT}`,
      );
      await expectRefused(
        'post',
        'asns',
        withNumber({ asn: 64512 }, 'cachegroupId', '2147483648'),
        `'cachegroupId' ${GREATER_INT}`,
      );
    });

    it.each([
      ['post', 'tenants', { name: 'x', active: true }, 'parentId', NOT_SAFE, `'parentId' ${GREATER_INT}`],
      [
        'post',
        'profiles',
        { name: 'x', description: 'x', type: 'ATS_PROFILE' },
        'cdn',
        '2147483648',
        `'cdn' ${GREATER_INT}`,
      ],
      ['post', 'profileparameters', { parameterId: 1 }, 'profileId', NOT_SAFE, `'profileId' ${GREATER_INT}`],
      ['post', 'regions', { name: 'x' }, 'division', '2147483648', `'division' ${GREATER_INT}`],
      [
        'post',
        'cachegroups',
        { name: 'x', shortName: 'x' },
        'typeId',
        INT64_OVERFLOW,
        `'typeId' ${GREATER_INT}`,
      ],
      [
        'post',
        'cachegroups',
        { name: 'x', shortName: 'x', typeId: 1 },
        'parentCachegroupId',
        NOT_SAFE,
        `'parentCachegroupId' ${GREATER_INT}`,
      ],
      [
        'post',
        'deliveryserviceserver',
        { servers: [1], replace: false },
        'dsId',
        '2147483648',
        `'dsId' ${GREATER_INT}`,
      ],
      [
        'post',
        'deliveryserviceserver',
        { dsId: 1, replace: false },
        'servers',
        `[1, ${NOT_SAFE}]`,
        `'servers[1]' ${GREATER_INT}`,
      ],
      [
        'post',
        'cachegroups/1/deliveryservices',
        {},
        'deliveryServices',
        `[${NOT_SAFE}]`,
        `'deliveryServices[0]' ${GREATER_INT}`,
      ],
      [
        'post',
        'cachegroups/1/queue_update',
        { action: 'queue' },
        'cdnId',
        '"99999999999"',
        `'cdnId' ${GREATER_INT}`,
      ],
      [
        'post',
        'federation_resolvers',
        { ipAddress: '192.0.2.1' },
        'typeId',
        '2147483648',
        `decoding: typeId ${GREATER_INT}`,
      ],
      [
        'post',
        'steering/1/targets',
        { value: 1, typeId: 1 },
        'targetId',
        NOT_SAFE,
        `'targetId' ${GREATER_INT}`,
      ],
    ] as const)('%s %s: %s.%s', async (method, path, body, field, number, text) => {
      await expectRefused(method, path, withNumber(body, field, number), text);
    });

    it('users (uid, gid, tenantId; the role id on 3.x), phys_locations, CDN federations', async () => {
      const user = {
        username: uniqueName('ranges'),
        localPasswd: 'a-Strong-passw0rd!',
        confirmLocalPasswd: 'a-Strong-passw0rd!',
        role: 'admin',
        tenantId: 1,
        email: `${uniqueName('ranges')}@example.com`,
        fullName: 'Range Test',
      };
      await expectRefused('post', 'users', withNumber(user, 'uid', '2147483648'), `'uid' ${GREATER_INT}`);
      await expectRefused(
        'post',
        'users',
        withNumber(user, 'tenantId', NOT_SAFE),
        `'tenantId' ${GREATER_INT}`,
      );
      await expectRefused(
        'post',
        'users',
        withNumber(user, 'role', '2147483648'),
        `'role' ${GREATER_INT}`,
        '3.0',
      );
      const region = await createRegion(admin);
      const location = await createPhysLocation(admin, region.id);
      await expectRefused(
        'put',
        `phys_locations/${location.id}`,
        withNumber({ ...location }, 'regionId', NOT_SAFE),
        `'regionId' ${GREATER_INT}`,
      );
      const cdn = await createCdn(admin);
      const federation = await createFederation(admin, cdn.name);
      await expectRefused(
        'put',
        `cdns/${cdn.name}/federations/${federation.id}`,
        withNumber({ cname: federation.cname }, 'ttl', INT64_OVERFLOW),
        `'ttl' ${GREATER_INT}`,
      );
      await expectRefused(
        'post',
        `federations/${federation.id}/deliveryservices`,
        withNumber({ replace: false }, 'dsIds', '[2147483648]'),
        `parse error: decoding: dsIds[0] ${GREATER_INT}`,
      );
      const profile = await createProfile(admin, cdn.id);
      await expectRefused(
        'put',
        `profiles/${profile.id}`,
        withNumber({ ...profile }, 'cdn', NOT_SAFE),
        `'cdn' ${GREATER_INT}`,
      );
    });
  });
});
