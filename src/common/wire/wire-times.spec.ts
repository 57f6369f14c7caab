import { ApiVersion } from 'src/common/versioning/api-version';
import { dateFormatFor } from 'src/common/wire/wire-times';

describe('dateFormatFor', () => {
  const date = new Date('2024-05-25T15:59:33.709Z');
  const at = (v: string) => ApiVersion.parse(v)!;
  const custom = '2024-05-25 15:59:33+00';
  const rfc = '2024-05-25T15:59:33.709Z';

  it('writes the custom form without a rule', () => {
    expect(dateFormatFor(undefined, at('5.0'), 'traffic-ops')(date)).toBe(custom);
  });

  it('writes RFC 3339 from the rule’s version on', () => {
    const rule = { rfc3339From: '5.0' as const };
    expect(dateFormatFor(rule, at('4.1'), 'spec')(date)).toBe(custom);
    expect(dateFormatFor(rule, at('5.0'), 'spec')(date)).toBe(rfc);
  });

  it('keeps the specification’s custom form for specified resources unless WIRE_COMPAT=traffic-ops', () => {
    const rule = { rfc3339From: '5.0' as const, specified: true };
    expect(dateFormatFor(rule, at('5.0'), 'spec')(date)).toBe(custom);
    expect(dateFormatFor(rule, at('5.0'), 'traffic-ops')(date)).toBe(rfc);
    expect(dateFormatFor(rule, at('4.0'), 'traffic-ops')(date)).toBe(custom);
  });
});
