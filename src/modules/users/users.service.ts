import { UnitOfWork } from 'src/common/database/unit-of-work';
import { insertRow } from 'src/common/database/insert-rows';
import { getPlainMany } from 'src/common/database/plain-rows';
import {
  BadRequestException,
  ConflictException,
  ForbiddenException,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, type EntityManager, Repository, type SelectQueryBuilder } from 'typeorm';
import { applyListQuery, type ListQuery } from 'src/common/list-query/list-query';
import { type CurrentUser, holdsPermissionNamed } from 'src/common/types/current-user';
import { translateDbErrors } from 'src/common/database/db-error';
import { writeLock } from 'src/common/database/locks';
import { hashPassword } from './password';
import { Role } from 'src/modules/roles/role.entity';
import { TenancyService } from 'src/modules/tenants/tenancy.service';
import { withinTenancy } from 'src/modules/tenants/tenants.repository';
import { UserV3Dto, UserV4Dto } from './dto/user.dto';
import { CANNOT_CHANGE_ID, COULD_NOT_PARSE, type CurrentUserV3Body } from './dto/current-user.body';
import { goodPasswordProblem, passwordProblem } from './password-rules';
import { SessionUserCache, type SessionUser } from 'src/common/auth/session-user.cache';
import { User } from './user.entity';

export const MORE_PRIVILEGED_ROLE = 'user cannot update a user with a role more privileged than themselves';

