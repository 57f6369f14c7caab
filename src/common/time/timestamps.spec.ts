import { formatRfc3339, formatTrafficOpsTime, toDate } from 'src/common/time/timestamps';

describe('timestamps', () => {
  it('formats lastUpdated as Traffic Ops does, in UTC', () => {
    expect(formatTrafficOpsTime(new Date('2019-12-02T21:49:08.123Z'))).toBe('2019-12-02 21:49:08+00');
    expect(formatTrafficOpsTime(new Date('2024-01-05T03:04:05+02:00'))).toBe('2024-01-05 01:04:05+00');
  });

  it('formats RFC 3339 with fractional seconds', () => {
    expect(formatRfc3339(new Date('2023-05-25T15:59:33.709Z'))).toBe('2023-05-25T15:59:33.709Z');
  });

  it('reads database strings as UTC', () => {
    expect(toDate('2020-01-02 03:04:05').toISOString()).toBe('2020-01-02T03:04:05.000Z');
    expect(toDate('2020-01-02 03:04:05.250').toISOString()).toBe('2020-01-02T03:04:05.250Z');
    const d = new Date();
    expect(toDate(d)).toBe(d);
  });
});
