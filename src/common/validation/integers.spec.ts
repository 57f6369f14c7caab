import { BIGINT, fitsColumn, INT32, intProblem, parseIntText } from 'src/common/validation/integers';

describe('integer columns', () => {
  it('INT32 holds -2^31 .. 2^31-1, BIGINT the integers a JSON number carries exactly', () => {
    expect([INT32.min, INT32.max]).toEqual([-(2 ** 31), 2 ** 31 - 1]);
    expect([BIGINT.min, BIGINT.max]).toEqual([-(2 ** 53 - 1), 2 ** 53 - 1]);
  });

  it('fitsColumn: integers within the range only', () => {
    expect(fitsColumn(2147483647)).toBe(true);
    expect(fitsColumn(-2147483648)).toBe(true);
    for (const value of [2147483648, -2147483649, 1.5, NaN, Infinity, '1', null, 2 ** 53]) {
      expect(fitsColumn(value)).toBe(false);
    }
    expect(fitsColumn(2 ** 53 - 1, BIGINT)).toBe(true);
    // 2^53 + 1 reads as 2^53: not safe, whatever the column.
    expect(fitsColumn(JSON.parse('9007199254740993'), BIGINT)).toBe(false);
    expect(fitsColumn(2 ** 63, BIGINT)).toBe(false);
  });

  it('intProblem words the problem as the validation messages do', () => {
    expect(intProblem(7)).toBeUndefined();
    expect(intProblem(1.5)).toBe('must be an integer');
    expect(intProblem('7')).toBe('must be an integer');
    expect(intProblem(2 ** 31)).toBe('must be no greater than 2147483647');
    expect(intProblem(-(2 ** 31) - 1)).toBe('must be no less than -2147483648');
    expect(intProblem(2 ** 53, BIGINT)).toBe('must be no greater than 9007199254740991');
    expect(intProblem(-(2 ** 63), BIGINT)).toBe('must be no less than -9007199254740991');
    expect(intProblem(1e300)).toBe('must be no greater than 2147483647');
  });

  it('parseIntText: decimal integers within the range, whatever their length otherwise', () => {
    expect(parseIntText('42')).toBe(42);
    expect(parseIntText('-2147483648')).toBe(-2147483648);
    expect(parseIntText('0002147483647')).toBe(2147483647);
    for (const text of ['2147483648', '99999999999999999999', '1e3', '1.0', ' 1', '', '-', '0x10', '+1']) {
      expect(parseIntText(text)).toBeUndefined();
    }
    expect(parseIntText('9007199254740991', BIGINT)).toBe(9007199254740991);
    expect(parseIntText('9007199254740992', BIGINT)).toBeUndefined();
  });
});
