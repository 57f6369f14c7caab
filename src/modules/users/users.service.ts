import { BadRequestException, ForbiddenException, Injectable, NotFoundException } from '@nestjs/common';
import { type TransactionManager, UnitOfWork } from 'src/common/database/unit-of-work';
import type { ListQuery } from 'src/common/list-query/list-query';
import type { CurrentUser } from 'src/common/types/current-user';
import { SessionUserCache, type SessionRecord } from 'src/common/auth/session-user.cache';
import type { Role } from 'src/modules/roles/role.entity';
import { TenancyService } from 'src/modules/tenants/tenancy.service';
import { UserV3Dto, UserV4Dto } from './dto/user.dto';
import { hashPassword } from './password';
import { passwordProblem } from './password-rules';
import type { User } from './user.entity';
import { UsersRepository } from './users.repository';

export const MORE_PRIVILEGED_ROLE = 'user cannot update a user with a role more privileged than themselves';

export interface LoginCandidate {
  id: number;
  username: string;
  passwordHash: string | null;
  roleName: string;
  privLevel: number;
  sessionGeneration: number;
}

/** The largest session generation; the next one after it is 0 again (cookies live one hour). */
const MAX_GENERATION = 2_147_483_647;

@Injectable()
export class UsersService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly users: UsersRepository,
    private readonly tenancy: TenancyService,
    private readonly sessionCache: SessionUserCache,
  ) {}

  /**
   * The signed-in user with role, level, permissions and session generation: one query by primary
   * key, one row per permission.
   */
  async findSessionRecord(id: number): Promise<Omit<SessionRecord, 'endedSessions'> | undefined> {
    const rows = await this.users.sessionRows(id);
    if (rows.length === 0) {
      return undefined;
    }
    const [row] = rows;
    return {
      user: {
        id: Number(row.id),
        username: row.username,
        tenantId: Number(row.tenant_id),
        roleName: row.role_name,
        privLevel: Number(row.priv_level),
        permissions: new Set(rows.map((r) => r.cap_name).filter((c): c is string => c !== null)),
      },
      generation: Number(row.session_generation),
    };
  }

  /**
   * Ends every session of the user: their cookies carry the generation this raises (in the
   * transaction of `manager` when given). This instance forgets its cached sessions at once; the
   * others within SESSION_CACHE_SECONDS.
   */
  async endSessions(id: number, manager?: TransactionManager): Promise<void> {
    await this.users.nextSessionGeneration(manager, id, MAX_GENERATION);
    this.sessionCache.invalidate(manager);
  }

  async findLoginCandidate(username: string): Promise<LoginCandidate | undefined> {
    return loginCandidate(await this.users.signingInByName(username));
  }

  /** The user whose registration or password-reset token is exactly `token` (POST user/login/token). */
  async findTokenCandidate(token: string): Promise<LoginCandidate | undefined> {
    return loginCandidate(await this.users.signingInByToken(token));
  }

  /** Clears a user's token once it signed them in: a mailed token serves one sign-in (docs/decisions.md#d121). */
  async consumeToken(id: number, token: string): Promise<boolean> {
    return this.users.consumeToken(id, token);
  }

  async markAuthenticated(id: number): Promise<void> {
    await this.users.markAuthenticated(id);
  }

  /** The user with role and tenant loaded, as the user endpoints show it. */
  async findWithRelations(id: number): Promise<User> {
    const user = await this.users.withRelations(id);
    if (!user) {
      throw new NotFoundException('user not found');
    }
    return user;
  }

  /** The users whose tenant is within the asking user's reach (docs/decisions.md#d13), filtered in SQL. */
  async list(query: ListQuery, user: CurrentUser): Promise<User[]> {
    return this.users.list(query, user.tenantId);
  }

  /** A user out of reach answers as a missing one. */
  async findVisible(id: number, user: CurrentUser): Promise<User> {
    const found = await this.users.visibleById(id, user.tenantId);
    if (!found) {
      throw new NotFoundException('no user found with this id');
    }
    return found;
  }

  /**
   * The insert runs first so that an unknown tenant answers the foreign key's 404 and a taken
   * user name or email the unique index's 400; a tenant out of reach then rolls it back (403).
   */
  async create(dto: UserV3Dto | UserV4Dto, user: CurrentUser): Promise<User> {
    if (dto.localPasswd === undefined || dto.localPasswd === null || dto.localPasswd === '') {
      throw new BadRequestException("'localPasswd' cannot be blank");
    }
    this.checkPassword(dto, dto.localPasswd);
    const role = await this.assignableRole(dto.role, user);
    const password = await hashPassword(dto.localPasswd);
    const id = await this.unitOfWork.run(async (manager) => {
      const created = await this.users.add(manager, { ...userColumns(dto, role), localPasswd: password });
      await this.tenancy.assertWithinReach(user.tenantId, dto.tenantId, manager);
      return created;
    });
    return this.findWithRelations(id);
  }

  /**
   * Tenancy applies to the user's current tenant and to the new one; the password changes only when
   * given. A new password or another role ends the user's sessions (in the same transaction).
   */
  async update(id: number, dto: UserV3Dto | UserV4Dto, user: CurrentUser): Promise<User> {
    const target = await this.users.byIdWithRole(id);
    if (!target) {
      throw new NotFoundException('no user found with this id');
    }
    await this.tenancy.assertWithinReach(user.tenantId, target.tenantId);
    if ((target.role?.privLevel ?? 0) > user.privLevel) {
      throw new ForbiddenException(MORE_PRIVILEGED_ROLE);
    }
    const role = await this.assignableRole(dto.role, user);
    if (id === user.id && role.id !== target.roleId) {
      throw new BadRequestException('users cannot update their own role');
    }
    let password: string | undefined;
    if (dto.localPasswd !== undefined && dto.localPasswd !== null) {
      this.checkPassword(dto, dto.localPasswd);
      password = await hashPassword(dto.localPasswd);
    }
    await this.unitOfWork.run(async (manager) => {
      const columns: Partial<User> = userColumns(dto, role);
      if (password !== undefined) {
        columns.localPasswd = password;
      }
      await this.users.change(manager, id, columns);
      await this.tenancy.assertWithinReach(user.tenantId, dto.tenantId, manager);
      if (password !== undefined || role.id !== target.roleId) {
        await this.endSessions(id, manager);
      } else {
        this.sessionCache.invalidate(manager);
      }
    });
    return this.findWithRelations(id);
  }

  /** Whether there is any user at all (FirstAdmin, at start-up). */
  async hasAnyUser(): Promise<boolean> {
    return (await this.users.count()) > 0;
  }

  /** Adds `admin` (role admin, tenant root) with this password hash; a second one breaks the unique name. */
  addFirstAdmin(passwordHash: string): Promise<void> {
    return this.users.addFirstAdmin(passwordHash);
  }

  /**
   * Sets a user's password by the rules of the API (length, not the user name, not a common one)
   * without knowing the old one: the operators' reset (`npm run cli -- user:password`).
   */
  async setPassword(username: string, password: string): Promise<User> {
    const user = await this.users.byNameWithRelations(username);
    if (!user) {
      throw new NotFoundException(`no user named '${username}'`);
    }
    const problem = passwordProblem(username, password, password);
    if (problem) {
      throw new BadRequestException(problem);
    }
    const hash = await hashPassword(password);
    // A new password ends every session issued before, as through the API.
    await this.unitOfWork.run(async (manager) => {
      await this.users.change(manager, user.id, { localPasswd: hash });
      await this.endSessions(user.id, manager);
    });
    return user;
  }

  /** The role a body names (by name on 4.0+, by id on 3.x), if the asking user may hand it out. */
  private async assignableRole(key: string | number, user: CurrentUser): Promise<Role> {
    const role = await this.users.role(key);
    if (!role) {
      throw new NotFoundException('role not found');
    }
    if (role.privLevel > user.privLevel) {
      throw new ForbiddenException(MORE_PRIVILEGED_ROLE);
    }
    return role;
  }

  private checkPassword(dto: UserV3Dto | UserV4Dto, password: string): void {
    const problem = passwordProblem(dto.username, password, dto.confirmLocalPasswd);
    if (problem) {
      throw new BadRequestException(problem);
    }
  }
}

