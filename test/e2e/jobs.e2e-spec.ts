import { DataSource } from 'typeorm';
import type { InvalidationJobV3, InvalidationJobV4 } from 'src/modules/jobs/dto/job.response';
import { ApiClient, responseOf } from 'test/e2e/support/api';
import { type CreatedUser, createTenant, createUser } from 'test/e2e/support/accounts';
import { expectError, expectErrors, expectMalformedJson } from 'test/e2e/support/alerts';
import { expectOk } from 'test/e2e/support/headers';
import { createDeliveryService } from 'test/e2e/support/fixtures/delivery-services-api';
import type { DeliveryServiceResponse } from 'test/e2e/support/fixtures/delivery-services-api';
import {
  assignParameter,
  createCdn,
  createParameter,
  createProfile,
} from 'test/e2e/support/fixtures/profiles';
import { createServer } from 'test/e2e/support/fixtures/servers';
import { useApp } from 'test/e2e/support/suite';

const V4 = ['4.0', '4.1', '5.0'];
const V3 = ['3.0', '3.1'];
const HOUR = 3600_000;
const ORIGIN = 'http://origin.example.net';

/** A whole second `hours` from now (the database keeps what the API shows). */
const inHours = (hours: number): Date => new Date(Math.ceil((Date.now() + hours * HOUR) / 1000) * 1000);
/** Go's time.Time String() of a UTC time without fractional seconds. */
const goTime = (date: Date): string => `${date.toISOString().slice(0, 19).replace('T', ' ')} +0000 UTC`;
/** The 3.x wire form of a time (the envelope's `YYYY-MM-DD HH:MM:SS+00`). */
const legacyTime = (date: Date): string => `${date.toISOString().slice(0, 19).replace('T', ' ')}+00`;

interface AlertsBody {
  alerts: { text: string; level: string }[];
}

