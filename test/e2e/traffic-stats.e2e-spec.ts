import { createServer } from 'node:net';
import { DataSource } from 'typeorm';
import { ApiClient, responseOf, uniqueName } from 'test/e2e/support/api';
import { createTenant, createUser } from 'test/e2e/support/accounts';
import { expectError, expectErrors } from 'test/e2e/support/alerts';
import { expectApiHeaders } from 'test/e2e/support/headers';
import { createTestAppWithEnv } from 'test/e2e/support/app';
import { createDeliveryService } from 'test/e2e/support/fixtures/delivery-services-api';
import { createCdn } from 'test/e2e/support/fixtures/profiles';
import { describeWithInfluxDb, influxQuery, influxWrite } from 'test/e2e/support/influxdb';
import { useApp } from 'test/e2e/support/suite';
import type {
  TrafficDSStatsResponse,
  TrafficStatsResponse,
} from 'src/modules/stats/dto/traffic-stats.response';

const VERSIONS = ['3.0', '3.1', '4.0', '4.1', '5.0'];
const RANGE = 'startDate=2019-07-22T17:55:00Z&endDate=2019-07-22T18:55:00Z';
const q = encodeURIComponent;

const unavailable = (what: string, reason: string) => ({
  alerts: [{ text: `${what} statistics are unavailable: ${reason}`, level: 'warning' }],
  response: {},
});

