import { IsNumber, IsOptional, Max, Min } from 'class-validator';
import { OptionalInt, Pattern, RequiredString } from 'src/common/validation/rules';

const NAME = /^[A-Za-z0-9._-]*$/;
const NAME_MESSAGE = 'invalid characters found - Use alphanumeric . or - or _ .';
const LATITUDE = 'Must be a floating point number within the range +-90';
const LONGITUDE = 'Must be a floating point number within the range +-180';

/**
 * Body of POST /coordinates and PUT /coordinates?id= (docs/original-behaviour.md#coordinates), as the
 * original validates it on every version. Absent coordinates are null on 3.x/4.x (the database then
 * refuses them, as the original's does) and 0 on 5.0. `id` is read only by the 5.0 update.
 */
export class CoordinateDto {
  @OptionalInt()
  id?: number | null;

  @RequiredString()
  @Pattern(NAME, NAME_MESSAGE)
  name!: string;

  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'must be a number' })
  @Min(-90, { message: LATITUDE })
  @Max(90, { message: LATITUDE })
  latitude?: number | null;

  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'must be a number' })
  @Min(-180, { message: LONGITUDE })
  @Max(180, { message: LONGITUDE })
  longitude?: number | null;
}