describe('jobs (content invalidation)', () => {
  const { app, admin, portal, readOnly } = useApp({ users: { portal: 'portal', readOnly: 'read-only' } });
  let outsider: CreatedUser;
  let cdn: { id: number; name: string };
  let ds: DeliveryServiceResponse;

  const jobCount = async () =>
    Number((await app.get(DataSource).query<{ n: number | string }[]>('SELECT COUNT(*) AS n FROM job'))[0].n);
  const createJob = async (
    overrides: Record<string, unknown> = {},
    client: ApiClient = admin,
  ): Promise<InvalidationJobV4> => {
    const res = await client.at('4.0').post('jobs', {
      deliveryService: ds.xmlId,
      regex: `/${Math.random().toString(36).slice(2)}/.*`,
      startTime: inHours(1).toISOString(),
      ttlHours: 24,
      invalidationType: 'REFRESH',
      ...overrides,
    });
    if (res.status !== 200) {
      throw new Error(`creating a job failed: ${res.status} ${res.text}`);
    }
    return responseOf<InvalidationJobV4>(res);
  };
  const setStart = (id: number, start: Date) =>
    app
      .get(DataSource)
      .query('UPDATE job SET start_time = ? WHERE id = ?', [
        start.toISOString().replace('T', ' ').replace('Z', ''),
        id,
      ]);

  beforeAll(async () => {
    outsider = await createUser(app, admin, 'operations', (await createTenant(admin)).id);
    cdn = await createCdn(admin);
    ds = await createDeliveryService(admin, cdn.id);
  });

  describe('POST jobs (4.0+)', () => {
    it('creates a job on the primary origin and answers it with the original text, on every version', async () => {
      for (const version of V4) {
        const start = inHours(2);
        const regex = `/create-${version}/.*`;
        const res = await portal.client.at(version).post('jobs', {
          deliveryService: ds.xmlId,
          regex,
          startTime: start.toISOString(),
          ttlHours: 72,
          invalidationType: 'REFRESH',
        });
        expectOk(res);
        expect(res.headers.location).toMatch(
          new RegExp(
            `^http://127\\.0\\.0\\.1:\\d+/api/${version}/jobs\\?id=${responseOf<InvalidationJobV4>(res).id}$`,
          ),
        );
        const end = new Date(start.getTime() + 72 * HOUR);
        expect(res.body).toEqual({
          alerts: [
            {
              text: `Invalidation (REFRESH) request created for ${ORIGIN}${regex}, start:${goTime(start)} end ${goTime(end)}`,
              level: 'success',
            },
          ],
          response: {
            id: expect.any(Number) as number,
            assetUrl: `${ORIGIN}${regex}`,
            createdBy: portal.username,
            deliveryService: ds.xmlId,
            ttlHours: 72,
            invalidationType: 'REFRESH',
            startTime: start.toISOString(),
          },
        });
      }
    });

    it('warns of an overlapping job for the same asset', async () => {
      const first = await createJob({ regex: '/dup/.*', startTime: inHours(1).toISOString(), ttlHours: 2 });
      const start = inHours(2);
      const res = await admin.post('jobs', {
        deliveryService: ds.xmlId,
        regex: '/dup/.*',
        startTime: start.toISOString(),
        ttlHours: 2,
        invalidationType: 'REFRESH',
      });
      expect(res.status).toBe(200);
      const firstStart = new Date(first.startTime);
      expect((res.body as AlertsBody).alerts[0]).toEqual({
        text: `Invalidation request duplicate found for ${ORIGIN}/dup/.*, start:${goTime(firstStart)} end:${goTime(new Date(firstStart.getTime() + 2 * HOUR))}`,
        level: 'warning',
      });
      expect((res.body as AlertsBody).alerts[1].level).toBe('success');
    });

    it("refuses bad input with the original's texts and writes nothing", async () => {
      const before = await jobCount();
      expectError(
        await admin.post('jobs', {}),
        400,
        'deliveryService: cannot be blank; invalidationType: cannot be blank; regex: cannot be blank; ' +
          'startTime: cannot be blank; ttlHours: cannot be blank., startTime: must be in the future',
      );
      expectError(
        await admin.post('jobs', {
          deliveryService: ds.xmlId,
          regex: 'no-slash(',
          startTime: inHours(-1).toISOString(),
          ttlHours: 2161,
          invalidationType: 'refresh',
        }),
        400,
        "invalidationType: must be either REFRESH or REFETCH (case sensitive); regex: must start with '/' (or '\\/')., " +
          'regex: is not a valid Regular Expression: Invalid regular expression: /no-slash(/: Unterminated group, ' +
          'startTime: must be in the future, TTL is invalid: cannot exceed 2160',
      );
      expectError(
        await admin.post('jobs', {
          deliveryService: ds.xmlId,
          regex: '/x',
          startTime: inHours(1).toISOString(),
          ttlHours: 1,
          invalidationType: 'REFETCH',
        }),
        400,
        "invalidationType is not allowed since 'refetch_enabled' parameter doesn't exists or the value is not set to a case-insensitive 'true'",
      );
      for (const body of [
        { ttlHours: '1' },
        { ttlHours: -1 },
        { ttlHours: 2 ** 32 },
        { startTime: 1 },
        { startTime: '2030-01-01 00:00:00' },
        { deliveryService: 7 },
        [],
      ]) {
        expectError(await admin.post('jobs', body), 400, 'Unable to parse Invalidation Job');
      }
      expectMalformedJson(await admin.raw('post', 'jobs', '{"regex": '));
      expect(await jobCount()).toBe(before);
    });

    it('answers 404 for a delivery service missing or out of reach', async () => {
      const body = {
        regex: '/x',
        startTime: inHours(1).toISOString(),
        ttlHours: 1,
        invalidationType: 'REFRESH',
      };
      await expectErrors([
        [
          admin.post('jobs', { ...body, deliveryService: 'no-such-ds' }),
          404,
          'failed to authorize based on tenancy',
        ],
        [
          outsider.client.post('jobs', { ...body, deliveryService: ds.xmlId }),
          404,
          'failed to authorize based on tenancy',
        ],
      ]);
    });

    it('accepts REFETCH when the refetch_enabled GLOBAL parameter is true', async () => {
      const param = await admin.post('parameters', {
        name: 'refetch_enabled',
        configFile: 'global',
        value: ' TRUE ',
        secure: false,
      });
      expect(param.status).toBe(200);
      try {
        const job = await createJob({ invalidationType: 'REFETCH' });
        expect(job.invalidationType).toBe('REFETCH');
      } finally {
        await admin.delete(`parameters/${responseOf<{ id: number }>(param).id}`);
      }
    });
  });

  it("flags the servers of the delivery service's CDN that apply jobs: config updates, or revalidations with use_reval_pending", async () => {
    const otherCdn = await createCdn(admin);
    const target = await createDeliveryService(admin, otherCdn.id);
    const profile = await createProfile(admin, otherCdn.id);
    const location = await createParameter(admin, {
      name: 'location',
      configFile: 'regex_revalidate.config',
      value: '/etc/trafficserver',
    });
    await assignParameter(admin, profile.id, location.id);
    const applying = await createServer(admin, otherCdn.id, { profileName: profile.name });
    const offline = await createServer(admin, otherCdn.id, {
      profileName: profile.name,
      statusName: 'OFFLINE',
    });
    const other = await createServer(admin, otherCdn.id);
    // Pending: queued (update time) later than applied (apply time); both start at the epoch (D132).
    const flags = async (id: number) => {
      const [row] = await app
        .get(DataSource)
        .query<{ cu: Date | string; ca: Date | string; ru: Date | string; ra: Date | string }[]>(
          'SELECT config_update_time AS cu, config_apply_time AS ca, revalidate_update_time AS ru, ' +
            'revalidate_apply_time AS ra FROM server WHERE id = ?',
          [id],
        );
      const ms = (t: Date | string) =>
        new Date(typeof t === 'string' && !t.includes('Z') ? `${t}Z` : t).getTime();
      return { config: ms(row.cu) > ms(row.ca), revalidate: ms(row.ru) > ms(row.ra) };
    };
    await createJob({ deliveryService: target.xmlId });
    expect(await flags(applying.id)).toEqual({ config: true, revalidate: false });
    expect(await flags(offline.id)).toEqual({ config: false, revalidate: false });
    expect(await flags(other.id)).toEqual({ config: false, revalidate: false });
    const param = await createParameter(admin, {
      name: 'use_reval_pending',
      configFile: 'global',
      value: '1',
    });
    try {
      await createJob({ deliveryService: target.xmlId });
      expect(await flags(applying.id)).toEqual({ config: true, revalidate: true });
    } finally {
      await admin.delete(`parameters/${param.id}`);
    }
  });

  describe('POST jobs (3.x)', () => {
    it('takes the delivery service by id or xmlId and the TTL in hours or as a duration', async () => {
      for (const version of V3) {
        const start = inHours(3);
        const res = await admin.at(version).post('jobs', {
          deliveryService: ds.id,
          regex: `/legacy-${version}/.*`,
          startTime: start.getTime(),
          ttl: '121m',
        });
        expectOk(res);
        expect(res.body).toEqual({
          alerts: [
            {
              text: `Invalidation request created for ${ORIGIN}/legacy-${version}/.*, start:${goTime(start)} end ${goTime(new Date(start.getTime() + 2 * HOUR))}`,
              level: 'success',
            },
          ],
          response: {
            assetUrl: `${ORIGIN}/legacy-${version}/.*`,
            createdBy: 'admin',
            deliveryService: ds.xmlId,
            id: expect.any(Number) as number,
            keyword: 'PURGE',
            parameters: 'TTL:2h',
            startTime: legacyTime(start),
          },
        });
      }
      const byName = await admin.at('3.0').post('jobs', {
        deliveryService: ds.xmlId,
        regex: '/by-name',
        startTime: legacyTime(inHours(1)),
        ttl: 5,
      });
      expect(responseOf<InvalidationJobV3>(byName).parameters).toBe('TTL:5h');
    });

    it("refuses bad input with the original's texts", async () => {
      const v3 = admin.at('3.0');
      const before = await jobCount();
      await expectErrors([
        [
          v3.post('jobs', {}),
          400,
          'deliveryService: cannot be blank; regex: cannot be blank; ttl: cannot be blank., startTime: cannot be blank',
        ],
        [
          v3.post('jobs', {
            deliveryService: 999999,
            regex: '/x',
            startTime: inHours(1).getTime(),
            ttl: '30m',
          }),
          400,
          "No Delivery Service exists matching identifier: 999999, ttl: must be a number of hours, or a duration string e.g. '48h'",
        ],
        [
          v3.post('jobs', {
            deliveryService: 'nope',
            regex: '/x',
            startTime: inHours(1).getTime(),
            ttl: 2161,
          }),
          400,
          'No DeliveryService exists matching identifier: nope, ttl: cannot exceed 2160!',
        ],
        [v3.post('jobs', { startTime: true }), 400, 'Unable to parse Invalidation Job'],
      ]);
      expect(await jobCount()).toBe(before);
    });

    it('answers 404 for a delivery service out of reach', async () => {
      expectError(
        await outsider.client
          .at('3.0')
          .post('jobs', { deliveryService: ds.id, regex: '/x', startTime: inHours(1).getTime(), ttl: 1 }),
        404,
        'No such Delivery Service!',
      );
    });
  });

  describe('GET jobs', () => {
    it('answers each version its shape, filtered by the original filters', async () => {
      const other = await createDeliveryService(admin, cdn.id);
      const job = await createJob({ deliveryService: other.xmlId, ttlHours: 5 }, portal.client);
      for (const version of V4) {
        const res = expectOk(await readOnly.client.at(version).get(`jobs?id=${job.id}`));
        expect(res.body).toEqual({ response: [job] });
      }
      for (const version of V3) {
        expect(responseOf(await admin.at(version).get(`jobs?id=${job.id}`))).toEqual([
          {
            assetUrl: job.assetUrl,
            createdBy: portal.username,
            deliveryService: other.xmlId,
            id: job.id,
            keyword: 'PURGE',
            parameters: 'TTL:5h',
            startTime: legacyTime(new Date(job.startTime)),
          },
        ]);
      }
      const ids = async (query: string) =>
        responseOf<InvalidationJobV4[]>(await admin.get(`jobs?${query}`)).map((j) => j.id);
      expect(await ids(`dsId=${other.id}`)).toEqual([job.id]);
      expect(await ids(`deliveryService=${other.xmlId}`)).toEqual([job.id]);
      expect(await ids(`createdBy=${portal.username}&dsId=${other.id}`)).toEqual([job.id]);
      expect(await ids(`userId=${portal.id}&dsId=${other.id}`)).toEqual([job.id]);
      expect(await ids(`assetUrl=${encodeURIComponent(job.assetUrl)}`)).toEqual([job.id]);
      expect(await ids(`cdn=${cdn.name}&dsId=${other.id}`)).toEqual([job.id]);
      expect(await ids(`cdn=no-such-cdn`)).toEqual([]);
      expect(await ids(`invalidationType=REFETCH&dsId=${other.id}`)).toEqual([]);
      expectError(await admin.get('jobs?dsId=x'), 400, 'dsId cannot parse to integer');
    });

    it('maxRevalDurationDays keeps only the jobs started within the GLOBAL window (90 days)', async () => {
      const old = await createJob();
      const recent = await createJob();
      await setStart(old.id, new Date(Date.now() - 91 * 24 * HOUR));
      const ids = responseOf<InvalidationJobV4[]>(await admin.get('jobs?maxRevalDurationDays')).map(
        (j) => j.id,
      );
      expect(ids).toContain(recent.id);
      expect(ids).not.toContain(old.id);
      expect(responseOf<InvalidationJobV4[]>(await admin.get('jobs')).map((j) => j.id)).toContain(old.id);
    });

    it('leaves out the jobs of delivery services out of reach', async () => {
      const job = await createJob();
      expect(responseOf(await outsider.client.get(`jobs?id=${job.id}`))).toEqual([]);
    });

    it('answers 304 to If-Modified-Since when no job changed', async () => {
      await createJob();
      const res = await admin
        .get('jobs')
        .set('If-Modified-Since', new Date(Date.now() + 60_000).toUTCString());
      expect(res.status).toBe(304);
    });
  });

  describe('PUT jobs?id= (4.0+)', () => {
    const bodyOf = (job: InvalidationJobV4, changes: Record<string, unknown> = {}) => ({
      ...job,
      ...changes,
    });

    it('replaces the TTL, start, asset URL and type, on every version', async () => {
      for (const version of V4) {
        const job = await createJob({}, portal.client);
        const start = inHours(5);
        const res = await portal.client
          .at(version)
          .put(
            `jobs?id=${job.id}`,
            bodyOf(job, { ttlHours: 10, startTime: start.toISOString(), assetUrl: `${job.assetUrl}x` }),
          );
        expectOk(res);
        const end = new Date(start.getTime() + 10 * HOUR);
        expect(res.body).toEqual({
          alerts: [
            {
              text: `Invalidation request created for ${job.assetUrl}x, start: ${goTime(start)} end: ${goTime(end)} invalidation type: REFRESH`,
              level: 'success',
            },
          ],
          response: { ...job, ttlHours: 10, startTime: start.toISOString(), assetUrl: `${job.assetUrl}x` },
        });
      }
    });

    it('refuses what cannot change, and bad bodies, writing nothing', async () => {
      const job = await createJob();
      const put = (body: unknown, id: number | string = job.id) => admin.put(`jobs?id=${id}`, body);
      expectError(
        await put(bodyOf(job, { deliveryService: 'other' })),
        409,
        "Cannot change 'deliveryService' of existing invalidation job!",
      );
      expectError(
        await put(bodyOf(job, { createdBy: 'someone' })),
        409,
        "Cannot change 'createdBy' of existing invalidation jobs!",
      );
      expectError(
        await put(bodyOf(job, { id: job.id + 1000 })),
        409,
        "Cannot change an invalidation job 'id'!",
      );
      expectError(
        await put(bodyOf(job, { assetUrl: 'http://elsewhere.example.net/x' })),
        400,
        `Cannot set asset URL that does not start with Delivery Service origin URL: ${ORIGIN}`,
      );
      expectError(
        await put(bodyOf(job, { startTime: inHours(49).toISOString() })),
        400,
        'startTime: must be within two days from now',
      );
      expectError(
        await put(bodyOf(job, { startTime: inHours(-1).toISOString() })),
        400,
        'startTime: cannot be in the past',
      );
      expectError(
        await put({ id: job.id }),
        400,
        'assetUrl: cannot be blank; createdBy: cannot be blank; deliveryService: cannot be blank; ' +
          'invalidationType: cannot be blank; startTime: cannot be blank; ttlHours: cannot be blank., startTime: cannot be blank',
      );
      expectError(
        await put(bodyOf(job, { invalidationType: 'REFETCH' })),
        400,
        'Invalidation Type REFETCH is disallowed',
      );
      expectError(
        await put(bodyOf(job, { id: 'x' })),
        400,
        'Unable to parse input: json: cannot unmarshal string into Go struct field InvalidationJobV4.id of type uint64',
      );
      expectMalformedJson(await admin.raw('put', `jobs?id=${job.id}`, '{'));
      expectError(
        await admin.put('jobs', job),
        400,
        'required parameters missing: missing required parameters: id',
      );
      expectError(await put(job, 'x'), 400, "getting integer parameters: parameter 'id' not an integer");
      expectError(await put(job, 999999), 404, "No job by id '999999'!");
      expect(responseOf(await admin.get(`jobs?id=${job.id}`))).toEqual([job]);
    });

    it('refuses a job that has started (405) and one out of reach (404)', async () => {
      const job = await createJob();
      expectError(await outsider.client.put(`jobs?id=${job.id}`, job), 404, 'No such Delivery Service!');
      await setStart(job.id, new Date(Date.now() - HOUR));
      const started = responseOf<InvalidationJobV4[]>(await admin.get(`jobs?id=${job.id}`))[0];
      const res = await admin.put(`jobs?id=${job.id}`, { ...started, startTime: inHours(1).toISOString() });
      expectError(res, 405, 'Cannot modify a job that has already started!');
      expect(res.headers.allow).toBe('GET,HEAD,DELETE');
    });

    it('answers 412 when the job changed since If-Unmodified-Since', async () => {
      const job = await createJob();
      const res = await admin
        .put(`jobs?id=${job.id}`, job)
        .set('If-Unmodified-Since', new Date(Date.now() - 3600_000).toUTCString());
      expectError(res, 412, 'resource was modified since the time specified by the request headers');
    });
  });

  describe('PUT jobs?id= (3.x)', () => {
    it('replaces the job from its 3.x shape, the TTL from parameters', async () => {
      const job = await createJob();
      const [legacy] = responseOf<InvalidationJobV3[]>(await admin.at('3.0').get(`jobs?id=${job.id}`));
      const start = inHours(4);
      const res = await admin
        .at('3.0')
        .put(`jobs?id=${job.id}`, { ...legacy, parameters: 'TTL:6h', startTime: legacyTime(start) });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        alerts: [
          {
            text: `Invalidation request created for ${job.assetUrl}, start:${goTime(start)} end ${goTime(new Date(start.getTime() + 6 * HOUR))}`,
            level: 'success',
          },
        ],
        response: { ...legacy, parameters: 'TTL:6h', startTime: legacyTime(start) },
      });
      expectError(
        await admin
          .at('3.0')
          .put(`jobs?id=${job.id}`, { ...legacy, parameters: 'six hours', startTime: legacyTime(start) }),
        400,
        "parameters: must be of the form 'TTL:<hours>h'",
      );
      expectError(await admin.at('3.0').put('jobs', legacy), 404, "No job by id ''!");
    });
  });

  describe('DELETE jobs?id=', () => {
    it('deletes a job and answers it, on every version', async () => {
      for (const version of [...V3, ...V4]) {
        const job = await createJob({}, portal.client);
        const res = expectOk(await portal.client.at(version).delete(`jobs?id=${job.id}`));
        expect(res.body).toEqual({
          alerts: [{ text: 'Content invalidation job was deleted', level: 'success' }],
          response: version.startsWith('3')
            ? {
                assetUrl: job.assetUrl,
                createdBy: portal.username,
                deliveryService: ds.xmlId,
                id: job.id,
                keyword: 'PURGE',
                parameters: 'TTL:24h',
                startTime: legacyTime(new Date(job.startTime)),
              }
            : job,
        });
        expect(responseOf(await admin.get(`jobs?id=${job.id}`))).toEqual([]);
      }
    });

    it('answers 404 for a missing job or one out of reach, 400 for a bad id', async () => {
      const job = await createJob();
      await expectErrors([
        [admin.delete('jobs?id=999999'), 404, "No job by id '999999'!"],
        [outsider.client.delete(`jobs?id=${job.id}`), 404, 'No such Delivery Service!'],
        [admin.delete('jobs'), 400, 'required parameters missing: missing required parameters: id'],
      ]);
      expect(responseOf(await admin.get(`jobs?id=${job.id}`))).toEqual([job]);
    });

    it('deleting the delivery service deletes its jobs', async () => {
      const other = await createDeliveryService(admin, cdn.id);
      const job = await createJob({ deliveryService: other.xmlId });
      expect((await admin.delete(`deliveryservices/${other.id}`)).status).toBe(200);
      expect(responseOf(await admin.get(`jobs?id=${job.id}`))).toEqual([]);
    });
  });
});
