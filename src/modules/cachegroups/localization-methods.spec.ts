import { BadRequestException } from '@nestjs/common';
import { parseLocalizationMethods } from './localization-methods';
import { parseQueryKeyId } from './query-key-id';

const rejection = (work: () => unknown): string => {
  try {
    work();
  } catch (error) {
    expect(error).toBeInstanceOf(BadRequestException);
    return (error as BadRequestException).message;
  }
  throw new Error('expected a rejection');
};

describe('parseLocalizationMethods', () => {
  it('upper-cases known methods and keeps their order', () => {
    expect(parseLocalizationMethods(['geo', 'Deep_CZ', 'CZ'])).toEqual(['GEO', 'DEEP_CZ', 'CZ']);
    expect(parseLocalizationMethods(undefined)).toEqual([]);
    expect(parseLocalizationMethods(null)).toEqual([]);
  });

  it.each([
    [['NEAREST'], 'NEAREST is not a LocalizationMethod'],
    [[2], '2 JSON not quoted'],
    [[true], 'true JSON not quoted'],
    [[null], 'LocalizationMethod cannot be null'],
    [['GEO', 'geo'], "'localizationMethods' duplicate value found: 'geo'"],
  ])('rejects %j with the original text', (values, text) => {
    expect(rejection(() => parseLocalizationMethods(values))).toBe(text);
  });
});

describe('parseQueryKeyId', () => {
  it('reads the first value of an integer key', () => {
    expect(parseQueryKeyId('42')).toBe(42);
    expect(parseQueryKeyId(['7', '8'])).toBe(7);
  });

  it.each([
    [undefined, 'missing key: id'],
    ['', 'failed to parse key: id'],
    ['x', 'failed to parse key: id'],
    ['-1', 'failed to parse key: id'],
    ['1.5', 'failed to parse key: id'],
    [{ a: '1' }, 'failed to parse key: id'],
  ])('rejects %j', (value, text) => {
    expect(rejection(() => parseQueryKeyId(value))).toBe(text);
  });
});