/** A user as a request body gives them: every column the body sets, with the role it names. */
export function userColumns(dto: UserV3Dto | UserV4Dto, role: Role): Partial<User> {
  return {
    username: dto.username,
    email: dto.email,
    fullName: dto.fullName,
    roleId: role.id,
    tenantId: dto.tenantId,
    addressLine1: dto.addressLine1 ?? null,
    addressLine2: dto.addressLine2 ?? null,
    city: dto.city ?? null,
    company: dto.company ?? null,
    country: dto.country ?? null,
    phoneNumber: dto.phoneNumber ?? null,
    postalCode: dto.postalCode ?? null,
    publicSshKey: dto.publicSshKey ?? null,
    stateOrProvince: dto.stateOrProvince ?? null,
    uid: dto.uid ?? null,
    gid: dto.gid ?? null,
    ucdn: dto.ucdn ?? '',
    newUser: dto.newUser ?? false,
  };
}

function loginCandidate(user: User | null): LoginCandidate | undefined {
  if (!user?.role) {
    return undefined;
  }
  return {
    id: user.id,
    username: user.username,
    passwordHash: user.localPasswd ?? null,
    roleName: user.role.name,
    privLevel: user.role.privLevel,
    sessionGeneration: user.sessionGeneration ?? 0,
  };
}