interface SessionRow {
  id: number;
  username: string;
  tenant_id: number;
  session_generation: number;
  role_name: string;
  priv_level: number;
  cap_name: string | null;
}

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
    @InjectRepository(User) private readonly users: Repository<User>,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly tenancy: TenancyService,
    private readonly sessionCache: SessionUserCache,
  ) {}

  /**
   * The signed-in user with role, level, permissions and session generation: one query by primary
   * key, one row per permission.
   */
  async findSessionUser(id: number): Promise<Omit<SessionUser, 'endedSessions'> | undefined> {
    const rows: SessionRow[] = await this.dataSource.query(
      'SELECT u.id, u.username, u.tenant_id, u.session_generation, r.name AS role_name, r.priv_level, ' +
        'rc.cap_name FROM tm_user u JOIN role r ON r.id = u.role ' +
        'LEFT JOIN role_capability rc ON rc.role_id = r.id WHERE u.id = ?',
      [id],
    );
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
  async endSessions(id: number, manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.query(
      'UPDATE tm_user SET session_generation = CASE WHEN session_generation >= ? THEN 0 ' +
        'ELSE session_generation + 1 END WHERE id = ?',
      [MAX_GENERATION, id],
    );
    this.sessionCache.invalidate(manager);
  }

  async findLoginCandidate(username: string): Promise<LoginCandidate | undefined> {
    return this.loginCandidateWhere('u.username = :username', { username });
  }

  /** The user whose registration or password-reset token is exactly `token` (POST user/login/token). */
  async findTokenCandidate(token: string): Promise<LoginCandidate | undefined> {
    return this.loginCandidateWhere('u.token = :token', { token });
  }

  /** Clears a user's token once it signed them in: a mailed token serves one sign-in (docs/decisions.md#d121). */
  async consumeToken(id: number, token: string): Promise<boolean> {
    const result = await this.users.update({ id, token }, { token: null, lastAuthenticated: new Date() });
    return (result.affected ?? 0) > 0;
  }

  private async loginCandidateWhere(
    condition: string,
    params: Record<string, string>,
  ): Promise<LoginCandidate | undefined> {
    const user = await this.users
      .createQueryBuilder('u')
      .addSelect(['u.localPasswd', 'u.sessionGeneration'])
      .innerJoinAndSelect('u.role', 'r')
      .where(condition, params)
      .getOne();
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

  async markAuthenticated(id: number): Promise<void> {
    await this.users.update({ id }, { lastAuthenticated: new Date() });
  }

  /** The user with role and tenant loaded, as the user endpoints show it. */
  async findWithRelations(id: number): Promise<User> {
    const user = await this.users.findOne({ where: { id }, relations: { role: true, tenant: true } });
    if (!user) {
      throw new NotFoundException('user not found');
    }
    return (await this.withChangeLogCounts([user]))[0];
  }

  /** The users whose tenant is within the asking user's reach (docs/decisions.md#d13), filtered in SQL. */
  async list(query: ListQuery, user: CurrentUser): Promise<User[]> {
    return this.withChangeLogCounts(await getPlainMany(applyListQuery(this.visibleTo(user), query)));
  }

  /** A user out of reach answers as a missing one. */
  async findVisible(id: number, user: CurrentUser): Promise<User> {
    const found = await this.visibleTo(user).andWhere('u.id = :id', { id }).getOne();
    if (!found) {
      throw new NotFoundException('no user found with this id');
    }
    return (await this.withChangeLogCounts([found]))[0];
  }

  /** Sets each user's `changeLogCount` (the original's count of its `log` rows) with one query. */
  private async withChangeLogCounts(users: User[]): Promise<User[]> {
    if (users.length === 0) {
      return users;
    }
    const rows = await this.dataSource
      .createQueryBuilder()
      .select('l.tm_user', 'user')
      .addSelect('COUNT(*)', 'count')
      .from('log', 'l')
      .where('l.tm_user IN (:...ids)', { ids: users.map((u) => u.id) })
      .groupBy('l.tm_user')
      .getRawMany<{ user: number | string; count: number | string }>();
    const counts = new Map(rows.map((row) => [Number(row.user), Number(row.count)]));
    for (const user of users) {
      user.changeLogCount = counts.get(user.id) ?? 0;
    }
    return users;
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
      const created = await insertRow(manager, User, { ...this.columns(dto, role), localPasswd: password });
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
    const target = await this.users.findOne({ where: { id }, relations: { role: true } });
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
      const columns: Partial<User> = this.columns(dto, role);
      if (password !== undefined) {
        columns.localPasswd = password;
      }
      await manager.update(User, { id }, columns);
      await this.tenancy.assertWithinReach(user.tenantId, dto.tenantId, manager);
      if (password !== undefined || role.id !== target.roleId) {
        await this.endSessions(id, manager);
      } else {
        this.sessionCache.invalidate(manager);
      }
    });
    return this.findWithRelations(id);
  }

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
    const caps = await this.dataSource.query<{ cap: string }[]>(
      'SELECT rc.cap_name AS cap FROM role_capability rc JOIN role r ON r.id = rc.role_id WHERE r.name = ? ORDER BY rc.cap_name',
      [dto.role],
    );
    const missing = caps.map((row) => row.cap).filter((cap) => !holdsPermissionNamed(user, cap));
    if (missing.length > 0) {
      throw new BadRequestException(
        `cannot request more than assigned permissions, current user needs ${missing.join(',')} permissions`,
      );
    }
    const role = await this.dataSource.manager.findOneBy(Role, { name: dto.role });
    if (!role) {
      throw new NotFoundException('no such role');
    }
    const current = await this.users.findOneOrFail({ where: { id: user.id } });
    if (role.id !== current.roleId) {
      throw new BadRequestException('users cannot update their own role');
    }
    if (!(await this.tenancy.isWithinReach(user.tenantId, dto.tenantId))) {
      throw new NotFoundException(`no such tenant: #${dto.tenantId}`);
    }
    const password = dto.localPasswd ? await hashPassword(dto.localPasswd) : undefined;
    await this.unitOfWork.run(async (manager) => {
      const columns: Partial<User> = { ...this.columns(dto, role), newUser: false, token: null };
      if (password !== undefined) {
        columns.localPasswd = password;
      }
      await translateDbErrors(
        () => manager.update(User, { id: user.id }, columns),
        (failure) =>
          failure.kind === 'unique' && failure.columns.includes('username')
            ? new BadRequestException(`username ${dto.username} already exists`)
            : undefined,
      );
      if (password !== undefined) {
        await this.endSessions(user.id, manager);
      } else {
        this.sessionCache.invalidate(manager);
      }
    });
    return this.findWithRelations(user.id);
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
      const stored = await manager.findOneOrFail(User, {
        where: { id: user.id },
        lock: writeLock(this.dataSource),
      });
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
        () => manager.update(User, { id: user.id }, columns),
        (failure) =>
          failure.kind === 'unique' && failure.columns.includes('username')
            ? new ConflictException(`username ${changes.username} already exists`)
            : undefined,
      );
      if (password !== undefined || roleId !== stored.roleId) {
        await this.endSessions(user.id, manager);
      } else {
        this.sessionCache.invalidate(manager);
      }
    });
    return this.findWithRelations(user.id);
  }

  /** Another role for oneself on 3.x: it exists, is not above the user's level, holds no more permissions. */
  private async assertOwnRoleChange(
    roleId: number,
    user: CurrentUser,
    manager: EntityManager,
  ): Promise<void> {
    const role = await manager.findOneBy(Role, { id: roleId });
    if (!role) {
      throw new NotFoundException(`role: no such role: ${roleId}`);
    }
    if (role.privLevel > user.privLevel) {
      throw new ForbiddenException("role: cannot have greater permissions than user's current role");
    }
    const caps = await manager.query<{ cap: string }[]>(
      'SELECT cap_name AS cap FROM role_capability WHERE role_id = ? ORDER BY cap_name',
      [roleId],
    );
    const missing = caps.map((row) => row.cap).filter((cap) => !holdsPermissionNamed(user, cap));
    if (missing.length > 0) {
      throw new BadRequestException(
        `cannot request more than assigned permissions, current user needs ${missing.join(',')} permissions`,
      );
    }
  }

  /**
   * Sets a user's password by the rules of the API (length, not the user name, not a common one)
   * without knowing the old one: the operators' reset (`npm run cli -- user:password`).
   */
  async setPassword(username: string, password: string): Promise<User> {
    const user = await this.users.findOne({ where: { username }, relations: { role: true, tenant: true } });
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
      await manager.update(User, { id: user.id }, { localPasswd: hash });
      await this.endSessions(user.id, manager);
    });
    return user;
  }

  private visibleTo(user: CurrentUser): SelectQueryBuilder<User> {
    const qb = this.users
      .createQueryBuilder('u')
      .leftJoinAndSelect('u.role', 'r')
      .leftJoinAndSelect('u.tenant', 't');
    return withinTenancy(qb, 'u.tenant_id', user.tenantId);
  }

  /** The role a body names (by name on 4.0+, by id on 3.x), if the asking user may hand it out. */
  private async assignableRole(key: string | number, user: CurrentUser): Promise<Role> {
    const role = await this.dataSource.manager.findOneBy(
      Role,
      typeof key === 'string' ? { name: key } : { id: key },
    );
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

  private columns(dto: UserV3Dto | UserV4Dto, role: Role): Partial<User> {
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
}
