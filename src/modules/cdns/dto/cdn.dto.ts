import { Min, ValidateIf } from 'class-validator';
import { ColumnInt, OptionalBoolean, Pattern, RequiredString } from 'src/common/validation/rules';
import { IsDnsName } from 'src/common/validation/dns';

/** Body of POST /cdns and PUT /cdns/{id} (docs/original-behaviour.md#cdns). */
export class CdnDto {
  @RequiredString()
  @Pattern(/^[A-Za-z0-9.-]+$/, 'invalid characters found - Use alphanumeric . or - .')
  name!: string;

  @RequiredString()
  @IsDnsName('not a valid domain name')
  domainName!: string;

  @OptionalBoolean()
  dnssecEnabled?: boolean;

  /** Only API 4.1 and later apply it; validated whenever present. */
  @ValidateIf((_o, value) => value !== undefined && value !== null)
  @ColumnInt()
  @Min(1, { message: 'must be greater than zero' })
  ttlOverride?: number | null;
}
