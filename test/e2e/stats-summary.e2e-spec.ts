import { responseOf, uniqueName, type Wire } from 'test/e2e/support/api';
import { expectError, expectMalformedJson } from 'test/e2e/support/alerts';
import { expectOk } from 'test/e2e/support/headers';
import { countRows } from 'test/e2e/support/fixtures/federations';
import { useApp } from 'test/e2e/support/suite';
import type { StatsSummaryV3, StatsSummaryV5 } from 'src/modules/stats/dto/stats-summary.response';

describe('stats_summary', () => {
  const { app, admin, readOnly } = useApp({ users: { readOnly: 'read-only' } });

  const rowsNamed = (statName: string) => countRows(app, 'stats_summary', 'stat_name = ?', [statName]);
  const post = async (body: Record<string, unknown>, client = admin) => {
    const res = await client.post('stats_summary', body);
    expect(res.status).toBe(200);
    return res;
  };

  describe('POST', () => {
    it('records a summary and answers only its alert; an empty CDN or delivery service is "all"', async () => {
      const statName = uniqueName('daily_maxgbps');
      const res = await readOnly.client.post('stats_summary', {
        statName,
        statValue: 5.5,
        summaryTime: '2019-11-19T03:37:33+05:30',
        statDate: '2019-11-19',
        cdnName: '',
      });
      expectOk(res);
      expect(res.body).toEqual({
        alerts: [{ text: 'Stats Summary was successfully created', level: 'success' }],
      });
      expect(responseOf(await admin.get(`stats_summary?statName=${statName}`))).toEqual([
        {
          statDate: '2019-11-19',
          summaryTime: '2019-11-18 22:07:33+00',
          cdnName: 'all',
          deliveryServiceName: 'all',
          statName,
          statValue: 5.5,
        },
      ]);
    });

    it('reads summaryTime as RFC 3339, "YYYY-MM-DD HH:MM:SS±hh" or a date; statDate may be left out', async () => {
      const statName = uniqueName('stat');
      await post({ statName, statValue: 1, summaryTime: '2020-01-02 03:04:05+02', cdnName: 'cdn1' });
      await post({ statName, statValue: 2, summaryTime: '2020-01-03', deliveryServiceName: 'ds1' });
      const listed = responseOf<Wire<StatsSummaryV3>[]>(
        await admin.get(`stats_summary?statName=${statName}&orderby=statValue`),
      );
      expect(listed.map((s) => [s.summaryTime, s.statDate, s.cdnName, s.deliveryServiceName])).toEqual([
        ['2020-01-02 01:04:05+00', null, 'cdn1', 'all'],
        ['2020-01-03 00:00:00+00', null, 'all', 'ds1'],
      ]);
    });

    it.each([
      [{ statValue: 1, summaryTime: '2020-01-01' }, "validating: 'statName' cannot be blank"],
      [{ statName: 'x', statValue: 0, summaryTime: '2020-01-01' }, "validating: 'statValue' cannot be blank"],
      [
        { statName: '', summaryTime: '2020-01-01' },
        "validating: 'statName' cannot be blank, 'statValue' cannot be blank",
      ],
      [{ statName: 'x', statValue: 1 }, 'decoding: invalid timestamp given for summaryTime'],
      [
        { statName: 'x', statValue: 1, summaryTime: '2020-13-01' },
        'decoding: invalid timestamp given for summaryTime',
      ],
      [
        { statName: 'x', statValue: 1, summaryTime: '2020-01-01', statDate: 'yesterday' },
        'decoding: invalid timestamp given for statDate',
      ],
      [{ statValue: 1, statDate: 'bad' }, 'decoding: invalid timestamp given for statDate'],
      [{ statName: 'x', statValue: '1', summaryTime: '2020-01-01' }, 'decoding: statValue must be a number'],
      [{ statName: 7, statValue: 1, summaryTime: '2020-01-01' }, 'decoding: statName must be a string'],
      [{ statName: 'x', statValue: 1, summaryTime: 20200101 }, 'decoding: summaryTime must be a string'],
      [{ statValue: '1', statName: 7, cdnName: 1 }, 'decoding: cdnName must be a string'],
      [{ statName: 7, deliveryServiceName: true }, 'decoding: deliveryServiceName must be a string'],
      [{ statDate: 1, summaryTime: 2 }, 'decoding: summaryTime must be a string'],
      [{ statName: 'x', statDate: [] }, 'decoding: statDate must be a string'],
      [{ statValue: 'x', statDate: 'bad' }, 'decoding: statValue must be a number'],
      [
        { statValue: 1, statDate: 'bad', summaryTime: 'bad' },
        'decoding: invalid timestamp given for statDate',
      ],
      [
        { statValue: null, statName: null, summaryTime: '2020-01-01' },
        "validating: 'statName' cannot be blank, 'statValue' cannot be blank",
      ],
    ])('refuses %j with 400 and writes nothing', async (body, text) => {
      const before = await countRows(app, 'stats_summary', '1 = 1', []);
      expectError(await admin.post('stats_summary', body), 400, text);
      expect(await countRows(app, 'stats_summary', '1 = 1', [])).toBe(before);
    });

    it('refuses a body that is not an object, and malformed JSON', async () => {
      expectError(
        await admin.post('stats_summary', [1]),
        400,
        'decoding: the request body must be a JSON object',
      );
      expectMalformedJson(await admin.raw('post', 'stats_summary', '{"statName": '));
      expectError(
        await admin.raw('post', 'stats_summary', 'null'),
        400,
        'decoding: the request body must be a JSON object',
      );
      expectError(await admin.post('stats_summary'), 400, 'decoding: EOF');
    });
  });

  describe('GET', () => {
    let statName: string;

    beforeAll(async () => {
      statName = uniqueName('bytes');
      await post({
        statName,
        statValue: 10,
        summaryTime: '2021-05-01T00:00:00Z',
        statDate: '2021-04-30',
        cdnName: 'cdnA',
      });
      await post({
        statName,
        statValue: 30,
        summaryTime: '2021-05-03T00:00:00Z',
        statDate: '2021-05-02',
        cdnName: 'cdnB',
      });
      await post({
        statName,
        statValue: 20,
        summaryTime: '2021-05-02T00:00:00Z',
        cdnName: 'cdnA',
        deliveryServiceName: 'dsA',
      });
    });

    it('lists summaries in the 3.x/4.x shape, filtered by statName, cdnName and deliveryServiceName', async () => {
      const res = expectOk(
        await admin.get(`stats_summary?statName=${statName}&cdnName=cdnA&orderby=statValue`),
      );
      expect(responseOf(res)).toEqual([
        {
          statDate: '2021-04-30',
          summaryTime: '2021-05-01 00:00:00+00',
          cdnName: 'cdnA',
          deliveryServiceName: 'all',
          statName,
          statValue: 10,
        },
        {
          statDate: null,
          summaryTime: '2021-05-02 00:00:00+00',
          cdnName: 'cdnA',
          deliveryServiceName: 'dsA',
          statName,
          statValue: 20,
        },
      ]);
      const byDs = responseOf<Wire<StatsSummaryV3>[]>(
        await admin.get(`stats_summary?statName=${statName}&deliveryServiceName=dsA`),
      );
      expect(byDs.map((s) => s.statValue)).toEqual([20]);
      const desc = responseOf<Wire<StatsSummaryV3>[]>(
        await admin.get(`stats_summary?statName=${statName}&orderby=statValue&sortOrder=desc&limit=2`),
      );
      expect(desc.map((s) => s.statValue)).toEqual([30, 20]);
    });

    it('writes summaryTime in RFC 3339 on 5.0', async () => {
      const listed = responseOf<StatsSummaryV5[]>(
        await admin.at('5.0').get(`stats_summary?statName=${statName}&cdnName=cdnB`),
      );
      expect(listed).toEqual([
        {
          statDate: '2021-05-02',
          summaryTime: new Date('2021-05-03T00:00:00Z').toISOString(),
          cdnName: 'cdnB',
          deliveryServiceName: 'all',
          statName,
          statValue: 30,
        },
      ]);
    });

    it('answers the newest summary time with lastSummaryDate (of statName when given), null when none', async () => {
      expect(responseOf(await admin.get(`stats_summary?lastSummaryDate=true&statName=${statName}`))).toEqual({
        summaryTime: '2021-05-03 00:00:00+00',
      });
      expect(
        responseOf(await admin.at('5.0').get(`stats_summary?lastSummaryDate=1&statName=${statName}`)),
      ).toEqual({
        summaryTime: new Date('2021-05-03T00:00:00Z').toISOString(),
      });
      expect(
        responseOf(await admin.get('stats_summary?lastSummaryDate=true&statName=never-recorded')),
      ).toEqual({
        summaryTime: null,
      });
      expect(responseOf(await admin.get(`stats_summary?lastSummaryDate=&statName=${statName}`))).toHaveLength(
        3,
      );
    });

    it('is readable by a read-only user', async () => {
      expect(await rowsNamed(statName)).toBe(3);
      const listed = responseOf<Wire<StatsSummaryV3>[]>(
        await readOnly.client.get(`stats_summary?statName=${statName}`),
      );
      expect(listed).toHaveLength(3);
    });
  });
});