describe('GET /cache_stats and /deliveryservice_stats', () => {
  describe('without InfluxDB (INFLUXDB_URL unset)', () => {
    const { app, admin } = useApp({ env: { INFLUXDB_URL: undefined } });
    let cdn: { id: number; name: string };
    let ds: { id: number; xmlId: string };
    let cacheQuery: string, dsQuery: string;

    beforeAll(async () => {
      cdn = await createCdn(admin);
      ds = await createDeliveryService(admin, cdn.id);
      cacheQuery = `cache_stats?cdnName=${q(cdn.name)}&metricType=bandwidth&${RANGE}`;
      dsQuery = `deliveryservice_stats?deliveryServiceName=${q(ds.xmlId)}&metricType=kbps&${RANGE}`;
    });

    it.each(VERSIONS)('answers 200 with a warning and neither part on %s', async (version) => {
      const cache = await admin.at(version).get(cacheQuery);
      expectApiHeaders(cache);
      expect({ status: cache.status, body: cache.body as unknown }).toEqual({
        status: 200,
        body: unavailable('cache', 'InfluxDB is not configured'),
      });
      const dsRes = await admin.at(version).get(dsQuery);
      expect({ status: dsRes.status, body: dsRes.body as unknown }).toEqual({
        status: 200,
        body: unavailable('delivery service', 'InfluxDB is not configured'),
      });
    });

    it('names the missing required parameters in order', async () => {
      await expectErrors([
        [
          admin.get('cache_stats'),
          400,
          'required parameters missing: missing required parameters: metricType, startDate, endDate, cdnName',
        ],
        [
          admin.get('cache_stats?metricType=bandwidth&endDate=1'),
          400,
          'required parameters missing: missing required parameters: startDate, cdnName',
        ],
        [
          admin.get('deliveryservice_stats?deliveryServiceName=x'),
          400,
          'required parameters missing: missing required parameters: metricType, startDate, endDate',
        ],
      ]);
    });

    it.each([
      ['limit=ten', 'Invalid limit!'],
      ['limit=-1', 'Invalid limit!'],
      ['limit=%2B1', 'Invalid limit!'],
      ['limit=9223372036854775808', 'Invalid limit!'],
      ['offset=1.5', 'Invalid offset!'],
      ['orderby=value', "Invalid orderby! Can only be 'time'"],
      [
        'interval=30s',
        'interval: must be a valid InfluxQL duration literal (resolution no less than minute)',
      ],
      ['interval=0m', 'interval: must be a valid InfluxQL duration literal (resolution no less than minute)'],
      [
        'interval=99999999999999w',
        'interval: must be a valid InfluxQL duration literal (resolution no less than minute)',
      ],
      [
        'interval=1m%0A',
        'interval: must be a valid InfluxQL duration literal (resolution no less than minute)',
      ],
      ['exclude=both', "Invalid exclude! Must be 'series' or 'summary'"],
    ])('400 for %s on both routes', async (param, text) => {
      expectError(await admin.get(`${cacheQuery}&${param}`), 400, text);
      expectError(await admin.get(`${dsQuery}&${param}`), 400, text);
    });

    it.each([
      ['yesterday', 'Invalid startDate!'],
      ['2019-02-29T00:00:00Z', 'Invalid startDate!'],
      ['2019-07-22T24:00:00Z', 'Invalid startDate!'],
      ['2019-07-22T17:55:00', 'Invalid startDate!'],
      ['2300-01-01T00:00:00Z', 'Invalid startDate!'],
      ['9223372036854775808', 'Invalid startDate!'],
      ['', 'Invalid startDate!'],
    ])('400 for startDate=%s', async (value, text) => {
      const path = `cache_stats?cdnName=${q(cdn.name)}&metricType=bandwidth&startDate=${q(value)}&endDate=1`;
      expectError(await admin.get(path), 400, text);
    });

    it.each([
      '2019-07-22T17:55:00Z',
      '2019-07-22T17:55:00.123456789Z',
      '2019-07-22T11:55:00-06:00',
      '2019-07-22 17:55:00+00',
      '1563818100000000000',
      '-5',
    ])('accepts startDate=%s', async (value) => {
      const path = `cache_stats?cdnName=${q(cdn.name)}&metricType=bandwidth&startDate=${q(value)}&endDate=x`;
      expectError(await admin.get(path), 400, 'Invalid endDate!');
    });

    it('checks the metric, then the CDN', async () => {
      const path = `cache_stats?cdnName=${q(cdn.name)}&${RANGE}`;
      await expectErrors([
        [admin.get(`${path}&metricType=kbps`), 400, 'Unknown metric type: kbps'],
        [
          admin.get(`cache_stats?cdnName=nope&metricType=bandwidth&${RANGE}&exclude=series`),
          404,
          'no such CDN: nope',
        ],
      ]);
      expectError(
        await admin.get(
          `cache_stats?cdnName=${q(`${cdn.name}' OR cdn =~ /.*/`)}&metricType=connections&${RANGE}`,
        ),
        404,
        `no such CDN: ${cdn.name}' OR cdn =~ /.*/`,
      );
      // A value ending in .json is read without it, as the original reads every parameter.
      const json = await admin.get(`cache_stats?cdnName=${q(cdn.name)}.json&metricType=maxkbps&${RANGE}`);
      expect(json.status).toBe(200);
    });

    it('checks the metric, then the delivery service', async () => {
      const path = `deliveryservice_stats?${RANGE}`;
      await expectErrors([
        [
          admin.get(`${path}&metricType=bandwidth&deliveryServiceName=${q(ds.xmlId)}`),
          400,
          'Metric is not supported: bandwidth',
        ],
        [
          admin.get(`${path}&metricType=kbps`),
          400,
          'You must specify deliveryService or deliveryServiceName!',
        ],
        [
          admin.get(`${path}&metricType=kbps&deliveryServiceName=nope`),
          404,
          'No such Delivery Service: nope',
        ],
      ]);
      // A number that is no delivery service's id is taken as an XML id.
      expectError(
        await admin.get(`${path}&metricType=tps_2xx&deliveryService=999999`),
        404,
        'No such Delivery Service: 999999',
      );
      for (const param of [`deliveryService=${ds.id}`, `deliveryService=${q(ds.xmlId)}`]) {
        const res = await admin.get(`${path}&metricType=tps_total&${param}`);
        expect({ param, status: res.status }).toEqual({ param, status: 200 });
      }
      // deliveryServiceName wins over deliveryService.
      expectError(
        await admin.get(`${path}&metricType=kbps&deliveryServiceName=nope&deliveryService=${ds.id}`),
        404,
        'No such Delivery Service: nope',
      );
    });

    it('answers a delivery service out of the tenancy as absent', async () => {
      const tenant = await createTenant(admin);
      const outsider = await createUser(app, admin, 'read-only', tenant.id);
      const path = `deliveryservice_stats?${RANGE}&metricType=kbps`;
      expectError(
        await outsider.client.get(`${path}&deliveryServiceName=${q(ds.xmlId)}`),
        404,
        `No such Delivery Service: ${ds.xmlId}`,
      );
      expectError(
        await outsider.client.at('3.0').get(`${path}&deliveryService=${ds.id}`),
        404,
        `No such Delivery Service: ${ds.xmlId}`,
      );
      const own = await createDeliveryService(admin, cdn.id, { tenantId: tenant.id });
      const res = await outsider.client.get(`${path}&deliveryServiceName=${q(own.xmlId)}`);
      expect(res.status).toBe(200);
    });

    it('negotiates the timestamp form: 406 when JSON of neither form is acceptable', async () => {
      for (const accept of ['text/html', 'application/json;timestamp=iso', 'text/*, image/png;q=0.5']) {
        const res = await admin.get(cacheQuery).set('Accept', accept);
        expectError(res, 406, `Failed to negotiate content; cannot produce output satisfying ${accept}`);
        const dsRes = await admin.get(dsQuery).set('Accept', accept);
        expectError(dsRes, 406, `Failed to negotiate content; cannot produce output satisfying ${accept}`);
      }
      for (const accept of [
        '*/*',
        'application/*',
        'application/json, text/plain, */*',
        'application/json;timestamp=unix',
        // Not a header the original can parse: ignored.
        'text/html;;q=1',
      ]) {
        const res = await admin.get(cacheQuery).set('Accept', accept);
        expect({ accept, status: res.status }).toEqual({ accept, status: 200 });
      }
    });
  });

  it('answers 200 with a warning when InfluxDB cannot be reached', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const closedPort = (probe.address() as { port: number }).port;
    await new Promise((resolve) => probe.close(resolve));
    const app = await createTestAppWithEnv({ INFLUXDB_URL: `http://127.0.0.1:${closedPort}` });
    try {
      const admin = await ApiClient.admin(app);
      const cdn = await createCdn(admin);
      const ds = await createDeliveryService(admin, cdn.id);
      const cache = await admin.get(`cache_stats?cdnName=${q(cdn.name)}&metricType=bandwidth&${RANGE}`);
      expectApiHeaders(cache);
      expect({ status: cache.status, body: cache.body as unknown }).toEqual({
        status: 200,
        body: unavailable('cache', 'InfluxDB could not be reached'),
      });
      const dsRes = await admin.get(
        `deliveryservice_stats?deliveryService=${ds.id}&metricType=kbps&${RANGE}`,
      );
      expect({ status: dsRes.status, body: dsRes.body as unknown }).toEqual({
        status: 200,
        body: unavailable('delivery service', 'InfluxDB could not be reached'),
      });
    } finally {
      await app.close();
    }
  });

  describeWithInfluxDb((url) => {
    let cdn: { id: number; name: string };
    let other: { id: number; name: string };
    let odd: string;
    let ds: { id: number; xmlId: string };
    /** A whole hour in the recent past: samples at t0, t0+60 and t0+120 (seconds). */
    let t0: number;
    let range: string;

    const iso = (seconds: number) => new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');
    const tag = (name: string) => name.replace(/[ ,=]/g, (c) => `\\${c}`);
    const { app, admin } = useApp({
      env: { INFLUXDB_URL: url, INFLUXDB_DATABASE: undefined, INFLUXDB_DS_DATABASE: undefined },
      beforeClose: async () => {
        await app.get(DataSource).query('DELETE FROM cdn WHERE name = ?', [odd]);
        // The run's InfluxDB is shared by the suites: current_stats sums every CDN's last figures.
        for (const database of ['cache_stats', 'deliveryservice_stats']) {
          await influxQuery(url, `DROP DATABASE ${database}`);
        }
      },
    });

    beforeAll(async () => {
      cdn = await createCdn(admin);
      other = await createCdn(admin);
      ds = await createDeliveryService(admin, cdn.id);
      // A name the API would refuse, to prove the InfluxQL string literal is escaped.
      odd = `${uniqueName('odd')}'q"b\\s`;
      await app
        .get(DataSource)
        .query('INSERT INTO cdn (name, domain_name, dnssec_enabled) VALUES (?, ?, 0)', [
          odd,
          `${uniqueName('odd')}.example`,
        ]);
      // The databases and retention policy Traffic Stats creates (the defaults' names).
      for (const database of ['cache_stats', 'deliveryservice_stats']) {
        await influxQuery(url, `CREATE DATABASE ${database}`);
        await influxQuery(url, `CREATE RETENTION POLICY monthly ON ${database} DURATION 30d REPLICATION 1`);
      }
      t0 = Math.floor(Date.now() / 3600000) * 3600 - 7200;
      range = `startDate=${iso(t0 - 60)}&endDate=${iso(t0 + 180)}`;
      await influxWrite(url, 'cache_stats', 'monthly', [
        `bandwidth.cdn.1min,cdn=${tag(cdn.name)} value=100 ${t0}`,
        `bandwidth.cdn.1min,cdn=${tag(cdn.name)} value=200 ${t0 + 60}`,
        `bandwidth.cdn.1min,cdn=${tag(cdn.name)} value=300 ${t0 + 120}`,
        // Outside the range (the end is excluded).
        `bandwidth.cdn.1min,cdn=${tag(cdn.name)} value=9999 ${t0 + 180}`,
        `bandwidth.cdn.1min,cdn=${tag(other.name)} value=5000 ${t0 + 60}`,
        `connections.cdn.1min,cdn=${tag(odd)} value=42 ${t0 + 60}`,
        `connections.cdn.1min,cdn=${tag(`${odd}x`)} value=43 ${t0 + 60}`,
      ]);
      const dsTag = `deliveryservice=${tag(ds.xmlId)}`;
      await influxWrite(url, 'deliveryservice_stats', 'monthly', [
        `kbps.ds.1min,cachegroup=total,${dsTag} value=800 ${t0}`,
        `kbps.ds.1min,cachegroup=total,${dsTag} value=1600 ${t0 + 60}`,
        // A cache group's own figure, not the total.
        `kbps.ds.1min,cachegroup=east,${dsTag} value=7 ${t0 + 60}`,
        `tps_total.ds.1min,cachegroup=total,${dsTag} value=10 ${t0}`,
        `tps_total.ds.1min,cachegroup=total,${dsTag} value=20 ${t0 + 60}`,
        `tps_total.ds.1min,cachegroup=total,${dsTag} value=30 ${t0 + 120}`,
        // Both ends of the range are included.
        `tps_total.ds.1min,cachegroup=total,${dsTag} value=40 ${t0 + 180}`,
      ]);
    });

    const cacheSeries = (values: unknown[][]) => ({
      columns: ['time', 'sum_count'],
      count: values.length,
      name: 'bandwidth.cdn.1min',
      tags: { cdn: cdn.name },
      values,
    });

    it.each(VERSIONS)('cache_stats: the summary and the series per minute on %s', async (version) => {
      const res = await admin
        .at(version)
        .get(`cache_stats?cdnName=${q(cdn.name)}&metricType=bandwidth&${range}`);
      expectApiHeaders(res);
      expect(res.status).toBe(200);
      // The answer depends on the Accept header.
      expect(res.headers.vary).toBe('Accept, Accept-Encoding');
      expect(res.body).toEqual({
        response: {
          series: cacheSeries([
            [iso(t0 - 60), null],
            [iso(t0), 100],
            [iso(t0 + 60), 200],
            [iso(t0 + 120), 300],
          ]),
          summary: {
            average: 200,
            count: 3,
            // Too few samples for a 5th percentile: the original answers 0.
            fifthPercentile: 0,
            max: 300,
            min: 100,
            ninetyEighthPercentile: 300,
            ninetyFifthPercentile: 300,
          },
        },
      });
      const response = responseOf<TrafficStatsResponse>(res);
      expect(Object.keys(response)).toEqual(['series', 'summary']);
      expect(Object.keys(response.series!)).toEqual(['columns', 'count', 'name', 'tags', 'values']);
    });

    it('cache_stats: nanoseconds with timestamp=unix, in the order the Accept header ranks', async () => {
      const path = `cache_stats?cdnName=${q(cdn.name)}&metricType=bandwidth&${range}&exclude=summary`;
      const unix = await admin
        .get(path)
        .set('Accept', 'application/json;timestamp=unix, application/json;timestamp=rfc;q=0.9');
      expect(unix.body).toEqual({
        response: {
          series: cacheSeries([
            [(t0 - 60) * 1e9, null],
            [t0 * 1e9, 100],
            [(t0 + 60) * 1e9, 200],
            [(t0 + 120) * 1e9, 300],
          ]),
        },
      });
      expect(unix.text).toContain(`[${t0}000000000,100]`);
      const rfc = await admin
        .get(path)
        .set('Accept', 'application/json;timestamp=unix;q=0.5, application/json;timestamp=rfc');
      expect(responseOf<TrafficStatsResponse>(rfc).series!.values[1]).toEqual([iso(t0), 100]);
    });

    it('cache_stats: interval, limit, offset, orderby and exclude', async () => {
      const base = `cache_stats?cdnName=${q(cdn.name)}&metricType=bandwidth&${range}`;
      // Two-minute buckets aligned on the start: [t0-60, t0+60) and [t0+60, t0+180).
      const twoMinutes = await admin.get(`${base}&interval=2m&exclude=summary`);
      expect(twoMinutes.body).toEqual({
        response: {
          series: cacheSeries([
            [iso(t0 - 60), 100],
            [iso(t0 + 60), 250],
          ]),
        },
      });
      const paged = await admin.get(`${base}&limit=2&offset=1&orderby=time&exclude=summary`);
      expect(responseOf<TrafficStatsResponse>(paged).series).toEqual(
        cacheSeries([
          [iso(t0), 100],
          [iso(t0 + 60), 200],
        ]),
      );
      const summaryOnly = await admin.get(`${base}&exclude=series`);
      expect(Object.keys(responseOf(summaryOnly))).toEqual(['summary']);
    });

    it('cache_stats: no data → a zero summary and no series', async () => {
      const res = await admin.get(`cache_stats?cdnName=${q(other.name)}&metricType=maxkbps&${range}`);
      expect(res.body).toEqual({
        response: {
          summary: {
            average: 0,
            count: 0,
            fifthPercentile: 0,
            max: 0,
            min: 0,
            ninetyEighthPercentile: 0,
            ninetyFifthPercentile: 0,
          },
        },
      });
    });

    it('cache_stats: a CDN name with quotes and backslashes is matched exactly', async () => {
      const res = await admin.get(`cache_stats?cdnName=${q(odd)}&metricType=connections&${range}`);
      const response = responseOf<TrafficStatsResponse>(res);
      expect(response.summary).toEqual(expect.objectContaining({ average: 42, count: 1 }));
      expect(response.series!.tags).toEqual({ cdn: odd });
    });

    const dsSeries = (name: string, values: unknown[][]) => ({
      columns: ['time', 'mean'],
      count: values.length,
      name,
      tags: { cachegroup: 'total' },
      values,
    });

    it.each(VERSIONS)('deliveryservice_stats: kbps with its total kilobytes on %s', async (version) => {
      const res = await admin
        .at(version)
        .get(
          `deliveryservice_stats?deliveryServiceName=${q(ds.xmlId)}&metricType=kbps&serverType=edge&${range}&interval=1m`,
        );
      expectApiHeaders(res);
      expect(res.body).toEqual({
        response: {
          series: dsSeries('kbps.ds.1min', [
            [iso(t0 - 60), null],
            [iso(t0), 800],
            [iso(t0 + 60), 1600],
            [iso(t0 + 120), null],
            [iso(t0 + 180), null],
          ]),
          summary: {
            average: 1200,
            count: 2,
            fifthPercentile: 0,
            max: 1600,
            min: 800,
            ninetyEighthPercentile: 1600,
            ninetyFifthPercentile: 1600,
            // count × 60 s × average kbps / 8
            totalKiloBytes: 18000,
            totalTransactions: null,
          },
        },
      });
      const summary = responseOf<TrafficDSStatsResponse>(res).summary!;
      expect(Object.keys(summary)).toEqual([
        'average',
        'count',
        'fifthPercentile',
        'max',
        'min',
        'ninetyEighthPercentile',
        'ninetyFifthPercentile',
        'totalKiloBytes',
        'totalTransactions',
      ]);
    });

    it('deliveryservice_stats: transactions, by id, both ends of the range included', async () => {
      const res = await admin.get(
        `deliveryservice_stats?deliveryService=${ds.id}&metricType=tps_total&${range}&exclude=series`,
      );
      expect(res.body).toEqual({
        response: {
          summary: {
            average: 25,
            count: 4,
            fifthPercentile: 0,
            max: 40,
            min: 10,
            ninetyEighthPercentile: 40,
            ninetyFifthPercentile: 40,
            totalKiloBytes: null,
            totalTransactions: 6000,
          },
        },
      });
      const series = await admin.get(
        `deliveryservice_stats?deliveryService=${ds.id}&metricType=tps_total&${range}&exclude=summary&limit=1&offset=4`,
      );
      expect(series.body).toEqual({
        response: { series: dsSeries('tps_total.ds.1min', [[iso(t0 + 180), 40]]) },
      });
    });

    it('deliveryservice_stats: no data → a zero summary with null totals', async () => {
      const res = await admin.get(
        `deliveryservice_stats?deliveryServiceName=${q(ds.xmlId)}&metricType=tps_5xx&${range}`,
      );
      expect(res.body).toEqual({
        response: {
          summary: {
            average: 0,
            count: 0,
            fifthPercentile: 0,
            max: 0,
            min: 0,
            ninetyEighthPercentile: 0,
            ninetyFifthPercentile: 0,
            totalKiloBytes: null,
            totalTransactions: null,
          },
        },
      });
    });

    it('warns, with neither part, when a configured database does not exist', async () => {
      const missing = await createTestAppWithEnv({
        INFLUXDB_URL: url,
        INFLUXDB_DATABASE: 'no_such_cache_db',
        INFLUXDB_DS_DATABASE: 'no_such_ds_db',
      });
      try {
        const client = await ApiClient.admin(missing);
        const cache = await client.get(`cache_stats?cdnName=${q(cdn.name)}&metricType=bandwidth&${range}`);
        expect(cache.body).toEqual(
          unavailable('cache', 'InfluxDB query failed: database not found: no_such_cache_db'),
        );
        const dsRes = await client.get(
          `deliveryservice_stats?deliveryServiceName=${q(ds.xmlId)}&metricType=kbps&${range}`,
        );
        expect(dsRes.body).toEqual(
          unavailable('delivery service', 'InfluxDB query failed: database not found: no_such_ds_db'),
        );
      } finally {
        await missing.close();
      }
    });
  });
});
