import { applyDecorators } from '@nestjs/common';
import { IsDefined, IsEmail, IsNotEmpty, IsString, Min } from 'class-validator';
import {
  ColumnInt,
  OptionalBoolean,
  OptionalInt,
  OptionalString,
  RequiredString,
} from 'src/common/validation/rules';

/** Required as the original words it for users (`'<field>' cannot be blank`). */
function RequiredId(): PropertyDecorator {
  return applyDecorators(
    IsDefined({ message: 'cannot be blank' }),
    ColumnInt(),
    Min(1, { message: 'must be no less than 1' }),
  );
}

/**
 * Fields of POST /users and PUT /users/{id} common to every version (docs/original-behaviour.md#users).
 * The password is optional here: creation requires it, an update keeps the old one without it.
 */
export class UserFieldsDto {
  @RequiredString(128)
  username!: string;

  @OptionalString()
  localPasswd?: string | null;

  @OptionalString()
  confirmLocalPasswd?: string | null;

  @RequiredId()
  tenantId!: number;

  @RequiredString()
  @IsEmail({}, { message: 'must be a valid email address' })
  email!: string;

  @RequiredString()
  fullName!: string;

  @OptionalString()
  addressLine1?: string | null;

  @OptionalString()
  addressLine2?: string | null;

  @OptionalString(128)
  city?: string | null;

  @OptionalString()
  company?: string | null;

  @OptionalString(128)
  country?: string | null;

  @OptionalString(64)
  phoneNumber?: string | null;

  @OptionalString(32)
  postalCode?: string | null;

  @OptionalString(65535)
  publicSshKey?: string | null;

  @OptionalString(128)
  stateOrProvince?: string | null;

  @OptionalInt()
  uid?: number | null;

  @OptionalInt()
  gid?: number | null;

  @OptionalString(64)
  ucdn?: string | null;

  @OptionalBoolean()
  newUser?: boolean | null;
}

/** 4.0 and later name the role. */
export class UserV4Dto extends UserFieldsDto {
  @IsDefined({ message: 'cannot be blank' })
  @IsString({ message: 'must be a string' })
  @IsNotEmpty({ message: 'cannot be blank' })
  role!: string;
}

/** 3.x gives the role's id. */
export class UserV3Dto extends UserFieldsDto {
  @RequiredId()
  role!: number;
}
