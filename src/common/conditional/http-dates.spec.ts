import { etagOf, parseHttpDate, parseIfMatch, seconds } from 'src/common/conditional/http-dates';

describe('conditional request dates', () => {
  it('reads HTTP dates', () => {
    expect(parseHttpDate('Sun, 06 Nov 1994 08:49:37 GMT')?.toISOString()).toBe('1994-11-06T08:49:37.000Z');
    expect(parseHttpDate('Sunday, 06-Nov-94 08:49:37 GMT')?.toISOString()).toBe('1994-11-06T08:49:37.000Z');
    expect(parseHttpDate('yesterday')).toBeUndefined();
    expect(parseHttpDate(undefined)).toBeUndefined();
  });

  it('round-trips the original ETag format', () => {
    const at = new Date('2024-02-03T04:05:06.789Z');
    expect(etagOf(at)).toMatch(/^"v1-[0-9a-z]+"$/);
    expect(parseIfMatch(etagOf(at))?.toISOString()).toBe(at.toISOString());
    expect(parseIfMatch(`"other", ${etagOf(at)}`)?.toISOString()).toBe(at.toISOString());
    expect(parseIfMatch('"something-else"')).toBeUndefined();
  });

  it('compares at whole seconds', () => {
    expect(seconds(new Date('2024-01-01T00:00:00.999Z'))).toBe(seconds(new Date('2024-01-01T00:00:00.000Z')));
  });
});
