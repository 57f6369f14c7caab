import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, type EntityManager, Repository, type SelectQueryBuilder } from 'typeorm';
import { insertRow, insertRows } from 'src/common/database/insert-rows';
import { writeLock } from 'src/common/database/locks';
import { getPlainMany } from 'src/common/database/plain-rows';
import { applyListQuery, type ListQuery } from 'src/common/list-query/list-query';
import { Role } from 'src/modules/roles/role.entity';
import { Tenant } from 'src/modules/tenants/tenant.entity';
import { withinTenancy } from 'src/modules/tenants/tenants.repository';
import { User } from './user.entity';

/** A signed-in user's row, once per permission of their role (`cap_name` null: none). */
export interface SessionRow {
  id: number;
  username: string;
  tenant_id: number;
  session_generation: number;
  role_name: string;
  priv_level: number;
  cap_name: string | null;
}

/**
 * The tm_user table, and what the users module reads of roles, tenants, the change log and the
 * global parameters: the only file of the module that runs SQL (docs/architecture.md#data-access).
 * Methods taking a `manager` run in the caller's transaction.
 */
@Injectable()
export class UsersRepository {
  constructor(
    @InjectRepository(User) private readonly users: Repository<User>,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /** The user with role and permissions: one query by primary key, one row per permission. */
  sessionRows(id: number): Promise<SessionRow[]> {
    return this.dataSource.query(
      'SELECT u.id, u.username, u.tenant_id, u.session_generation, r.name AS role_name, r.priv_level, ' +
        'rc.cap_name FROM tm_user u JOIN role r ON r.id = u.role ' +
        'LEFT JOIN role_capability rc ON rc.role_id = r.id WHERE u.id = ?',
      [id],
    );
  }

  /** Raises the user's session generation, back to 0 after `max` (on `manager` when given). */
  async nextSessionGeneration(manager: EntityManager | undefined, id: number, max: number): Promise<void> {
    await (manager ?? this.dataSource.manager).query(
      'UPDATE tm_user SET session_generation = CASE WHEN session_generation >= ? THEN 0 ' +
        'ELSE session_generation + 1 END WHERE id = ?',
      [max, id],
    );
  }

  /** The user by this name, with role, password hash and session generation. */
  signingInByName(username: string): Promise<User | null> {
    return this.signingInWhere('u.username = :username', { username });
  }

  /** The user whose token is exactly `token`, with role, password hash and session generation. */
  signingInByToken(token: string): Promise<User | null> {
    return this.signingInWhere('u.token = :token', { token });
  }

  /** Clears the user's token if it is still `token`, and stamps the sign-in: whether it was. */
  async consumeToken(id: number, token: string): Promise<boolean> {
    const result = await this.users.update({ id, token }, { token: null, lastAuthenticated: new Date() });
    return (result.affected ?? 0) > 0;
  }

  async markAuthenticated(id: number): Promise<void> {
    await this.users.update({ id }, { lastAuthenticated: new Date() });
  }

  /** The user with role and tenant loaded, and its change-log count; null when there is none. */
  async withRelations(id: number): Promise<User | null> {
    const user = await this.users.findOne({ where: { id }, relations: { role: true, tenant: true } });
    return user && (await this.withChangeLogCounts([user]))[0];
  }

  /** The user by name with role and tenant loaded (no change-log count). */
  byNameWithRelations(username: string): Promise<User | null> {
    return this.users.findOne({ where: { username }, relations: { role: true, tenant: true } });
  }

  /** The user with their role loaded. */
  byIdWithRole(id: number): Promise<User | null> {
    return this.users.findOne({ where: { id }, relations: { role: true } });
  }

  /** The user as stored; they must exist. */
  byId(id: number): Promise<User> {
    return this.users.findOneOrFail({ where: { id } });
  }

  /** The user read under a write lock (nothing on SQLite); they must exist. */
  lockedById(manager: EntityManager, id: number): Promise<User> {
    return manager.findOneOrFail(User, { where: { id }, lock: writeLock(this.dataSource) });
  }

  /** The page of users whose tenant is within `tenantId`'s reach (filtered in SQL), with counts. */
  async list(query: ListQuery, tenantId: number): Promise<User[]> {
    return this.withChangeLogCounts(await getPlainMany(applyListQuery(this.visibleTo(tenantId), query)));
  }

  /** The user if within `tenantId`'s reach, with its change-log count. */
  async visibleById(id: number, tenantId: number): Promise<User | null> {
    const found = await this.visibleTo(tenantId).andWhere('u.id = :id', { id }).getOne();
    return found && (await this.withChangeLogCounts([found]))[0];
  }

  /** Adds a user: their id. */
  add(manager: EntityManager, columns: Partial<User>): Promise<number> {
    return insertRow(manager, User, columns);
  }

  /** Adds a user without reading the id back. */
  async addWithoutId(manager: EntityManager, columns: Partial<User>): Promise<void> {
    await insertRows(manager, User, columns);
  }

  async change(manager: EntityManager, id: number, columns: Partial<User>): Promise<void> {
    await manager.update(User, { id }, columns);
  }

  /** The user with this address, read under a write lock (nothing on SQLite). */
  lockedByEmail(manager: EntityManager, email: string): Promise<User | null> {
    return manager.findOne(User, { where: { email }, lock: writeLock(this.dataSource) });
  }

  /** The id of the user with this address. */
  async idByEmail(email: string): Promise<number | undefined> {
    const found = await this.dataSource.manager.findOne(User, { select: { id: true }, where: { email } });
    return found?.id;
  }

  /** Sets the user's token, outside any unit of work. */
  async setToken(id: number, token: string): Promise<void> {
    await this.dataSource.manager.update(User, { id }, { token });
  }

  /** The role by name (a string) or id (a number). */
  role(key: string | number, manager: EntityManager = this.dataSource.manager): Promise<Role | null> {
    return manager.findOneBy(Role, typeof key === 'string' ? { name: key } : { id: key });
  }

  /** The permissions of the role by this name, in name order. */
  async permissionsOfRoleNamed(name: string): Promise<string[]> {
    const caps = await this.dataSource.query<{ cap: string }[]>(
      'SELECT rc.cap_name AS cap FROM role_capability rc JOIN role r ON r.id = rc.role_id WHERE r.name = ? ORDER BY rc.cap_name',
      [name],
    );
    return caps.map((row) => row.cap);
  }

  /** The permissions of the role with this id, in name order. */
  async permissionsOfRole(manager: EntityManager, roleId: number): Promise<string[]> {
    const caps = await manager.query<{ cap: string }[]>(
      'SELECT cap_name AS cap FROM role_capability WHERE role_id = ? ORDER BY cap_name',
      [roleId],
    );
    return caps.map((row) => row.cap);
  }

  /** The tenant; it must exist. */
  tenant(id: number): Promise<Tenant> {
    return this.dataSource.manager.findOneByOrFail(Tenant, { id });
  }

  /** The `tm.instance_name` global parameter, if set. */
  async instanceName(): Promise<string | undefined> {
    const rows = await this.dataSource.query<{ value: string }[]>(
      "SELECT value FROM parameter WHERE name = 'tm.instance_name' AND config_file = 'global' ORDER BY id LIMIT 1",
    );
    return rows[0]?.value;
  }

  /** How many users there are. */
  async count(): Promise<number> {
    const [{ count }] = await this.dataSource.query<{ count: number | string }[]>(
      'SELECT COUNT(*) AS count FROM tm_user',
    );
    return Number(count);
  }

  /** Adds `admin` (role admin, tenant root) with this password hash; a second one breaks the unique name. */
  async addFirstAdmin(passwordHash: string): Promise<void> {
    await this.dataSource.query(
      'INSERT INTO tm_user (username, local_passwd, role, tenant_id, full_name, new_user) ' +
        "SELECT 'admin', ?, r.id, t.id, 'Administrator', ? FROM role r, tenant t WHERE r.name = 'admin' AND t.name = 'root'",
      [passwordHash, 0],
    );
  }

  private signingInWhere(condition: string, params: Record<string, string>): Promise<User | null> {
    return this.users
      .createQueryBuilder('u')
      .addSelect(['u.localPasswd', 'u.sessionGeneration'])
      .innerJoinAndSelect('u.role', 'r')
      .where(condition, params)
      .getOne();
  }

  private visibleTo(tenantId: number): SelectQueryBuilder<User> {
    const qb = this.users
      .createQueryBuilder('u')
      .leftJoinAndSelect('u.role', 'r')
      .leftJoinAndSelect('u.tenant', 't');
    return withinTenancy(qb, 'u.tenant_id', tenantId);
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
}
