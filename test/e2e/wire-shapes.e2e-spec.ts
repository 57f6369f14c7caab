import { responseOf, uniqueName } from 'test/e2e/support/api';
import { CUSTOM_TIME, RFC3339_TIME } from 'test/e2e/support/times';
import { createDeliveryService, deliveryServiceBody } from 'test/e2e/support/fixtures/delivery-services-api';
import { typeIdOf } from 'test/e2e/support/fixtures/cachegroups';
import {
  assignParameter,
  createCdn,
  createParameter,
  createProfile,
} from 'test/e2e/support/fixtures/profiles';
import { createServer } from 'test/e2e/support/fixtures/servers';
import {
  answered,
  ASN_V5,
  CACHEGROUP_V5,
  CDN_V5,
  DELIVERY_SERVICE_SERVER,
  DIVISION_V5,
  LOG_V5,
  PARAMETER_V5,
  PHYS_LOCATION_V5,
  PROFILE_PARAMETER_V5,
  PROFILE_V5,
  REGION_V5,
  ROLE_V30,
  ROLE_V4,
  SERVER_V30,
  SERVER_V40,
  SERVER_V5,
  STATUS_V5,
  TENANT_V5,
  TYPE_V5,
  USER_V30,
  USER_V4,
} from 'test/e2e/support/go-types';
import { useApp } from 'test/e2e/support/suite';

/**
 * Every resource × version answers the original's field set and timestamp format (lib/go-tc, D5b),
 * the specification's where it fixes one (D4), and with WIRE_COMPAT=traffic-ops the original's at
 * the points of D5a.
 */
type Json = Record<string, unknown>;
type Format = 'custom' | 'rfc3339';

const FORMATS: Record<Format, RegExp> = { custom: CUSTOM_TIME, rfc3339: RFC3339_TIME };

interface Shape {
  keys: string[];
  /** The format of `lastUpdated`; absent: the record has none. */
  time?: Format;
}
type Shapes = Record<'3.0' | '4.0' | '5.0', Shape>;

const same = (keys: string[], v3: Format, v4: Format, v5: Format): Shapes => ({
  '3.0': { keys, time: v3 },
  '4.0': { keys, time: v4 },
  '5.0': { keys, time: v5 },
});

/** Resources the specification describes: its custom format on every version (D4). */
const SPECIFIED: Record<string, Shapes> = {
  cdns: same(answered(CDN_V5), 'custom', 'custom', 'custom'),
  types: same(answered(TYPE_V5), 'custom', 'custom', 'custom'),
  regions: same(answered(REGION_V5), 'custom', 'custom', 'custom'),
  asns: same(answered(ASN_V5), 'custom', 'custom', 'custom'),
  parameters: same(answered(PARAMETER_V5), 'custom', 'custom', 'custom'),
  profileparameters: same(answered(PROFILE_PARAMETER_V5), 'custom', 'custom', 'custom'),
};

/** Resources outside the specification: the original's shapes (lib/go-tc …V50 types: RFC 3339 on 5.0). */
const ORIGINAL: Record<string, Shapes> = {
  divisions: same(answered(DIVISION_V5), 'custom', 'custom', 'rfc3339'),
  statuses: same(answered(STATUS_V5), 'custom', 'custom', 'rfc3339'),
  tenants: same(answered(TENANT_V5, ['parentName']), 'custom', 'custom', 'rfc3339'),
  phys_locations: same(answered(PHYS_LOCATION_V5), 'custom', 'custom', 'rfc3339'),
  cachegroups: same(answered(CACHEGROUP_V5), 'custom', 'custom', 'rfc3339'),
  profiles: same(answered(PROFILE_V5), 'custom', 'custom', 'rfc3339'),
  logs: same(answered(LOG_V5), 'custom', 'custom', 'rfc3339'),
  deliveryserviceserver: same(answered(DELIVERY_SERVICE_SERVER), 'custom', 'custom', 'rfc3339'),
  roles: {
    '3.0': { keys: answered(ROLE_V30) },
    '4.0': { keys: answered(ROLE_V4, ['lastUpdated']), time: 'rfc3339' },
    '5.0': { keys: answered(ROLE_V4, ['lastUpdated']), time: 'rfc3339' },
  },
  users: {
    '3.0': { keys: answered(USER_V30), time: 'custom' },
    '4.0': { keys: answered(USER_V4), time: 'rfc3339' },
    '5.0': { keys: answered(USER_V4), time: 'rfc3339' },
  },
  servers: {
    '3.0': { keys: answered(SERVER_V30), time: 'custom' },
    '4.0': { keys: answered(SERVER_V40), time: 'custom' },
    /**
     * The `omitempty` fields that are null here (ports, ILO, management) left out; the update and
     * apply times are never null (D132).
     */
    '5.0': {
      keys: answered(SERVER_V5, [
        'configApplyTime',
        'configUpdateTime',
        'profiles',
        'revalApplyTime',
        'revalUpdateTime',
        'statusLastUpdated',
      ]),
      time: 'rfc3339',
    },
  },
};

