import { applyDecorators } from '@nestjs/common';
import { IsDefined, Min, NotEquals } from 'class-validator';
import { ColumnInt, OptionalString, RequiredString } from 'src/common/validation/rules';

/** ozzo `Required, Min(0)`: absent, null or 0 → `cannot be blank`; negative → `must be no less than 0`. */
function RegionIdRules(): PropertyDecorator {
  return applyDecorators(
    IsDefined({ message: 'cannot be blank' }),
    ColumnInt(),
    NotEquals(0, { message: 'cannot be blank' }),
    Min(0, { message: 'must be no less than 0' }),
  );
}

/**
 * Body of POST /phys_locations and PUT /phys_locations/{id}, with TOPhysLocation.Validate's rules
 * (docs/original-behaviour.md#phys-locations): name, shortName, address, city, state, zip and regionId
 * required; the rest optional and unchecked beyond their JSON type and the column sizes. `region` (the
 * region's name) and `id` in a body are ignored.
 */
export class PhysLocationDto {
  @RequiredString()
  name!: string;

  @RequiredString()
  shortName!: string;

  @RequiredString()
  address!: string;

  @RequiredString()
  city!: string;

  @RequiredString()
  state!: string;

  @RequiredString(64)
  zip!: string;

  @RegionIdRules()
  regionId!: number;

  @OptionalString()
  poc?: string | null;

  @OptionalString(64)
  phone?: string | null;

  @OptionalString()
  email?: string | null;

  @OptionalString(65535)
  comments?: string | null;
}
