import { BadRequestException } from '@nestjs/common';
import { parseLocalizationMethods } from './localization-methods';

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
