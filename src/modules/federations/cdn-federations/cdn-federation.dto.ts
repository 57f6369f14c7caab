import { applyDecorators } from '@nestjs/common';
import { IsDefined, IsString, Min, ValidateBy } from 'class-validator';
import { isDnsName } from 'src/common/validation/dns';
import { ColumnInt, OptionalString } from 'src/common/validation/rules';

/** The first problem of a federation CNAME, in the original's order (Required, ends with '.', DNS name). */
export function cnameProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') {
    return undefined; // reported by IsDefined / IsString
  }
  if (value === '') {
    return 'cannot be blank';
  }
  if (!value.endsWith('.')) {
    return 'must end with a period';
  }
  return isDnsName(value) ? undefined : 'must be a valid hostname';
}

const IsFederationCname = (): PropertyDecorator =>
  ValidateBy({
    name: 'isFederationCname',
    validator: {
      validate: (value) => cnameProblem(value) === undefined,
      defaultMessage: (args) => cnameProblem(args?.value) ?? 'must be a valid hostname',
    },
  });

const Cname = (): PropertyDecorator =>
  applyDecorators(
    IsDefined({ message: 'cannot be blank' }),
    IsString({ message: 'must be a string' }),
    IsFederationCname(),
  );

const Ttl = (min: number): PropertyDecorator =>
  applyDecorators(
    IsDefined({ message: 'cannot be blank' }),
    ColumnInt(),
    Min(min, { message: `must be no less than ${min}` }),
  );

/**
 * Body of POST cdns/{name}/federations and PUT cdns/{name}/federations/{id}, API 3.x and 4.x
 * (fields in this order, docs/decisions.md#d7).
 */
export class CdnFederationDto {
  @Cname()
  cname!: string;

  @Ttl(0)
  ttl!: number;

  @OptionalString(65535)
  description?: string | null;
}

/** API 5.0: the TTL is at least 60 seconds, as the original's 5.0 handler checks. */
export class CdnFederationV5Dto {
  @Cname()
  cname!: string;

  @Ttl(60)
  ttl!: number;

  @OptionalString(65535)
  description?: string | null;
}
