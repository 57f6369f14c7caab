import { applyDecorators } from '@nestjs/common';
import { IsDefined, IsNotEmpty, IsString, Matches, MaxLength, NotEquals } from 'class-validator';
import { ColumnInt, OptionalBoolean, RequiredString } from 'src/common/validation/rules';

/** The original's own wording for the profile name (traffic_ops_golang/profile/profiles.go). */
function ProfileName(): PropertyDecorator {
  return applyDecorators(
    IsDefined({ message: 'required and cannot be blank' }),
    IsString({ message: 'must be a string' }),
    IsNotEmpty({ message: 'required and cannot be blank' }),
    Matches(/^[^ ]*$/, { message: 'cannot contain spaces' }),
    MaxLength(255, { message: 'the length must be between 1 and 255' }),
  );
}

/**
 * Body of POST /profiles and PUT /profiles/{id}. An unknown `type` is refused by the service with
 * the original's enum text; an unknown `cdn` by the database (404 `cdn not found`).
 */
export class ProfileDto {
  @ProfileName()
  name!: string;

  @RequiredString(65535)
  description!: string;

  /** Required as ozzo's Required: missing or 0 is blank. */
  @IsDefined({ message: 'cannot be blank' })
  @ColumnInt()
  @NotEquals(0, { message: 'cannot be blank' })
  cdn!: number;

  @RequiredString(32)
  type!: string;

  /** The original stores NULL → 400; we take an omitted value as false (never harmful). */
  @OptionalBoolean()
  routingDisabled?: boolean;
}