describe('wire shapes per resource and version (D4, D5a, D5b)', () => {
  const { admin } = useApp();
  /** Queries naming this suite's own records where a record's fields depend on its data. */
  const own: Record<string, string> = {};

  const first = async (path: string, version: string): Promise<Json> => {
    const res = await admin.at(version).get(own[path] ?? path);
    expect(res.status).toBe(200);
    const body = responseOf<Json[] | Json>(res);
    const record = Array.isArray(body) ? body[0] : body;
    expect(record).toBeDefined();
    return record;
  };

  const expectShape = (record: Json, shape: Shape) => {
    expect(Object.keys(record).sort()).toEqual([...shape.keys].sort());
    if (shape.time) {
      expect(record.lastUpdated).toMatch(FORMATS[shape.time]);
    }
  };

  beforeAll(async () => {
    const cdn = await createCdn(admin);
    const profile = await createProfile(admin, cdn.id);
    await assignParameter(admin, profile.id, (await createParameter(admin)).id);
    const server = await createServer(admin, cdn.id, { profileName: profile.name });
    own.servers = `servers?id=${server.id}`;
    const ds = await createDeliveryService(admin, cdn.id);
    expect(
      (await admin.post('deliveryserviceserver', { dsId: ds.id, servers: [server.id], replace: true }))
        .status,
    ).toBe(200);
    expect((await admin.post('asns', { asn: 64512, cachegroupId: server.cachegroupId })).status).toBe(200);
  });

  for (const [path, shapes] of Object.entries({ ...SPECIFIED, ...ORIGINAL })) {
    it.each(Object.entries(shapes))(`GET ${path} on %s`, async (version, shape) => {
      expectShape(await first(path, version), shape);
      // The minors answer as their major's first version.
      const minor = { '3.0': '3.1', '4.0': '4.1', '5.0': undefined }[version];
      if (minor && path !== 'cdns') {
        expectShape(await first(path, minor), shape);
      }
    });
  }

  it('GET user/current on 4.0 and 5.0 is the 4.x user with RFC 3339 times', async () => {
    for (const version of ['4.0', '5.0']) {
      expectShape(await first('user/current', version), { keys: answered(USER_V4), time: 'rfc3339' });
    }
  });

  it('writes a 4.x server’s status and update times in RFC 3339 beside its custom lastUpdated', async () => {
    const server = await first('servers', '4.0');
    expect(server.statusLastUpdated).toMatch(RFC3339_TIME);
    expect(server.lastUpdated).toMatch(CUSTOM_TIME);
  });

  it('GET deliveryservices keeps the custom lastUpdated on 5.0 (D4)', async () => {
    expect((await first('deliveryservices', '5.0')).lastUpdated).toMatch(CUSTOM_TIME);
  });
});

