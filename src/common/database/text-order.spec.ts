import { compareAsStored, distinctAsStored } from 'src/common/database/text-order';

describe('the database text order', () => {
  it('is byte-wise over UTF-8: upper case before lower, code points beyond U+FFFF last', () => {
    expect(['b', 'a', 'B', '\u{1F600}', '\uFF21'].sort(compareAsStored)).toEqual([
      'B',
      'a',
      'b',
      '\uFF21',
      '\u{1F600}',
    ]);
    // JavaScript's own order puts the surrogate pair before U+FF21.
    expect(['\uFF21', '\u{1F600}'].sort()).toEqual(['\u{1F600}', '\uFF21']);
  });

  it('drops repeats and leaves its argument as it was', () => {
    const names = ['b', 'a', 'b'];
    expect(distinctAsStored(names)).toEqual(['a', 'b']);
    expect(names).toEqual(['b', 'a', 'b']);
  });
});
