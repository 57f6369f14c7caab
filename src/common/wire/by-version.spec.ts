import { ApiVersion } from 'src/common/versioning/api-version';
import { byVersion, rfc3339 } from 'src/common/wire/by-version';

describe('byVersion', () => {
  const map = byVersion<{ n: number }, string>({
    '3.0': (row) => `v3:${row.n}`,
    '4.1': (row) => `v41:${row.n}`,
    '5.0': (row) => `v5:${row.n}`,
  });
  const at = (v: string) => ApiVersion.parse(v)!;

  it('answers the mapper of the newest listed version not after the requested one', () => {
    expect(map({ n: 1 }, at('3.0'))).toBe('v3:1');
    expect(map({ n: 1 }, at('3.1'))).toBe('v3:1');
    expect(map({ n: 1 }, at('4.0'))).toBe('v3:1');
    expect(map({ n: 1 }, at('4.1'))).toBe('v41:1');
    expect(map({ n: 2 }, at('5.0'))).toBe('v5:2');
  });

  it('refuses a version older than every mapper', () => {
    expect(() => map({ n: 1 }, at('2.0'))).toThrow('no wire mapper for version 2.0');
  });

  it('writes RFC 3339 timestamps and keeps null', () => {
    expect(rfc3339(new Date('2024-05-25T15:59:33.709Z'))).toBe('2024-05-25T15:59:33.709Z');
    expect(rfc3339(null)).toBeNull();
  });
});
