import { ApiVersion } from 'src/common/versioning/api-version';
import { perVersion } from 'src/common/versioning/per-version';

describe('perVersion', () => {
  const at = (v: string) => ApiVersion.parse(v)!;

  it('answers the value of the newest listed version not after the requested one', () => {
    const pick = perVersion({ '3.0': 'old', '4.0': 'middle', '5.0': 'new' });
    expect([at('3.0'), at('3.1'), at('4.0'), at('4.1'), at('5.0')].map(pick)).toEqual([
      'old',
      'old',
      'middle',
      'middle',
      'new',
    ]);
  });

  it('answers the same value object every time', () => {
    const rules = { text: 'x' };
    const pick = perVersion({ '3.0': rules });
    expect(pick(at('3.0'))).toBe(rules);
    expect(pick(at('5.0'))).toBe(rules);
  });
});
