import { DataSource } from 'typeorm';
import { signHs256 } from 'src/modules/cdni/cdni-token';
import type { CdniAdvertisementWire, CdniConfigurationRequestV4 } from 'src/modules/cdni/dto/cdni.response';
import { responseOf, uniqueName } from 'test/e2e/support/api';
import { type CreatedUser, createRole, createUser } from 'test/e2e/support/accounts';
import { expectError, expectErrors, expectMalformedJson } from 'test/e2e/support/alerts';
import { expectApiHeaders, expectOk } from 'test/e2e/support/headers';
import { RFC3339_TIME } from 'test/e2e/support/times';
import request from 'supertest';
import type { App } from 'supertest/types';
import {
  ADMIN_PASSWORD,
  CDNI_DCDN_ID,
  CDNI_JWT_DECODING_SECRET,
  USER_PASSWORD,
} from 'test/e2e/support/constants';
import { useApp } from 'test/e2e/support/suite';

const ACCEPTED =
  /^CDNi configuration update request received\. Status updates can be found here: \/api\/4\.0\/async_status\/(\d+)$/;

/** A token as a uCDN would send it: signed with the shared key, for this dCDN, valid for an hour. */
function tokenFor(claims: Record<string, unknown>, secret = CDNI_JWT_DECODING_SECRET): string {
  return signHs256({ aud: CDNI_DCDN_ID, exp: Math.floor(Date.now() / 1000) + 3600, ...claims }, secret);
}

const requestedLimits = (limitValue: unknown, footprints: unknown[]) => [
  {
    'generic-metadata-type': 'MI.RequestedCapacityLimits',
    'generic-metadata-value': {
      'requested-limits': [{ 'limit-type': 'egress', 'limit-value': limitValue, footprints }],
    },
  },
];

