import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import { responseOf } from 'test/e2e/support/api';
import { createRole, createUser } from 'test/e2e/support/accounts';
import { expectError, expectMalformedJson } from 'test/e2e/support/alerts';
import { expectApiHeaders } from 'test/e2e/support/headers';
import { typeIdOf } from 'test/e2e/support/fixtures/cachegroups';
import { createDeliveryService } from 'test/e2e/support/fixtures/delivery-services-api';
import type { DeliveryServiceResponse } from 'test/e2e/support/fixtures/delivery-services-api';
import { createCdn } from 'test/e2e/support/fixtures/profiles';
import { useApp } from 'test/e2e/support/suite';

type Ds = DeliveryServiceResponse;
const INVALID = 'invalid request: ';
const SSL = 'delivery service has ssl keys that cannot be automatically changed, therefore';

/** The fields a PUT sends back: the record without what the server computes. */
function bodyOf(ds: Ds, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const {
    id: _id,
    cdnName: _cdnName,
    exampleURLs: _e,
    matchList: _m,
    lastUpdated: _l,
    tenant: _t,
    type: _ty,
    profileName: _pn,
    profileDescription: _pd,
    signed: _s,
    ...rest
  } = ds;
  return { ...rest, ...overrides };
}

describe('PUT /deliveryservices/{id}', () => {
  const { app, admin } = useApp();
  let dataSource: DataSource;
  let cdn: { id: number; name: string };

  const fetch = async (id: number, version = '4.0'): Promise<Ds> =>
    responseOf<Ds[]>(await admin.at(version).get(`deliveryservices?id=${id}`))[0];
  const put = (ds: Ds, overrides: Record<string, unknown> = {}, client = admin) =>
    client.put(`deliveryservices/${ds.id}`, bodyOf(ds, overrides));

  /** A PUT that must fail with exactly this status and text, leaving the record as it was. */
  async function refused(
    ds: Ds,
    overrides: Record<string, unknown>,
    status: number,
    text: string,
    client = admin,
  ) {
    const before = await fetch(ds.id);
    expectError(await put(ds, overrides, client), status, text);
    expect(await fetch(ds.id)).toEqual(before);
  }

  beforeAll(async () => {
    dataSource = app.get(DataSource);
    cdn = await createCdn(admin);
  });

  it('updates every field and answers 200 with an empty body (D5)', async () => {
    const ds = await createDeliveryService(admin, cdn.id, {
      tlsVersions: ['1.2'],
      consistentHashQueryParams: ['a'],
    });
    const res = await put(ds, {
      displayName: 'renamed',
      longDesc: 'changed',
      orgServerFqdn: 'https://other.example.net:444',
      tlsVersions: ['1.3'],
      consistentHashQueryParams: ['z', 'y'],
      geoLimit: 1,
      geoLimitCountries: ['fr', ' de'],
      active: false,
      dscp: 8,
      missLat: 10.5,
      rangeRequestHandling: 3,
      rangeSliceBlockSize: 262144,
      signed: true,
      deepCachingType: 'always',
    });
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    expect(res.headers['content-length']).toBe('0');
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.headers['whole-content-sha512']).toBe(createHash('sha512').update('').digest('base64'));
    expectApiHeaders(res);
    const after = await fetch(ds.id);
    expect(after).toMatchObject({
      displayName: 'renamed',
      longDesc: 'changed',
      orgServerFqdn: 'https://other.example.net:444',
      tlsVersions: ['1.3'],
      consistentHashQueryParams: ['y', 'z'],
      geoLimitCountries: ['FR', 'DE'],
      active: false,
      dscp: 8,
      missLat: 10.5,
      rangeSliceBlockSize: 262144,
      signed: true,
      signingAlgorithm: 'url_sig',
      deepCachingType: 'ALWAYS',
      matchList: ds.matchList,
    });
    const origins = await dataSource.query<
      {
        n: number | string;
      }[]
    >('SELECT COUNT(*) AS n FROM origin WHERE deliveryservice = ?', [ds.id]);
    expect(Number(origins[0].n)).toBe(1);
    const v5 = responseOf<Ds[]>(await admin.at('5.0').get(`deliveryservices?id=${ds.id}`))[0];
    expect(v5.active).toBe('PRIMED');
  });

  it('removes the primary origin when orgServerFqdn goes away (ANY_MAP)', async () => {
    const anyMap = await typeIdOf(admin, 'ANY_MAP');
    const ds = await createDeliveryService(admin, cdn.id);
    expect((await put(ds, { typeId: anyMap, orgServerFqdn: null })).status).toBe(200);
    expect((await fetch(ds.id)).orgServerFqdn).toBeNull();
  });

  it('answers 404 for a missing delivery service on every version, 400 for a bad id', async () => {
    const ds = await createDeliveryService(admin, cdn.id);
    for (const version of ['3.0', '4.0', '4.1', '5.0']) {
      const body = bodyOf(ds, version === '5.0' ? { active: 'ACTIVE' } : {});
      expectError(
        await admin.at(version).put('deliveryservices/99999999', body),
        404,
        'no such Delivery Service: #99999999',
      );
    }
    expectError(
      await admin.put('deliveryservices/abc', bodyOf(ds)),
      400,
      "getting integer parameters: parameter 'id' not an integer",
    );
  });

  describe('xmlId', () => {
    it('must be present', async () => {
      const ds = await createDeliveryService(admin, cdn.id);
      await refused(ds, { xmlId: null }, 400, `${INVALID}'xmlId' cannot be blank`);
    });
    it('naming no delivery service answers 404', async () => {
      const ds = await createDeliveryService(admin, cdn.id);
      await refused(
        ds,
        { xmlId: 'no-such-ds-anywhere' },
        404,
        "delivery service 'no-such-ds-anywhere' not found",
      );
    });
    it('naming another delivery service answers the unique index', async () => {
      const ds = await createDeliveryService(admin, cdn.id);
      const other = await createDeliveryService(admin, cdn.id);
      await refused(
        ds,
        { xmlId: other.xmlId },
        400,
        `deliveryservice xml_id '${other.xmlId}' already exists.`,
      );
    });
    it('may not contain spaces or periods, or be longer than 48', async () => {
      const ds = await createDeliveryService(admin, cdn.id);
      await refused(ds, { xmlId: 'a b' }, 400, `${INVALID}'xmlId' cannot contain spaces`);
      await refused(ds, { xmlId: 'a.b' }, 400, `${INVALID}'xmlId' cannot contain periods`);
      await refused(
        ds,
        { xmlId: 'x'.repeat(49) },
        400,
        `${INVALID}'xmlId' the length must be between 1 and 48`,
      );
    });
  });

  describe('SSL keys (sslKeyVersion ≥ 1)', () => {
    let ds: Ds;
    beforeAll(async () => {
      ds = await createDeliveryService(admin, cdn.id, { sslKeyVersion: 2 });
    });
    it('makes cdnId immutable', async () => {
      const other = await createCdn(admin);
      await refused(ds, { cdnId: other.id }, 400, `${SSL} CDN ID is immutable`);
    });
    it('makes routingName immutable', async () => {
      await refused(ds, { routingName: 'video' }, 400, `${SSL} Routing Name is immutable`);
    });
    it('makes a differing cdnName refused', async () => {
      await refused(ds, { cdnName: 'not-the-cdn' }, 400, `${SSL} CDN Name is immutable`);
    });
    it('ignores sslKeyVersion in the body', async () => {
      expect((await put(ds, { sslKeyVersion: 7, displayName: 'kept keys' })).status).toBe(200);
      expect(await fetch(ds.id)).toMatchObject({ sslKeyVersion: 2, displayName: 'kept keys' });
    });
    it('lets a delivery service without keys change CDN and routing name', async () => {
      const free = await createDeliveryService(admin, cdn.id);
      const other = await createCdn(admin);
      expect((await put(free, { cdnId: other.id, routingName: 'video' })).status).toBe(200);
      expect(await fetch(free.id)).toMatchObject({
        cdnId: other.id,
        routingName: 'video',
        cdnName: other.name,
      });
    });
  });

  describe('rangeSliceBlockSize', () => {
    let ds: Ds;
    beforeAll(async () => {
      ds = await createDeliveryService(admin, cdn.id);
    });
    it('is required with rangeRequestHandling 3', async () => {
      await refused(
        ds,
        { rangeRequestHandling: 3, rangeSliceBlockSize: null },
        400,
        `${INVALID}type fields: 'rangeSliceBlockSize' cannot be blank`,
      );
    });
    it('is at least 262144', async () => {
      await refused(
        ds,
        { rangeRequestHandling: 3, rangeSliceBlockSize: 262143 },
        400,
        `${INVALID}type fields: 'rangeSliceBlockSize' must be no less than 262144`,
      );
    });
    it('is at most 33554432', async () => {
      await refused(
        ds,
        { rangeRequestHandling: 3, rangeSliceBlockSize: 33554433 },
        400,
        `${INVALID}type fields: 'rangeSliceBlockSize' must be no greater than 33554432`,
      );
    });
    it('may only be set with rangeRequestHandling 3', async () => {
      await refused(
        ds,
        { rangeRequestHandling: 1, rangeSliceBlockSize: 262144 },
        400,
        `${INVALID}type fields: 'rangeSliceBlockSize' rangeSliceBlockSize can only be set if the rangeRequestHandling is set to 3 (Use the Slice Plugin)`,
      );
    });
    it('accepts both bounds', async () => {
      for (const size of [262144, 33554432]) {
        expect((await put(ds, { rangeRequestHandling: 3, rangeSliceBlockSize: size })).status).toBe(200);
        expect((await fetch(ds.id)).rangeSliceBlockSize).toBe(size);
      }
    });
  });

  describe('geoLimit and geoLimitCountries', () => {
    let ds: Ds;
    beforeAll(async () => {
      ds = await createDeliveryService(admin, cdn.id);
    });
    it('needs countries when geoLimit is not 0', async () => {
      await refused(
        ds,
        { geoLimit: 2, geoLimitCountries: null },
        400,
        `${INVALID}'geoLimitCountries' cannot be blank`,
      );
    });
    it('refuses countries when geoLimit is 0', async () => {
      await refused(
        ds,
        { geoLimit: 0, geoLimitCountries: ['US'] },
        400,
        `${INVALID}'geoLimitCountries' must be blank`,
      );
    });
    it('refuses codes that are not alphabetical', async () => {
      await refused(
        ds,
        { geoLimit: 1, geoLimitCountries: ['US', 'C4'] },
        400,
        `${INVALID}country codes can only contain alphabetical characters`,
      );
    });
    it('takes a comma-separated string on 3.0', async () => {
      const v3 = responseOf<Ds[]>(await admin.at('3.0').get(`deliveryservices?id=${ds.id}`))[0];
      const res = await admin
        .at('3.0')
        .put(`deliveryservices/${ds.id}`, bodyOf(v3, { geoLimit: 1, geoLimitCountries: 'us,mx' }));
      expect(res.status).toBe(200);
      expect((await fetch(ds.id)).geoLimitCountries).toEqual(['US', 'MX']);
    });
  });

  describe('field rules', () => {
    let ds: Ds;
    beforeAll(async () => {
      ds = await createDeliveryService(admin, cdn.id);
    });
    const cases: [string, Record<string, unknown>, string][] = [
      ['displayName blank', { displayName: '' }, "'displayName' cannot be blank"],
      [
        'displayName too long',
        { displayName: 'd'.repeat(49) },
        "'displayName' the length must be between 1 and 48",
      ],
      ['cdnId missing', { cdnId: null }, "'cdnId' cannot be blank"],
      [
        'deepCachingType unknown',
        { deepCachingType: 'SOMETIMES' },
        "'deepCachingType' must be one of 'NEVER' or 'ALWAYS'",
      ],
      ['dscp negative', { dscp: -1 }, "'dscp' must be no less than 0"],
      ['dscp missing', { dscp: null }, "'dscp' is required"],
      [
        'httpBypassFqdn not a host',
        { httpBypassFqdn: 'not a host' },
        "'httpByPassFqdn' must be a valid hostname",
      ],
      ['remapText with a line break', { remapText: 'a\nb' }, "'remapText' cannot contain line breaks"],
      ['routingName with a period', { routingName: 'a.b' }, "'routingName' cannot contain periods"],
      ['routingName not a label', { routingName: 'a b' }, "'routingName' must be a valid hostname"],
      ['signingAlgorithm unknown', { signingAlgorithm: 'md5' }, "'signingAlgorithm' must be a valid value"],
      ['tlsVersions duplicated', { tlsVersions: ['1.2', '1.2'] }, "'tlsVersions' duplicate version '1.2'"],
      ['tlsVersions malformed', { tlsVersions: ['TLSv1'] }, "'tlsVersions' invalid TLS version 'TLSv1'"],
      ['typeId missing', { typeId: null }, "'typeId' cannot be blank, type fields: type not found"],
      [
        'typeId not a delivery service type',
        { typeId: -5 },
        "'typeId' must be no less than 1, type fields: type not found",
      ],
      [
        'missLat out of range',
        { missLat: 91 },
        "type fields: 'missLat' Must be a floating point number within the range +-90",
      ],
      [
        'missLong out of range',
        { missLong: -181 },
        "type fields: 'missLong' Must be a floating point number within the range +-180",
      ],
      ['missLat missing for HTTP', { missLat: null }, "type fields: 'missLat' is required if type is 'HTTP'"],
      [
        'orgServerFqdn malformed',
        { orgServerFqdn: 'origin.example.net/' },
        "type fields: 'orgServerFqdn' must start with http:// or https:// and be followed by a valid hostname with an optional port (no trailing slash)",
      ],
      [
        'orgServerFqdn missing for HTTP',
        { orgServerFqdn: null },
        "type fields: 'orgServerFqdn' is required if type is 'HTTP'",
      ],
      [
        'initialDispersion zero',
        { initialDispersion: 0 },
        "type fields: 'initialDispersion' must be greater than zero",
      ],
      [
        'reserved consistent-hash parameter',
        { consistentHashQueryParams: ['format'] },
        "type fields: 'consistentHashQueryParams' 'format' cannot be used in consistent hashing, because it is reserved for use by Traffic Router",
      ],
      [
        'first header rewrite without a topology',
        { firstHeaderRewrite: 'x' },
        'cannot set firstHeaderRewrite, innerHeaderRewrite, or lastHeaderRewrite unless this delivery service is assigned to a Topology. Use edgeHeaderRewrite and/or midHeaderRewrite instead',
      ],
    ];
    it.each(cases)('refuses %s', async (_name, overrides, text) => {
      await refused(ds, overrides, 400, `${INVALID}${text}`);
    });

    it('refuses a type of another table', async () => {
      await refused(
        ds,
        { typeId: await typeIdOf(admin, 'EDGE') },
        400,
        `${INVALID}type fields: type is not a valid deliveryservice type`,
      );
    });

    it('joins several problems in schema order (D7)', async () => {
      await refused(
        ds,
        { displayName: '', dscp: -1, xmlId: 'a b', missLat: 100 },
        400,
        `${INVALID}'displayName' cannot be blank, 'dscp' must be no less than 0, 'xmlId' cannot contain spaces, type fields: 'missLat' Must be a floating point number within the range +-90`,
      );
    });

    it('refuses an unknown topology or service category', async () => {
      await refused(ds, { topology: 'top' }, 400, "no such Topology 'top'");
      await refused(ds, { serviceCategory: 'no-such-category' }, 404, 'service_category not found');
    });

    it('refuses an unknown profile with the foreign key', async () => {
      await refused(ds, { profileId: 99999999 }, 404, 'profile not found');
    });

    it('refuses wrong JSON types and malformed JSON', async () => {
      await refused(ds, { active: 'yes' }, 400, "'active' must be a boolean");
      const res = await admin.raw('put', `deliveryservices/${ds.id}`, '{"xmlId"');
      expectMalformedJson(res);
    });

    it('refuses an unknown 5.0 active state', async () => {
      const v5 = responseOf<Ds[]>(await admin.at('5.0').get(`deliveryservices?id=${ds.id}`))[0];
      const res = await admin.at('5.0').put(`deliveryservices/${ds.id}`, bodyOf(v5, { active: 'ON' }));
      expectError(res, 400, 'invalid enum value ON for field ds_active_state.');
    });
  });

  describe('longDesc1, longDesc2 and cacheurl', () => {
    it('are refused on 4.x and 5.0', async () => {
      const ds = await createDeliveryService(admin, cdn.id);
      await refused(
        ds,
        { longDesc1: 'x' },
        400,
        'the longDesc1 and longDesc2 fields are no longer supported in API 4.0 onwards',
      );
      const v5 = responseOf<Ds[]>(await admin.at('5.0').get(`deliveryservices?id=${ds.id}`))[0];
      expectError(
        await admin.at('5.0').put(`deliveryservices/${ds.id}`, bodyOf(v5, { longDesc2: 'y' })),
        400,
        'the longDesc1 and longDesc2 fields are no longer supported in API 4.0 onwards',
      );
    });
    it('are written on 3.x and kept by 4.x updates', async () => {
      const ds = await createDeliveryService(admin, cdn.id, { tlsVersions: ['1.3'] });
      const v3 = responseOf<Ds[]>(await admin.at('3.0').get(`deliveryservices?id=${ds.id}`))[0];
      const res = await admin
        .at('3.0')
        .put(`deliveryservices/${ds.id}`, bodyOf(v3, { longDesc1: 'one', longDesc2: 'two', cacheurl: 'c' }));
      expect(res.status).toBe(200);
      expect(responseOf<Ds[]>(await admin.at('3.0').get(`deliveryservices?id=${ds.id}`))[0]).toMatchObject({
        longDesc1: 'one',
        longDesc2: 'two',
        cacheurl: 'c',
      });
      expect((await fetch(ds.id)).tlsVersions).toEqual(['1.3']);
      expect((await put(await fetch(ds.id), { displayName: 'v4 update' })).status).toBe(200);
      expect(responseOf<Ds[]>(await admin.at('3.0').get(`deliveryservices?id=${ds.id}`))[0]).toMatchObject({
        longDesc1: 'one',
        displayName: 'v4 update',
      });
    });
  });

  it('names, on 4.0, the permissions the user lacks; 3.0 does not check them', async () => {
    const ds = await createDeliveryService(admin, cdn.id);
    const reader = await createUser(app, admin, await createRole(admin, ['DELIVERY-SERVICE:READ']));
    expectError(
      await put(ds, {}, reader.client),
      403,
      'missing required Permissions: DELIVERY-SERVICE:UPDATE, CDN:READ, TYPE:READ',
    );
    const v3 = responseOf<Ds[]>(await admin.at('3.0').get(`deliveryservices?id=${ds.id}`))[0];
    expect((await reader.client.at('3.0').put(`deliveryservices/${ds.id}`, bodyOf(v3))).status).toBe(200);
  });
});
