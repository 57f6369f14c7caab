import {
  EPOCH_MICRO,
  formatMicroTime,
  isLater,
  microTimeFromDb,
  microTimeOf,
  type MicroTime,
} from './micro-time';

describe('server times to the microsecond (D205)', () => {
  it('reads either database: text of any precision, or a Date', () => {
    expect(microTimeFromDb('2026-12-04 21:49:53.123456')).toBe('2026-12-04 21:49:53.123456');
    expect(microTimeFromDb('2026-12-04 21:49:53.123')).toBe('2026-12-04 21:49:53.123000');
    expect(microTimeFromDb('1970-01-01 00:00:00')).toBe(EPOCH_MICRO);
    expect(microTimeFromDb(new Date('2026-12-04T21:49:53.120Z'))).toBe('2026-12-04 21:49:53.120000');
    expect(microTimeFromDb(null)).toBeNull();
    // Of the stored form's length, yet not in it: rebuilt.
    expect(microTimeFromDb('2026-12-04T21:49:53.123456')).toBe('2026-12-04 21:49:53.123456');
    expect(microTimeFromDb('2026-12-04 21:49:53.12345Z')).toBe('2026-12-04 21:49:53.123450');
    expect(microTimeFromDb('2026-12-04 21:49:53.1+0000')).toBe('2026-12-04 21:49:53.100000');
  });

  it("writes Go's RFC3339Nano in UTC: trailing zeros trimmed, none on a whole second", () => {
    expect(formatMicroTime('2026-12-04 21:49:53.123456' as MicroTime)).toBe('2026-12-04T21:49:53.123456Z');
    expect(formatMicroTime('2026-12-04 21:49:53.120000' as MicroTime)).toBe('2026-12-04T21:49:53.12Z');
    expect(formatMicroTime(EPOCH_MICRO)).toBe('1970-01-01T00:00:00Z');
    expect(formatMicroTime(microTimeOf(new Date('2099-01-02T03:04:05.500Z')))).toBe('2099-01-02T03:04:05.5Z');
  });

  it('compares to the microsecond, a missing time being the epoch', () => {
    const a = '2026-12-04 21:49:53.123456' as MicroTime;
    const b = '2026-12-04 21:49:53.123457' as MicroTime;
    expect([isLater(b, a), isLater(a, b), isLater(a, a)]).toEqual([true, false, false]);
    expect([isLater(a, null), isLater(null, EPOCH_MICRO)]).toEqual([true, false]);
  });
});
