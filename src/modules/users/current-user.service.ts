import {
  BadRequestException,
  ConflictException,
  ForbiddenException,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import { SessionUserCache } from 'src/common/auth/session-user.cache';
import { translateDbErrors } from 'src/common/database/db-error';
import { type TransactionManager, UnitOfWork } from 'src/common/database/unit-of-work';
import { type CurrentUser, holdsPermissionNamed } from 'src/common/types/current-user';
import { TenancyService } from 'src/modules/tenants/tenancy.service';
import { CANNOT_CHANGE_ID, COULD_NOT_PARSE, type CurrentUserV3Body } from './dto/current-user.dto';
import { UserV4Dto } from './dto/user.dto';
import { hashPassword } from './password';
import { goodPasswordProblem, passwordProblem } from './password-rules';
import type { User } from './user.entity';
import { UsersRepository } from './users.repository';
import { UsersService, userColumns } from './users.service';

/**
 * PUT user/current: the signed-in user changes their own profile (docs/original-behaviour.md#user-current),
 * by the rules of 4.0+ or of 3.x. Sessions end and the user is read back through UsersService.
 */
@Injectable()
export class CurrentUserService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly users: UsersRepository,
    private readonly accounts: UsersService,
    private readonly tenancy: TenancyService,
    private readonly sessionCache: SessionUserCache,
  ) {}

  /**
   * PUT user/current (4.0+): the signed-in user replaces their own profile, in the original's order
   * of checks (docs/original-behaviour.md#user-current): the password's rules; the role's permissions
   * must all be held (400); another user's name (400); the role must exist (404) and be the user's
   * own (400); the tenant must be within reach (404). `newUser` turns false and any mailed token is
   * dropped. A new password ends the user's sessions, as PUT users/{id} does.
   */
  async updateCurrent(dto: UserV4Dto, user: CurrentUser): Promise<User> {
    if (dto.localPasswd !== undefined && dto.localPasswd !== null) {
      const problem = passwordProblem(dto.username, dto.localPasswd, dto.localPasswd);
      if (problem) {
        throw new BadRequestException(problem);
      }
    }
    const caps = await this.users.permissionsOfRoleNamed(dto.role);
    const missing = caps.filter((cap) => !holdsPermissionNamed(user, cap));
    if (missing.length > 0) {
      throw new BadRequestException(
        `cannot request more than assigned permissions, current user needs ${missing.join(',')} permissions`,
      );
    }
    const role = await this.users.role(dto.role);
    if (!role) {
      throw new NotFoundException('no such role');
    }
    const current = await this.users.byId(user.id);
    if (role.id !== current.roleId) {
      throw new BadRequestException('users cannot update their own role');
    }
    if (!(await this.tenancy.isWithinReach(user.tenantId, dto.tenantId))) {
      throw new NotFoundException(`no such tenant: #${dto.tenantId}`);
    }
    const password = dto.localPasswd ? await hashPassword(dto.localPasswd) : undefined;
    await this.unitOfWork.run(async (manager) => {
      const columns: Partial<User> = { ...userColumns(dto, role), newUser: false, token: null };
      if (password !== undefined) {
        columns.localPasswd = password;
      }
      await translateDbErrors(
        () => this.users.change(manager, user.id, columns),
        (failure) =>
          failure.kind === 'unique' && failure.columns.includes('username')
            ? new BadRequestException(`username ${dto.username} already exists`)
            : undefined,
      );
      if (password !== undefined) {
        await this.accounts.endSessions(user.id, manager);
      } else {
        this.sessionCache.invalidate(manager);
      }
    });
    return this.accounts.findWithRelations(user.id);
  }

  /**
   * PUT user/current on 3.x: the body's fields are merged into the stored user (read under a write
   * lock, so the merge and the write are one step), in the original's order of checks
   * (docs/original-behaviour.md#user-current): the own id only (400); the password's length and
   * commonness (400); another role must exist (404 `role: no such role: <id>`), be no higher than the
   * user's level (403) and, here, hold no permission the user lacks (400, docs/decisions.md#d111);
   * the tenant within reach (404 `no such tenant`); another user's name is 409. `newUser` turns false
   * and any mailed token is dropped. A new password or another role ends the user's sessions (D44).
   */
  async updateCurrentV3(body: CurrentUserV3Body, user: CurrentUser): Promise<User> {
    const { changes } = body;
    if (changes.id !== undefined && changes.id !== user.id) {
      throw new BadRequestException(COULD_NOT_PARSE + CANNOT_CHANGE_ID);
    }
    if (body.localPasswd !== undefined) {
      const problem = goodPasswordProblem(body.localPasswd);
      if (problem) {
        throw new BadRequestException(problem);
      }
    }
    const password = body.localPasswd === undefined ? undefined : await hashPassword(body.localPasswd);
    await this.unitOfWork.run(async (manager) => {
      const stored = await this.users.lockedById(manager, user.id);
      const roleId = changes.role ?? stored.roleId;
      if (roleId !== stored.roleId) {
        await this.assertOwnRoleChange(roleId, user, manager);
      }
      const tenantId = changes.tenantId ?? stored.tenantId;
      if (!(await this.tenancy.isWithinReach(user.tenantId, tenantId, manager))) {
        throw new NotFoundException('no such tenant');
      }
      const { id: _id, role: _role, ...fields } = changes;
      const columns: Partial<User> = { ...fields, roleId, tenantId, newUser: false, token: null };
      if (password !== undefined) {
        columns.localPasswd = password;
      }
      await translateDbErrors(
        () => this.users.change(manager, user.id, columns),
        (failure) =>
          failure.kind === 'unique' && failure.columns.includes('username')
            ? new ConflictException(`username ${changes.username} already exists`)
            : undefined,
      );
      if (password !== undefined || roleId !== stored.roleId) {
        await this.accounts.endSessions(user.id, manager);
      } else {
        this.sessionCache.invalidate(manager);
      }
    });
    return this.accounts.findWithRelations(user.id);
  }

  /** Another role for oneself on 3.x: it exists, is not above the user's level, holds no more permissions. */
  private async assertOwnRoleChange(
    roleId: number,
    user: CurrentUser,
    manager: TransactionManager,
  ): Promise<void> {
    const role = await this.users.role(roleId, manager);
    if (!role) {
      throw new NotFoundException(`role: no such role: ${roleId}`);
    }
    if (role.privLevel > user.privLevel) {
      throw new ForbiddenException("role: cannot have greater permissions than user's current role");
    }
    const caps = await this.users.permissionsOfRole(manager, roleId);
    const missing = caps.filter((cap) => !holdsPermissionNamed(user, cap));
    if (missing.length > 0) {
      throw new BadRequestException(
        `cannot request more than assigned permissions, current user needs ${missing.join(',')} permissions`,
      );
    }
  }
}
