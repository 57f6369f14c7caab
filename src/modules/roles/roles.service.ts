import { BadRequestException, ForbiddenException, Injectable, NotFoundException } from '@nestjs/common';
import { classifyDbError } from 'src/common/database/db-error';
import { UnitOfWork } from 'src/common/database/unit-of-work';
import type { ListQuery } from 'src/common/list-query/list-query';
import { type CurrentUser, holdsPermissionNamed } from 'src/common/types/current-user';
import type { RoleInput } from './dto/role.dto';
import type { RoleWithPermissions } from './dto/role.response';
import { SessionUserCache } from 'src/common/auth/session-user.cache';
import type { RoleKey } from './role-key';
import type { Role } from './role.entity';
import { RolesRepository } from './roles.repository';

export const ADMIN_ROLE = 'admin';

/** The permissions of `requested` that `user` does not hold, in request order, without repeats. */
export function missingPermissions(user: CurrentUser, requested: string[]): string[] {
  return [...new Set(requested)].filter((permission) => !holdsPermissionNamed(user, permission));
}

@Injectable()
export class RolesService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly roles: RolesRepository,
    private readonly sessionCache: SessionUserCache,
  ) {}

  async list(query: ListQuery): Promise<RoleWithPermissions[]> {
    return this.roles.list(query);
  }

  /** The role and its permissions are written in one transaction; a taken name is the unique index's 400. */
  async create(input: RoleInput, user: CurrentUser): Promise<RoleWithPermissions> {
    const permissions = this.requestedPermissions(input.permissions ?? [], user);
    // 4.0+ bodies carry no level: the new role gets its creator's.
    const privLevel =
      input.privLevel === undefined ? user.privLevel : this.allowedLevel(input.privLevel, user);
    return this.unitOfWork.run(async (manager) => {
      const id = await this.roles.add(manager, {
        name: input.name,
        description: input.description,
        privLevel,
      });
      await this.roles.grant(manager, id, permissions);
      return this.roles.withPermissionsById(manager, id);
    });
  }

  /** `input.permissions` null (3.x body without capabilities) keeps the role's permissions. */
  async update(key: RoleKey, input: RoleInput, user: CurrentUser): Promise<RoleWithPermissions> {
    if ('name' in key && key.name === ADMIN_ROLE) {
      throw new BadRequestException('cannot modify the admin role');
    }
    const permissions =
      input.permissions === null ? null : this.requestedPermissions(input.permissions, user);
    const updated = await this.unitOfWork.run(async (manager) => {
      const role = await this.roles.byKey(key, manager);
      if (!role) {
        throw new NotFoundException('name' in key ? 'no such role' : 'role not found');
      }
      if (role.name === ADMIN_ROLE) {
        throw new BadRequestException('cannot modify the admin role');
      }
      const columns: Partial<Role> = { name: input.name, description: input.description };
      if (input.privLevel !== undefined) {
        columns.privLevel = this.allowedLevel(input.privLevel, user);
      }
      await this.roles.change(manager, role.id, columns);
      if (permissions !== null) {
        await this.roles.revokeAll(manager, role.id);
        await this.roles.grant(manager, role.id, permissions);
      }
      this.sessionCache.invalidate(manager);
      return this.roles.withPermissionsById(manager, role.id);
    });
    return updated;
  }

  /** A role with users is refused by the users' restrict foreign key; the message then counts them. */
  async remove(key: RoleKey): Promise<void> {
    if ('name' in key && key.name === ADMIN_ROLE) {
      throw new BadRequestException('cannot delete the admin role');
    }
    const role = await this.roles.byKey(key);
    if (!role) {
      throw new NotFoundException('no role with that key found');
    }
    if (role.name === ADMIN_ROLE) {
      throw new BadRequestException('cannot delete the admin role');
    }
    try {
      await this.unitOfWork.run(async (manager) => {
        if (!(await this.roles.remove(manager, role.id))) {
          throw new NotFoundException('no role with that key found');
        }
        this.sessionCache.invalidate(manager);
      });
    } catch (error) {
      const failure = classifyDbError(error);
      if (failure?.kind === 'inUse' && failure.referencingTable === 'tm_user') {
        const users = await this.roles.userCount(role.id);
        throw new BadRequestException(`can not delete a role with ${users} assigned users`);
      }
      throw error;
    }
  }

  /** The role's permissions, checked against the creator's own: nobody grants what they lack. */
  private requestedPermissions(requested: string[], user: CurrentUser): string[] {
    const missing = missingPermissions(user, requested);
    if (missing.length > 0) {
      throw new ForbiddenException(
        `cannot request more than assigned permissions, current user needs ${missing.join(',')} permissions`,
      );
    }
    return [...new Set(requested)];
  }

  private allowedLevel(level: number, user: CurrentUser): number {
    if (level > user.privLevel) {
      throw new ForbiddenException('can not create a role with a higher priv level than your own');
    }
    return level;
  }
}
