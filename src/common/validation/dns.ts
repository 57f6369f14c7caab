import { ValidateBy } from 'class-validator';

/**
 * A DNS name as the original checks it (govalidator IsDNSName): labels of letters, digits, `_` and
 * `-` (not leading), at most 63 characters, separated by dots, an optional trailing dot; not an IP
 * address and at most 255 characters without the dots.
 */
const LABELS = /^[a-zA-Z0-9_][a-zA-Z0-9_-]{0,62}(\.[a-zA-Z0-9_][a-zA-Z0-9_-]{0,62})*[._]?$/;
const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

export function isDnsName(value: unknown): boolean {
  return (
    typeof value === 'string' &&
    value !== '' &&
    value.replace(/\./g, '').length <= 255 &&
    !IPV4.test(value) &&
    LABELS.test(value)
  );
}

export function IsDnsName(message: string): PropertyDecorator {
  return ValidateBy({ name: 'isDnsName', validator: { validate: isDnsName, defaultMessage: () => message } });
}