describe('WIRE_COMPAT=traffic-ops (D5a)', () => {
  const { admin } = useApp({ env: { WIRE_COMPAT: 'traffic-ops' } });

  it('writes the specified resources’ lastUpdated in RFC 3339 on 5.0 only', async () => {
    for (const path of Object.keys(SPECIFIED).filter((p) => p !== 'asns' && p !== 'profileparameters')) {
      const at5 = responseOf<Json[]>(await admin.at('5.0').get(path))[0];
      const at4 = responseOf<Json[]>(await admin.at('4.0').get(path))[0];
      expect(at5.lastUpdated).toMatch(RFC3339_TIME);
      expect(at4.lastUpdated).toMatch(CUSTOM_TIME);
    }
  });

  it("answers the original's 201 Created to the creations it answers so, from its version on (D2, D5a)", async () => {
    const cdnBody = () => {
      const name = uniqueName('cdn');
      return { name, domainName: `${name}.example.net`, dnssecEnabled: false };
    };
    expect((await admin.at('4.0').post('cdns', cdnBody())).status).toBe(200);
    const at5 = await admin.at('5.0').post('cdns', cdnBody());
    expect(at5.status).toBe(201);
    expect((at5.body as { alerts: Json[] }).alerts).toEqual([{ level: 'success', text: 'cdn was created.' }]);
    const cdn = await createCdn(admin);
    const typeId = await typeIdOf(admin, 'HTTP');
    expect((await admin.at('4.0').post('deliveryservices', deliveryServiceBody(cdn.id, typeId))).status).toBe(
      201,
    );
    // Failures keep their status.
    expect((await admin.at('5.0').post('cdns', {})).status).toBe(400);
    expect((await admin.at('4.0').post('deliveryservices', {})).status).toBe(400);
  });

  it("follows the original's geoLimit rules: countries may be missing or blank while geoLimit is not 0 (D38)", async () => {
    const cdn = await createCdn(admin);
    const typeId = await typeIdOf(admin, 'HTTP');
    const body = deliveryServiceBody(cdn.id, typeId, { geoLimit: 1 });
    delete (body as Json).geoLimitCountries;
    const res = await admin.at('4.0').post('deliveryservices', body);
    expect(res.status).toBe(201);
    const [ds] = responseOf<Json[]>(res);
    const updated = await admin
      .at('4.1')
      .put(`deliveryservices/${String(ds.id)}`, { ...body, geoLimitCountries: '', geoLimit: 2 });
    expect(updated.status).toBe(200);
    expect(responseOf<Json[]>(updated)[0]).toMatchObject({ geoLimit: 2 });
  });

  it('answers PUT deliveryservices/{id} with the updated record: an array before 5.0, the object on 5.0', async () => {
    const cdn = await createCdn(admin);
    const ds = await createDeliveryService(admin, cdn.id);
    const { id, lastUpdated: _l, exampleURLs: _e, ...sent } = ds as unknown as Json;
    for (const version of ['4.0', '5.0']) {
      const body = version === '5.0' ? { ...sent, active: 'ACTIVE', displayName: `v${version}` } : sent;
      const res = await admin.at(version).put(`deliveryservices/${String(id)}`, {
        ...body,
        displayName: `shown on ${version}`,
      });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      const json = res.body as { alerts: Json[]; response: Json | Json[] };
      expect(json.alerts).toContainEqual({
        level: 'success',
        text: 'Delivery Service update was successful',
      });
      const record = version === '5.0' ? (json.response as Json) : (json.response as Json[])[0];
      expect(Array.isArray(json.response)).toBe(version !== '5.0');
      expect(record).toMatchObject({ id, displayName: `shown on ${version}` });
      expect(record.lastUpdated).toMatch(version === '5.0' ? RFC3339_TIME : CUSTOM_TIME);
    }
  });

  it('answers the 5.0 safe update with the record itself, an array of one before', async () => {
    const cdn = await createCdn(admin);
    const ds = await createDeliveryService(admin, cdn.id);
    const at5 = await admin.at('5.0').put(`deliveryservices/${ds.id}/safe`, { displayName: 'five' });
    expect(at5.status).toBe(200);
    expect(responseOf<Json>(at5)).toMatchObject({ id: ds.id, displayName: 'five' });
    expect(Array.isArray(responseOf<Json>(at5))).toBe(false);
    const at4 = await admin.at('4.0').put(`deliveryservices/${ds.id}/safe`, { displayName: 'four' });
    expect(responseOf<Json[]>(at4)).toEqual([expect.objectContaining({ id: ds.id, displayName: 'four' })]);
  });
});
