import { BadRequestException } from '@nestjs/common';

export const LOCALIZATION_METHODS = ['CZ', 'DEEP_CZ', 'GEO'] as const;
export type LocalizationMethod = (typeof LOCALIZATION_METHODS)[number];

/**
 * The request's localization methods, upper-cased, with the original's texts: the decoder's
 * (`<v> is not a LocalizationMethod`, `<v> JSON not quoted`, `LocalizationMethod cannot be null`)
 * for a bad value, and Validate's `'localizationMethods' duplicate value found: '<v>'` for a repeat.
 */
export function parseLocalizationMethods(
  values: readonly unknown[] | null | undefined,
): LocalizationMethod[] {
  const methods: LocalizationMethod[] = [];
  for (const value of values ?? []) {
    if (value === null) {
      throw new BadRequestException('LocalizationMethod cannot be null');
    }
    if (typeof value !== 'string') {
      throw new BadRequestException(`${JSON.stringify(value)} JSON not quoted`);
    }
    const method = LOCALIZATION_METHODS.find((m) => m === value.toUpperCase());
    if (!method) {
      throw new BadRequestException(`${value} is not a LocalizationMethod`);
    }
    if (methods.includes(method)) {
      throw new BadRequestException(`'localizationMethods' duplicate value found: '${method.toLowerCase()}'`);
    }
    methods.push(method);
  }
  return methods;
}
