import { applyDecorators } from '@nestjs/common';
import { IsArray, IsString, ValidateIf } from 'class-validator';
import { RequiredInt, RequiredString } from 'src/common/validation/rules';

/** A list of permission names; absent or null means none. */
function OptionalStringList(): PropertyDecorator {
  return applyDecorators(
    ValidateIf((_o, value) => value !== undefined && value !== null),
    IsArray({ message: 'must be a list of strings' }),
    IsString({ each: true, message: 'must be a list of strings' }),
  );
}

/** Body of POST /roles and PUT /roles?name= on 4.0 and later (docs/original-behaviour.md#roles). */
export class RoleV4Dto {
  @RequiredString()
  name!: string;

  @RequiredString(65535)
  description!: string;

  @OptionalStringList()
  permissions?: string[] | null;
}

/** Body of POST /roles and PUT /roles?id= on 3.x: the level is explicit, permissions are `capabilities`. */
export class RoleV3Dto {
  @RequiredString()
  name!: string;

  @RequiredString(65535)
  description!: string;

  @RequiredInt({ min: 0, max: 30 })
  privLevel!: number;

  @OptionalStringList()
  capabilities?: string[] | null;
}

/** What the service writes, whichever version's body it came from. */
export interface RoleInput {
  name: string;
  description: string;
  /** 3.x only; 4.0+ roles take their creator's level. */
  privLevel?: number;
  /** Null keeps the role's permissions on update (a 3.x body without capabilities). */
  permissions: string[] | null;
}

export function roleInputOf(dto: RoleV3Dto | RoleV4Dto): RoleInput {
  if (dto instanceof RoleV3Dto) {
    return {
      name: dto.name,
      description: dto.description,
      privLevel: dto.privLevel,
      permissions: dto.capabilities ?? null,
    };
  }
  return { name: dto.name, description: dto.description, permissions: dto.permissions ?? [] };
}
