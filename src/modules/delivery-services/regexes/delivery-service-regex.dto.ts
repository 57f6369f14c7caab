import { IsOptional, IsString } from 'class-validator';
import { OptionalInt } from 'src/common/validation/rules';

/**
 * Body of POST deliveryservices/{id}/regexes and PUT …/regexes/{rid} (lib/go-tc
 * DeliveryServiceRegexPost). As in the original, a missing field reads as its zero value (type 0,
 * setNumber 0, pattern ''); the rules that need the database are the service's.
 */
export class DeliveryServiceRegexDto {
  @OptionalInt()
  type?: number | null;

  @OptionalInt()
  setNumber?: number | null;

  @IsOptional()
  @IsString({ message: 'must be a string' })
  pattern?: string | null;
}
