import { parseSummaryTimestamp } from './stats-summary.dto';

describe('parseSummaryTimestamp', () => {
  it.each([
    ['2019-11-19T03:37:33+05:30', '2019-11-18T22:07:33.000Z'],
    ['2019-11-19T03:37:33.5Z', '2019-11-19T03:37:33.500Z'],
    ['2020-01-02 03:04:05+02', '2020-01-02T01:04:05.000Z'],
    ['2020-01-02 03:04:05-00', '2020-01-02T03:04:05.000Z'],
    ['2020-02-29', '2020-02-29T00:00:00.000Z'],
  ])('reads %s', (text, iso) => {
    expect(parseSummaryTimestamp(text)?.toISOString()).toBe(iso);
  });

  it.each([
    '',
    'yesterday',
    '2020-13-01',
    '2019-02-29',
    '2020-01-02T25:00:00Z',
    '2020-01-02 03:04:05',
    '20200102',
  ])('refuses %j', (text) => {
    expect(parseSummaryTimestamp(text)).toBeUndefined();
  });
});