describe('CDNi (OC/FCI/advertisement, OC/CI/configuration…)', () => {
  const { app, admin } = useApp();
  let dataSource: DataSource;
  let ucdnUser: CreatedUser;
  let ucdn: string, host: string;
  let capacityId: number;
  let telemetryId: string, metricName: string;

  const bearer = (token: string) => `Bearer ${token}`;
  const counts = async () => {
    const [updates] = await dataSource.query<{ n: number | string }[]>(
      'SELECT COUNT(*) AS n FROM cdni_capability_updates',
    );
    const [statuses] = await dataSource.query<{ n: number | string }[]>(
      'SELECT COUNT(*) AS n FROM async_status',
    );
    return { updates: Number(updates.n), statuses: Number(statuses.n) };
  };
  const limits = async () =>
    (
      await dataSource.query<{ limit_id: string; maximum_hard: number | string }[]>(
        'SELECT limit_id, maximum_hard FROM cdni_limits WHERE capability_id = ? ORDER BY id',
        [capacityId],
      )
    ).map((row) => [row.limit_id, Number(row.maximum_hard)]);
  const statusOf = async (id: number) =>
    (
      await dataSource.query<{ status: string; message: string; end_time: unknown }[]>(
        'SELECT status, message, end_time FROM async_status WHERE id = ?',
        [id],
      )
    ).map((row) => ({ status: row.status, message: row.message, ended: row.end_time !== null }))[0];

  /** Queues a configuration request as the uCDN; answers its status id. */
  async function queue(body: unknown, path = 'OC/CI/configuration'): Promise<number> {
    const res = await ucdnUser.client
      .at('5.0')
      .put(path, body)
      .set('Authorization', bearer(tokenFor({ iss: ucdn })));
    expect(res.status).toBe(202);
    const text = (res.body as { alerts: { text: string }[] }).alerts[0].text;
    return Number(ACCEPTED.exec(text)![1]);
  }

  const requestIdOf = async (asyncStatusId: number): Promise<number> =>
    responseOf<CdniConfigurationRequestV4[]>(await admin.at('5.0').get('OC/CI/configuration/requests')).find(
      (r) => r.asyncStatusId === asyncStatusId,
    )!.id;

  beforeAll(async () => {
    dataSource = app.get(DataSource);
    ucdn = uniqueName('ucdn');
    host = `${uniqueName('host')}.example.com`;
    const role = await createRole(admin, ['CDNI-CAPACITY:READ', 'CDNI-CAPACITY:UPDATE']);
    ucdnUser = await createUser(app, admin, role);
    await dataSource.query('UPDATE tm_user SET ucdn = ? WHERE id = ?', [ucdn, ucdnUser.id]);

    // What the operators configure for the uCDN: a capacity capability with a total and a host limit,
    // and a telemetry capability with one source and one metric.
    await dataSource.query('INSERT INTO cdni_capabilities (type, ucdn) VALUES (?, ?)', [
      'FCI.CapacityLimits',
      ucdn,
    ]);
    await dataSource.query('INSERT INTO cdni_capabilities (type, ucdn) VALUES (?, ?)', [
      'FCI.Telemetry',
      ucdn,
    ]);
    const caps = await dataSource.query<{ id: number; type: string }[]>(
      'SELECT id, type FROM cdni_capabilities WHERE ucdn = ? ORDER BY id',
      [ucdn],
    );
    capacityId = Number(caps[0].id);
    const telemetryCapabilityId = Number(caps[1].id);
    for (const capabilityId of [capacityId, telemetryCapabilityId]) {
      await dataSource.query(
        'INSERT INTO cdni_footprints (footprint_type, footprint_value, ucdn, capability_id) VALUES (?, ?, ?, ?)',
        ['ipv4cidr', JSON.stringify(['127.0.0.1', '127.0.0.2']), ucdn, capabilityId],
      );
    }
    await dataSource.query(
      'INSERT INTO cdni_footprints (footprint_type, footprint_value, ucdn, capability_id) VALUES (?, ?, ?, ?)',
      ['countrycode', JSON.stringify(['us']), ucdn, capacityId],
    );
    telemetryId = uniqueName('telemetry');
    metricName = uniqueName('metric');
    await dataSource.query(
      'INSERT INTO cdni_telemetry (id, type, capability_id, configuration_url) VALUES (?, ?, ?, ?)',
      [telemetryId, 'generic', telemetryCapabilityId, 'https://telemetry.example.com'],
    );
    await dataSource.query(
      'INSERT INTO cdni_telemetry_metrics (name, time_granularity, data_percentile, latency, telemetry_id) VALUES (?, ?, ?, ?, ?)',
      [metricName, 60, 95, 30, telemetryId],
    );
    await dataSource.query(
      'INSERT INTO cdni_limits (limit_id, scope_type, scope_value, limit_type, maximum_hard, maximum_soft, telemetry_id, telemetry_metric, capability_id) ' +
        'VALUES (?, NULL, NULL, ?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [
        'total_egress',
        'egress',
        10000,
        8000,
        telemetryId,
        metricName,
        capacityId,
        'host_requests',
        'published-host',
        JSON.stringify([host]),
        'requests',
        20,
        15,
        telemetryId,
        metricName,
        capacityId,
      ],
    );
  });

  const advertisement = (): CdniAdvertisementWire => ({
    capabilities: [
      {
        'capability-type': 'FCI.CapacityLimits',
        'capability-value': [
          {
            limits: [
              {
                id: 'total_egress',
                'limit-type': 'egress',
                'maximum-hard': 10000,
                'maximum-soft': 8000,
                'telemetry-source': { id: telemetryId, metric: metricName },
              },
              {
                id: 'host_requests',
                scope: { type: 'published-host', value: [host] },
                'limit-type': 'requests',
                'maximum-hard': 20,
                'maximum-soft': 15,
                'telemetry-source': { id: telemetryId, metric: metricName },
              },
            ],
          },
        ],
        footprints: [
          { 'footprint-type': 'ipv4cidr', 'footprint-value': ['127.0.0.1', '127.0.0.2'] },
          { 'footprint-type': 'countrycode', 'footprint-value': ['us'] },
        ],
      },
      {
        'capability-type': 'FCI.Telemetry',
        'capability-value': {
          sources: [
            {
              id: telemetryId,
              type: 'generic',
              metrics: [{ name: metricName, 'time-granularity': 60, 'data-percentile': 95, latency: 30 }],
              configuration: { url: 'https://telemetry.example.com' },
            },
          ],
        },
        footprints: [{ 'footprint-type': 'ipv4cidr', 'footprint-value': ['127.0.0.1', '127.0.0.2'] }],
      },
    ],
  });

  describe('GET OC/FCI/advertisement', () => {
    it.each(['4.0', '4.1', '5.0'])(
      'answers the uCDN its capabilities, without the envelope, on %s',
      async (version) => {
        const res = await ucdnUser.client
          .at(version)
          .get('OC/FCI/advertisement')
          .set('Authorization', bearer(tokenFor({ iss: ucdn })));
        expectOk(res);
        expect(res.body).toEqual(advertisement());
      },
    );

    it('reads the token from the access_token cookie too', async () => {
      const res = await ucdnUser.client
        .at('5.0')
        .get('OC/FCI/advertisement')
        .set('Cookie', `${ucdnUser.client.cookie}; access_token=${tokenFor({ iss: ucdn })}`);
      expect(res.body).toEqual(advertisement());
    });

    it("takes the token sign-in sets in the access_token cookie (the portal's way)", async () => {
      const cookiesOf = async (username: string, password: string) => {
        const res = await request(app.getHttpServer() as App)
          .post('/api/5.0/user/login')
          .send({ u: username, p: password });
        const cookies = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
        const token = cookies.find((c) => c.startsWith('access_token='));
        expect(token).toMatch(/; Max-Age=21600;.*HttpOnly/);
        return cookies.map((c) => c.split(';')[0]).join('; ');
      };
      const ucdnCookies = await cookiesOf(ucdnUser.username, USER_PASSWORD);
      const own = await request(app.getHttpServer() as App)
        .get('/api/5.0/OC/FCI/advertisement')
        .set('Cookie', ucdnCookies);
      expect(own.body).toEqual(advertisement());
      const adminCookies = await cookiesOf('admin', ADMIN_PASSWORD);
      const overridden = await request(app.getHttpServer() as App)
        .get(`/api/5.0/OC/FCI/advertisement?ucdn=${ucdn}`)
        .set('Cookie', adminCookies);
      expect(overridden.body).toEqual(advertisement());
    });

    it('answers a user without a uCDN who may override it the uCDN of ?ucdn=', async () => {
      const token = tokenFor({ iss: '' });
      const res = await admin
        .at('5.0')
        .get(`OC/FCI/advertisement?ucdn=${ucdn}`)
        .set('Authorization', bearer(token));
      expect(res.body).toEqual(advertisement());
      const none = await admin
        .at('5.0')
        .get('OC/FCI/advertisement?ucdn=nobody')
        .set('Authorization', bearer(token));
      expect(none.body).toEqual({ capabilities: [] });
      expectError(
        await admin.at('5.0').get('OC/FCI/advertisement').set('Authorization', bearer(token)),
        400,
        'admin level ucdn requests require a ucdn query parameter',
      );
    });

    it('refuses a missing, forged, expired or misaddressed token with the original texts', async () => {
      const get = (authorization?: string) => {
        const req = ucdnUser.client.at('5.0').get('OC/FCI/advertisement');
        return authorization === undefined ? req : req.set('Authorization', authorization);
      };
      expectError(await get(), 400, 'bearer token is required');
      expectError(await get('Bearer'), 400, 'bearer token is required');
      expectError(await get(bearer('not-a-token')), 400, 'invalid token: failed to parse token');
      expectError(
        await get(bearer(tokenFor({ iss: ucdn }, `${CDNI_JWT_DECODING_SECRET}-other`))),
        400,
        'invalid token: failed to verify signature',
      );
      const [header, , signature] = tokenFor({ iss: ucdn }).split('.');
      const otherPayload = Buffer.from(JSON.stringify({ iss: 'someone-else', aud: CDNI_DCDN_ID })).toString(
        'base64url',
      );
      expectError(
        await get(bearer(`${header}.${otherPayload}.${signature}`)),
        400,
        'invalid token: failed to verify signature',
      );
      const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${otherPayload}.`;
      expectError(await get(bearer(unsigned)), 400, 'invalid token: the token is not signed with HS256');
      expectError(await get(bearer(tokenFor({ iss: ucdn, exp: 1000 }))), 400, 'token is expired');
      expectError(await get(bearer(tokenFor({ iss: ucdn, exp: undefined }))), 400, 'token is expired');
      expectError(
        await get(bearer(tokenFor({ iss: ucdn, aud: undefined }))),
        400,
        'invalid token - dcdn must be defined in audience claim',
      );
      expectError(
        await get(bearer(tokenFor({ iss: ucdn, aud: 'other-dcdn' }))),
        400,
        'invalid token - incorrect dcdn',
      );
      expectError(
        await get(bearer(tokenFor({ iss: 'other-ucdn' }))),
        400,
        'user ucdn did not match token ucdn',
      );
    });

    it('refuses a user without a uCDN and without the override an empty issuer', async () => {
      const role = await createRole(admin, ['CDNI-CAPACITY:READ']);
      const plain = await createUser(app, admin, role);
      expectError(
        await plain.client
          .at('5.0')
          .get('OC/FCI/advertisement')
          .set('Authorization', bearer(tokenFor({ iss: '' }))),
        400,
        'invalid token - empty ucdn field',
      );
    });

    it('does not exist before 4.0', async () => {
      const res = await admin.at('3.1').get('OC/FCI/advertisement');
      expect(res.status).toBe(404);
    });
  });

  describe('PUT OC/CI/configuration and OC/CI/configuration/{host}', () => {
    it('queues the request with a PENDING status and answers 202 with where the status is', async () => {
      const before = await counts();
      const metadata = requestedLimits(20000, []);
      const res = await ucdnUser.client
        .at('5.0')
        .put('OC/CI/configuration', { type: 'MI.HostMetadata', host: 'example.com', metadata })
        .set('Authorization', bearer(tokenFor({ iss: ucdn })));
      expect(res.status).toBe(202);
      expectApiHeaders(res);
      expect(res.body).toEqual({ alerts: [{ text: expect.stringMatching(ACCEPTED), level: 'success' }] });
      const asyncStatusId = Number(
        ACCEPTED.exec((res.body as { alerts: { text: string }[] }).alerts[0].text)![1],
      );
      expect(res.headers.location).toBe(`/api/4.0/async_status/${asyncStatusId}`);
      expect(await counts()).toEqual({ updates: before.updates + 1, statuses: before.statuses + 1 });
      expect(await statusOf(asyncStatusId)).toEqual({
        status: 'PENDING',
        message: 'CDNi configuration update request received.',
        ended: false,
      });
      const listed = expectOk(await admin.at('5.0').get('OC/CI/configuration/requests'));
      const request = responseOf<CdniConfigurationRequestV4[]>(listed).find(
        (r) => r.asyncStatusId === asyncStatusId,
      );
      expect(request).toEqual({
        id: expect.any(Number),
        ucdn,
        data: metadata,
        host: 'example.com',
        requestType: 'MI.HostMetadata',
        asyncStatusId,
      });
      expect(responseOf(await admin.at('4.0').get(`OC/CI/configuration/requests?id=${request!.id}`))).toEqual(
        [request],
      );
      expect(responseOf(await admin.at('4.0').get('OC/CI/configuration/requests?id=999999'))).toEqual([]);
    });

    it("queues a host's request when a limit's scope lists the host", async () => {
      const asyncStatusId = await queue(
        { host: 'ignored.example.com', 'host-metadata': { metadata: requestedLimits(30, []) } },
        `OC/CI/configuration/${host}`,
      );
      expect(await statusOf(asyncStatusId)).toEqual({
        status: 'PENDING',
        message: 'CDNi host configuration update request received.',
        ended: false,
      });
      const request = responseOf<CdniConfigurationRequestV4[]>(
        await admin.at('5.0').get('OC/CI/configuration/requests'),
      ).find((r) => r.asyncStatusId === asyncStatusId);
      expect([request?.host, request?.requestType]).toEqual([host, 'hostConfigUpdate']);
    });

    it('refuses an unknown host before anything else, and bad bodies, writing nothing', async () => {
      const before = await counts();
      const put = (path: string, body: unknown) =>
        ucdnUser.client
          .at('5.0')
          .put(path, body)
          .set('Authorization', bearer(tokenFor({ iss: ucdn })));
      await expectErrors([
        [
          ucdnUser.client.at('5.0').put('OC/CI/configuration/no-such-host.example', {}),
          400,
          'No data found for host: no-such-host.example',
        ],
        [ucdnUser.client.at('5.0').put('OC/CI/configuration', {}), 400, 'bearer token is required'],
      ]);
      expectError(await put('OC/CI/configuration', [1]), 400, 'the request body must be a JSON object');
      expectError(await put('OC/CI/configuration', {}), 400, "'metadata' is required");
      expectError(
        await put('OC/CI/configuration', { type: 5, metadata: null, host: [] }),
        400,
        "'type' must be a string, 'metadata' is required, 'host' must be a string",
      );
      expectError(
        await put('OC/CI/configuration', { metadata: 'x'.repeat(70000) }),
        400,
        "'metadata' the length must be no more than 65535",
      );
      expectError(await put(`OC/CI/configuration/${host}`, {}), 400, "'host-metadata' is required");
      expectError(
        await put(`OC/CI/configuration/${host}`, { host: 1, 'host-metadata': [] }),
        400,
        "'host' must be a string, 'host-metadata' must be an object",
      );
      expectError(
        await put(`OC/CI/configuration/${host}`, { 'host-metadata': {} }),
        400,
        "'host-metadata.metadata' is required",
      );
      expectMalformedJson(
        await ucdnUser.client
          .at('5.0')
          .raw('put', 'OC/CI/configuration', '{"metadata":')
          .set('Authorization', bearer(tokenFor({ iss: ucdn }))),
      );
      expect(await counts()).toEqual(before);
    });
  });

  describe('GET async_status/{id}', () => {
    it('answers the progress of a queued request where the Location said, to operations too', async () => {
      const asyncStatusId = await queue({ metadata: requestedLimits(1, []) });
      const operations = await createUser(app, admin, 'operations');
      const res = expectOk(await operations.client.at('5.0').get(`async_status/${asyncStatusId}`));
      expect(res.body).toEqual({
        response: {
          id: asyncStatusId,
          status: 'PENDING',
          start_time: expect.stringMatching(RFC3339_TIME),
          message: 'CDNi configuration update request received.',
        },
      });
      await admin.at('5.0').put(`OC/CI/configuration/request/${await requestIdOf(asyncStatusId)}/false`);
      const done = await admin.at('4.0').get(`async_status/${asyncStatusId}`);
      expect(done.body).toEqual({
        response: {
          id: asyncStatusId,
          status: 'FAILED',
          start_time: expect.stringMatching(RFC3339_TIME),
          end_time: expect.stringMatching(RFC3339_TIME),
          message: 'Requested configuration update has been denied.',
        },
      });
      await expectErrors([
        [admin.get('async_status/999999'), 404, 'Not Found'],
        [admin.get('async_status/abc'), 400, "getting integer parameters: parameter 'id' not an integer"],
      ]);
    });
  });

  describe('GET OC/CI/configuration/requests', () => {
    it('refuses an id that is not an integer', async () => {
      expectError(
        await admin.at('5.0').get('OC/CI/configuration/requests?id=abc'),
        400,
        'id must be an integer',
      );
    });
  });

  describe('PUT OC/CI/configuration/request/{id}/{approved}', () => {
    const respond = (id: number | string, approved: string) =>
      admin.at('5.0').put(`OC/CI/configuration/request/${id}/${approved}`);

    it('applies an approved total limit, marks its status SUCCEEDED and drops the request', async () => {
      const footprints = [
        { 'footprint-type': 'countrycode', 'footprint-value': ['us'] },
        { 'footprint-type': 'ipv4cidr', 'footprint-value': ['127.0.0.1', '127.0.0.2'] },
      ];
      const asyncStatusId = await queue({
        type: 'MI.HostMetadata',
        metadata: requestedLimits(25000, footprints),
      });
      const id = await requestIdOf(asyncStatusId);
      const res = expectOk(await respond(id, 'true'));
      expect(res.body).toEqual({ response: 'Successfully updated configuration.' });
      expect(await limits()).toEqual([
        ['total_egress', 25000],
        ['host_requests', 20],
      ]);
      expect(await statusOf(asyncStatusId)).toEqual({
        status: 'SUCCEEDED',
        message: 'Capacity requested update has been completed.',
        ended: true,
      });
      expect(responseOf(await admin.at('5.0').get(`OC/CI/configuration/requests?id=${id}`))).toEqual([]);
    });

    it("applies an approved host's limit to the limit whose scope lists the host", async () => {
      const footprints = [
        { 'footprint-type': 'ipv4cidr', 'footprint-value': ['127.0.0.1', '127.0.0.2'] },
        { 'footprint-type': 'countrycode', 'footprint-value': ['us'] },
      ];
      const metadata = [
        {
          'generic-metadata-type': 'MI.RequestedCapacityLimits',
          'generic-metadata-value': {
            'requested-limits': [{ 'limit-type': 'requests', 'limit-value': 42, footprints }],
          },
        },
      ];
      const asyncStatusId = await queue({ 'host-metadata': { metadata } }, `OC/CI/configuration/${host}`);
      const res = await respond(await requestIdOf(asyncStatusId), 'T');
      expect(res.body).toEqual({ response: 'Successfully updated configuration.' });
      expect((await limits())[1]).toEqual(['host_requests', 42]);
    });

    it('denies a request: its status FAILED, the request dropped, nothing applied', async () => {
      const before = await limits();
      const asyncStatusId = await queue({ metadata: requestedLimits(1, []) });
      const res = await respond(await requestIdOf(asyncStatusId), 'false');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ response: 'Successfully denied configuration update request.' });
      expect(await statusOf(asyncStatusId)).toEqual({
        status: 'FAILED',
        message: 'Requested configuration update has been denied.',
        ended: true,
      });
      expect(await limits()).toEqual(before);
    });

    it('answers 412 to a precondition the queued request no longer meets, changing nothing', async () => {
      const asyncStatusId = await queue({ metadata: requestedLimits(1, []) });
      const id = await requestIdOf(asyncStatusId);
      expectError(
        await respond(id, 'false').set('If-Unmodified-Since', 'Mon, 01 Jan 2001 00:00:00 GMT'),
        412,
        'resource was modified since the time specified by the request headers',
      );
      expect((await statusOf(asyncStatusId)).status).toBe('PENDING');
      expect(
        responseOf<unknown[]>(await admin.at('5.0').get(`OC/CI/configuration/requests?id=${id}`)),
      ).toHaveLength(1);
    });

    it('refuses bad parameters and unknown requests', async () => {
      expectError(await respond(999999, 'true'), 404, 'no configuration request for that id');
      expectError(await respond(1, 'yes'), 400, 'approved parameter must be a boolean');
      expectError(
        await respond('abc', 'true'),
        400,
        "getting integer parameters: parameter 'id' not an integer",
      );
    });

    it.each([
      [
        'an unsupported metadata type',
        [{ 'generic-metadata-type': 'MI.Other' }, { 'generic-metadata-type': 'MI.Else' }],
        400,
        'unsupported generic metadata types found: MI.Other, MI.Else',
      ],
      [
        'data that is no list',
        { 'generic-metadata-type': 'MI.RequestedCapacityLimits' },
        400,
        'unmarshalling data for configuration update: data must be an array',
      ],
      [
        'a limit value that is no integer',
        requestedLimits(1.5, [{ 'footprint-type': 'countrycode', 'footprint-value': ['us'] }]),
        400,
        `unmarshalling data for configuration update: limit-value must be an integer between ${Number.MIN_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER}`,
      ],
      [
        'footprints no capability has',
        requestedLimits(5, [{ 'footprint-type': 'countrycode', 'footprint-value': ['ca'] }]),
        404,
        'no capabilities found that match all footprints: [{countrycode [ca] 0}]',
      ],
    ])('refuses to apply %s, changing nothing', async (_name, metadata, status, text) => {
      const before = await limits();
      const asyncStatusId = await queue({ metadata });
      const id = await requestIdOf(asyncStatusId);
      expectError(await respond(id, 'true'), status, text);
      expect(await limits()).toEqual(before);
      expect((await statusOf(asyncStatusId)).status).toBe('PENDING');
      expect(
        responseOf<unknown[]>(await admin.at('5.0').get(`OC/CI/configuration/requests?id=${id}`)),
      ).toHaveLength(1);
    });

    it('refuses, changing nothing, when no limit of the type exists for the host', async () => {
      const before = await limits();
      const footprints = [
        { 'footprint-type': 'ipv4cidr', 'footprint-value': ['127.0.0.1', '127.0.0.2'] },
        { 'footprint-type': 'countrycode', 'footprint-value': ['us'] },
      ];
      const asyncStatusId = await queue(
        { 'host-metadata': { metadata: requestedLimits(7, footprints) } },
        `OC/CI/configuration/${host}`,
      );
      expectError(
        await respond(await requestIdOf(asyncStatusId), 'true'),
        404,
        `no capacity found for update: host: ${host}, type: MI.RequestedCapacityLimits, limit: {egress 7 [{ipv4cidr [127.0.0.1 127.0.0.2] 0} {countrycode [us] 0}]}`,
      );
      expect(await limits()).toEqual(before);
    });
  });
});

describe('CDNi without its settings', () => {
  const { admin } = useApp({
    env: { CDNI_DCDN_ID: undefined, CDNI_JWT_DECODING_SECRET: undefined },
    version: '5.0',
  });

  it('answers 500 to the uCDN routes, as the original without its cdni section', async () => {
    const token = tokenFor({ iss: '' });
    await expectErrors([
      [
        admin.get('OC/FCI/advertisement?ucdn=x').set('Authorization', `Bearer ${token}`),
        500,
        'Internal Server Error',
      ],
      [admin.put('OC/CI/configuration', { metadata: [] }), 500, 'Internal Server Error'],
    ]);
    expect((await admin.get('OC/CI/configuration/requests')).status).toBe(200);
  });
});
