import { DataSource } from 'typeorm';
import { responseOf, uniqueName } from 'test/e2e/support/api';
import { type CreatedUser, createRole, createUser } from 'test/e2e/support/accounts';
import { expectError, expectErrors, expectMalformedJson } from 'test/e2e/support/alerts';
import { expectOk } from 'test/e2e/support/headers';
import { CUSTOM_TIME } from 'test/e2e/support/times';
import { typeIdOf } from 'test/e2e/support/fixtures/cachegroups';
import { createDeliveryService, deliveryServiceBody } from 'test/e2e/support/fixtures/delivery-services-api';
import type { DeliveryServiceResponse } from 'test/e2e/support/fixtures/delivery-services-api';
import { createCdn, createProfile } from 'test/e2e/support/fixtures/profiles';
import { createServer } from 'test/e2e/support/fixtures/servers';
import { useApp } from 'test/e2e/support/suite';

type Ds = DeliveryServiceResponse;

describe('deliveryservices (GET, POST, DELETE)', () => {
  const { app, admin } = useApp();
  let dataSource: DataSource;
  let readOnly: CreatedUser;
  let cdn: { id: number; name: string };
  let httpType: number;

  const list = async (query: string, client = admin): Promise<Ds[]> => {
    const res = await client.get(`deliveryservices?${query}`);
    expect(res.status).toBe(200);
    return responseOf<Ds[]>(res);
  };
  const byXmlId = async (xmlId: string, version = '4.0') => list(`xmlId=${xmlId}`, admin.at(version));
  const count = async (sql: string, params: unknown[]): Promise<number> =>
    Number((await dataSource.query<{ n: number | string }[]>(sql, params))[0].n);

  beforeAll(async () => {
    dataSource = app.get(DataSource);
    readOnly = await createUser(app, admin, 'read-only');
    cdn = await createCdn(admin);
    httpType = await typeIdOf(admin, 'HTTP');
  });

  describe('POST /deliveryservices', () => {
    it('creates the row, its host regex, primary origin, TLS versions and query params in one go', async () => {
      const body = deliveryServiceBody(cdn.id, httpType, {
        orgServerFqdn: 'https://origin.example.net:8443',
        tlsVersions: ['1.2', '1.3'],
        consistentHashQueryParams: ['b', 'a'],
        protocol: 2,
        geoLimit: 2,
        geoLimitCountries: 'us, ca',
      });
      const res = expectOk(await admin.post('deliveryservices', body));
      const alerts = (res.body as { alerts: unknown[] }).alerts;
      expect(alerts).toEqual([
        {
          text: "setting TLS Versions that are explicitly supported may break older clients that can't use the specified versions",
          level: 'warning',
        },
        { text: 'Delivery Service creation was successful', level: 'success' },
      ]);
      const [ds] = responseOf<Ds[]>(res);
      const xmlId = body.xmlId as string;
      expect(ds).toMatchObject({
        xmlId,
        active: true,
        cdnId: cdn.id,
        cdnName: cdn.name,
        type: 'HTTP',
        typeId: httpType,
        tenantId: 1,
        tenant: 'root',
        orgServerFqdn: 'https://origin.example.net:8443',
        tlsVersions: ['1.2', '1.3'],
        consistentHashQueryParams: ['a', 'b'],
        geoLimitCountries: ['US', 'CA'],
        matchList: [{ type: 'HOST_REGEXP', setNumber: 0, pattern: `.*\\.${xmlId}\\..*` }],
        exampleURLs: [
          `http://cdn.${xmlId}.${cdn.name}.example.net`,
          `https://cdn.${xmlId}.${cdn.name}.example.net`,
        ],
        signed: false,
        deepCachingType: 'NEVER',
        lastUpdated: expect.stringMatching(CUSTOM_TIME),
      });
      expect(ds).not.toHaveProperty('longDesc1');
      const origins = await dataSource.query<
        { name: string; fqdn: string; protocol: string; port: number }[]
      >('SELECT name, fqdn, protocol, port, is_primary FROM origin WHERE deliveryservice = ?', [ds.id]);
      expect(origins).toEqual([
        expect.objectContaining({ name: xmlId, fqdn: 'origin.example.net', protocol: 'https', port: 8443 }),
      ]);
      expect(await byXmlId(xmlId)).toEqual([ds]);
    });

    it('answers the object itself on 5.0 and an array with the 3.x shape on 3.0', async () => {
      const v5 = await admin
        .at('5.0')
        .post('deliveryservices', deliveryServiceBody(cdn.id, httpType, { active: 'PRIMED' }));
      expect(v5.status).toBe(200);
      expect(responseOf<Ds>(v5)).toMatchObject({
        active: 'PRIMED',
        requiredCapabilities: [],
        regional: false,
      });
      const v3 = await admin
        .at('3.0')
        .post(
          'deliveryservices',
          deliveryServiceBody(cdn.id, httpType, { longDesc1: 'one', geoLimit: 1, geoLimitCountries: 'DE' }),
        );
      expect(v3.status).toBe(200);
      const [ds] = responseOf<Ds[]>(v3);
      expect(ds).toMatchObject({ longDesc1: 'one', geoLimitCountries: 'DE', active: true, cacheurl: null });
      expect(ds).not.toHaveProperty('tlsVersions');
      expect(ds).not.toHaveProperty('maxRequestHeaderBytes');
    });

    it('refuses a taken xmlId with the unique index text, writing nothing', async () => {
      const ds = await createDeliveryService(admin, cdn.id);
      const res = await admin.post(
        'deliveryservices',
        deliveryServiceBody(cdn.id, httpType, { xmlId: ds.xmlId }),
      );
      expectError(res, 400, `deliveryservice xml_id '${ds.xmlId}' already exists.`);
      expect(await byXmlId(ds.xmlId)).toHaveLength(1);
      expect(
        await count('SELECT COUNT(*) AS n FROM regex WHERE pattern = ?', [`.*\\.${ds.xmlId}\\..*`]),
      ).toBe(1);
    });

    it('requires a tenant', async () => {
      const body = deliveryServiceBody(cdn.id, httpType, { tenantId: undefined });
      const res = await admin.post('deliveryservices', body);
      expectError(res, 400, "invalid request: 'tenantId' cannot be blank");
      expect(await byXmlId(body.xmlId as string)).toEqual([]);
    });

    it('refuses an empty or missing xmlId', async () => {
      await expectErrors([
        [
          admin.post('deliveryservices', deliveryServiceBody(cdn.id, httpType, { xmlId: '' })),
          400,
          "invalid request: 'xmlId' cannot be blank",
        ],
        [
          admin.post('deliveryservices', deliveryServiceBody(cdn.id, httpType, { xmlId: null })),
          400,
          "invalid request: 'xmlId' cannot be blank",
        ],
      ]);
    });

    it('refuses TLS versions on a STEERING delivery service', async () => {
      const steering = await typeIdOf(admin, 'STEERING');
      const res = await admin.post(
        'deliveryservices',
        deliveryServiceBody(cdn.id, steering, { tlsVersions: ['1.3'] }),
      );
      expectError(
        res,
        400,
        "invalid request: type fields: 'tlsVersions' must be 'null' for STEERING-Type and CLIENT_STEERING-Type Delivery Services",
      );
    });

    it('refuses longDesc1/longDesc2 on 4.0 and 5.0', async () => {
      for (const version of ['4.0', '5.0']) {
        const body = deliveryServiceBody(cdn.id, httpType, {
          longDesc2: 'two',
          active: version === '5.0' ? 'ACTIVE' : true,
        });
        const res = await admin.at(version).post('deliveryservices', body);
        expectError(
          res,
          400,
          'the longDesc1 and longDesc2 fields are no longer supported in API 4.0 onwards',
        );
        expect(await byXmlId(body.xmlId as string)).toEqual([]);
      }
    });

    it('refuses an unknown 5.0 active state', async () => {
      const body = deliveryServiceBody(cdn.id, httpType, { active: 'SLEEPING' });
      expectError(
        await admin.at('5.0').post('deliveryservices', body),
        400,
        'invalid enum value SLEEPING for field ds_active_state.',
      );
      expect(await byXmlId(body.xmlId as string)).toEqual([]);
    });

    it('refuses an unknown topology, and an unknown service category with its foreign key', async () => {
      await expectErrors([
        [
          admin.post('deliveryservices', deliveryServiceBody(cdn.id, httpType, { topology: 'mytopology' })),
          400,
          "no such Topology 'mytopology'",
        ],
        [
          admin.post(
            'deliveryservices',
            deliveryServiceBody(cdn.id, httpType, { serviceCategory: 'no-such-category' }),
          ),
          404,
          'service_category not found',
        ],
      ]);
    });

    it('answers the foreign keys for an unknown CDN or profile', async () => {
      await expectErrors([
        [admin.post('deliveryservices', deliveryServiceBody(99999999, httpType)), 404, 'cdn not found'],
        [
          admin.post('deliveryservices', deliveryServiceBody(cdn.id, httpType, { profileId: 99999999 })),
          404,
          'profile not found',
        ],
      ]);
    });

    it('accepts a profile and shows its name and description', async () => {
      const profile = await createProfile(admin, cdn.id);
      const ds = await createDeliveryService(admin, cdn.id, { profileId: profile.id });
      expect(ds).toMatchObject({
        profileId: profile.id,
        profileName: profile.name,
        profileDescription: profile.description,
      });
    });

    it('refuses wrong JSON types and malformed JSON', async () => {
      expectError(
        await admin.post('deliveryservices', deliveryServiceBody(cdn.id, httpType, { dscp: 'zero' })),
        400,
        "'dscp' must be an integer",
      );
      const res = await admin.raw('post', 'deliveryservices', '{"xmlId":');
      expectMalformedJson(res);
      expectError(await admin.post('deliveryservices', [1]), 400, 'the request body must be a JSON object');
    });
  });

  describe('GET /deliveryservices', () => {
    let dses: Ds[];
    let otherCdn: { id: number; name: string };

    beforeAll(async () => {
      otherCdn = await createCdn(admin);
      dses = [
        await createDeliveryService(admin, otherCdn.id, { logsEnabled: true, active: true }),
        await createDeliveryService(admin, otherCdn.id, { signingAlgorithm: 'url_sig', active: false }),
        await createDeliveryService(admin, otherCdn.id, { typeId: await typeIdOf(admin, 'DNS') }),
      ];
    });

    it('lists ordered by xmlId with the API headers', async () => {
      const res = expectOk(await readOnly.client.get(`deliveryservices?cdn=${otherCdn.id}`));
      const xmlIds = responseOf<Ds[]>(res).map((d) => d.xmlId);
      expect(xmlIds).toEqual(dses.map((d) => d.xmlId).sort());
    });

    it('filters by id, xmlId, xml_id, type, logsEnabled, signingAlgorithm, tenant, profile and active', async () => {
      const [logged, signed, dns] = dses;
      const q = `cdn=${otherCdn.id}`;
      expect((await list(`${q}&id=${dns.id}`)).map((d) => d.id)).toEqual([dns.id]);
      expect((await list(`xml_id=${dns.xmlId}`)).map((d) => d.id)).toEqual([dns.id]);
      expect((await list(`${q}&type=${dns.typeId}`)).map((d) => d.id)).toEqual([dns.id]);
      expect((await list(`${q}&logsEnabled=true`)).map((d) => d.id)).toEqual([logged.id]);
      expect((await list(`${q}&signingAlgorithm=url_sig`)).map((d) => d.id)).toEqual([signed.id]);
      expect((await list(`${q}&tenant=1`)).length).toBe(3);
      expect(await list(`${q}&profile=99999999`)).toEqual([]);
      expect((await list(`${q}&active=false`)).map((d) => d.id)).toEqual([signed.id]);
      expect((await list(`${q}&active=true`)).map((d) => d.id).sort()).toEqual([logged.id, dns.id].sort());
      const v5 = responseOf<Ds[]>(await admin.at('5.0').get(`deliveryservices?${q}&active=PRIMED`));
      expect(v5.map((d) => d.id)).toEqual([signed.id]);
      expect(v5[0].active).toBe('PRIMED');
      expect(signed.signed).toBe(true);
    });

    it('answers 400 for filters that do not parse', async () => {
      await expectErrors([
        [admin.get('deliveryservices?id=x'), 400, 'id cannot parse to integer'],
        [admin.get('deliveryservices?active=maybe'), 400, 'active cannot parse to boolean'],
        [
          admin.at('5.0').get('deliveryservices?active=true'),
          400,
          "active illegal value 'true' must be one of 'ACTIVE', 'INACTIVE', or 'PRIMED'",
        ],
        [admin.get('deliveryservices?accessibleTo=x'), 400, 'accessibleTo cannot parse to integer'],
      ]);
    });

    it('orders, sorts and pages', async () => {
      const q = `cdn=${otherCdn.id}`;
      const all = (await list(`${q}&orderby=id`)).map((d) => d.id);
      expect(all).toEqual([...all].sort((a, b) => a - b));
      const desc = (await list(`${q}&orderby=id&sortOrder=desc`)).map((d) => d.id);
      expect(desc).toEqual([...all].reverse());
      expect((await list(`${q}&orderby=id&limit=1`)).map((d) => d.id)).toEqual([all[0]]);
      expect((await list(`${q}&orderby=id&limit=1&offset=1`)).map((d) => d.id)).toEqual([all[1]]);
      expect((await list(`${q}&orderby=id&limit=1&page=3`)).map((d) => d.id)).toEqual([all[2]]);
      await expectErrors([
        [admin.get('deliveryservices?limit=-2'), 400, 'limit parameter must be bigger than -1'],
        [admin.get('deliveryservices?limit=1&offset=0'), 400, 'offset parameter must be a positive integer'],
        [admin.get('deliveryservices?limit=1&page=0'), 400, 'page parameter must be a positive integer'],
      ]);
    });

    it('shows the record per version', async () => {
      const [ds] = dses;
      const [v3] = await byXmlId(ds.xmlId, '3.0');
      expect(v3).toMatchObject({ geoLimitCountries: '', cacheurl: null, active: true });
      expect(v3).not.toHaveProperty('maxRequestHeaderBytes');
      const [v31] = await byXmlId(ds.xmlId, '3.1');
      expect(v31.maxRequestHeaderBytes).toBe(0);
      const [v40] = await byXmlId(ds.xmlId, '4.0');
      expect(v40).toMatchObject({ tlsVersions: null, geoLimitCountries: null });
      expect(v40).not.toHaveProperty('regional');
      const [v41] = await byXmlId(ds.xmlId, '4.1');
      expect(v41).toMatchObject({ regional: false, requiredCapabilities: [] });
      const [v5] = await byXmlId(ds.xmlId, '5.0');
      expect(v5).toMatchObject({ active: 'ACTIVE', lastUpdated: expect.stringMatching(CUSTOM_TIME) });
    });

    it('has GET /deliveryservices/{id} on 3.x only', async () => {
      const [ds] = dses;
      const res = await admin.at('3.1').get(`deliveryservices/${ds.id}`);
      expect(res.status).toBe(200);
      expect(responseOf<Ds[]>(res).map((d) => d.id)).toEqual([ds.id]);
      expect(responseOf(await admin.at('3.0').get('deliveryservices/99999999'))).toEqual([]);
      expect((await admin.at('4.0').get(`deliveryservices/${ds.id}`)).status).toBe(404);
    });
  });

  describe('DELETE /deliveryservices/{id}', () => {
    it('deletes the delivery service, its regexes, origins, location parameters and server links', async () => {
      const ds = await createDeliveryService(admin, cdn.id);
      const server = await createServer(admin, cdn.id);
      await dataSource.query('INSERT INTO deliveryservice_server (deliveryservice, server) VALUES (?, ?)', [
        ds.id,
        server.id,
      ]);
      const params = [
        `hdr_rw_${ds.xmlId}.config`,
        `regex_remap_${ds.xmlId}.config`,
        `other_${ds.xmlId}.config`,
      ];
      for (const configFile of params) {
        const res = await admin.post('parameters', {
          name: 'location',
          configFile,
          value: '/etc/trafficserver',
          secure: false,
        });
        expect(res.status).toBe(200);
      }
      const res = expectOk(await admin.delete(`deliveryservices/${ds.id}`));
      expect(res.body).toEqual({
        alerts: [
          { text: 'ds was deleted.', level: 'success' },
          {
            text: 'Perform a CDN snapshot then queue updates on all servers in the cdn for the changes to take effect.',
            level: 'info',
          },
        ],
      });
      expect(await byXmlId(ds.xmlId)).toEqual([]);
      expect(
        await count('SELECT COUNT(*) AS n FROM regex WHERE pattern = ?', [`.*\\.${ds.xmlId}\\..*`]),
      ).toBe(0);
      expect(await count('SELECT COUNT(*) AS n FROM origin WHERE deliveryservice = ?', [ds.id])).toBe(0);
      expect(
        await count('SELECT COUNT(*) AS n FROM deliveryservice_server WHERE deliveryservice = ?', [ds.id]),
      ).toBe(0);
      const left = await dataSource.query<
        {
          config_file: string;
        }[]
      >('SELECT config_file FROM parameter WHERE config_file IN (?, ?, ?)', params);
      expect(left.map((p) => p.config_file)).toEqual([`other_${ds.xmlId}.config`]);
    });

    it('answers 404 for a missing delivery service (D8) and 400 for a bad id', async () => {
      await expectErrors([
        [admin.delete('deliveryservices/99999999'), 404, 'delivery service not found'],
        [admin.delete('deliveryservices/abc'), 400, 'failed to parse key: id'],
      ]);
    });

    it('names, on 4.0, the permissions the user lacks; 3.0 does not check them', async () => {
      const ds = await createDeliveryService(admin, cdn.id);
      const reader = await createUser(
        app,
        admin,
        await createRole(admin, ['DELIVERY-SERVICE:READ', 'CDN:READ', 'TYPE:READ']),
      );
      expectError(
        await reader.client.delete(`deliveryservices/${ds.id}`),
        403,
        'missing required Permissions: DELIVERY-SERVICE:DELETE',
      );
      expect(await byXmlId(ds.xmlId)).toHaveLength(1);
      expect((await reader.client.at('3.0').delete(`deliveryservices/${ds.id}`)).status).toBe(200);
    });
  });

  it('uses unique names', () => {
    expect(uniqueName('ds')).not.toEqual(uniqueName('ds'));
  });
});
