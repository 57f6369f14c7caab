import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, type EntityManager, In, Repository } from 'typeorm';
import { insertRow, insertRows } from 'src/common/database/insert-rows';
import { getPlainMany } from 'src/common/database/plain-rows';
import { applyListQuery, type ListQuery } from 'src/common/list-query/list-query';
import type { RoleWithPermissions } from './dto/role.response';
import { RoleCapability } from './role-capability.entity';
import type { RoleKey } from './role-key';
import { Role } from './role.entity';

/**
 * The role and role_capability tables: the only file of the module that runs SQL
 * (docs/architecture.md#data-access). Methods taking a `manager` run in the caller's transaction.
 */
@Injectable()
export class RolesRepository {
  constructor(
    @InjectRepository(Role) private readonly roles: Repository<Role>,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /** The page of roles, each with its permissions. */
  async list(query: ListQuery): Promise<RoleWithPermissions[]> {
    const roles = await getPlainMany(applyListQuery(this.roles.createQueryBuilder('role'), query));
    return this.withPermissions(this.roles.manager, roles);
  }

  byKey(key: RoleKey, manager: EntityManager = this.roles.manager): Promise<Role | null> {
    return manager.findOneBy(Role, key);
  }

  /** Adds a role: its id. */
  add(manager: EntityManager, columns: Pick<Role, 'name' | 'description' | 'privLevel'>): Promise<number> {
    return insertRow(manager, Role, columns);
  }

  async change(manager: EntityManager, id: number, columns: Partial<Role>): Promise<void> {
    await manager.update(Role, { id }, columns);
  }

  /** Gives the role these permissions (one statement). */
  async grant(manager: EntityManager, roleId: number, permissions: string[]): Promise<void> {
    if (permissions.length > 0) {
      await insertRows(
        manager,
        RoleCapability,
        permissions.map((capName) => ({ roleId, capName })),
      );
    }
  }

  /** Takes every permission from the role. */
  async revokeAll(manager: EntityManager, roleId: number): Promise<void> {
    await manager.delete(RoleCapability, { roleId });
  }

  /** Deletes the role and its permissions: whether there was one. */
  async remove(manager: EntityManager, id: number): Promise<boolean> {
    await manager.delete(RoleCapability, { roleId: id });
    return Boolean((await manager.delete(Role, { id })).affected);
  }

  /** How many users have the role. */
  async userCount(roleId: number): Promise<number> {
    const [{ n }]: { n: number | string }[] = await this.dataSource.query(
      'SELECT COUNT(*) AS n FROM tm_user WHERE role = ?',
      [roleId],
    );
    return Number(n);
  }

  /** The role with its permissions, read on `manager`; it must exist. */
  async withPermissionsById(manager: EntityManager, id: number): Promise<RoleWithPermissions> {
    const role = await manager.findOneByOrFail(Role, { id });
    const [withPermissions] = await this.withPermissions(manager, [role]);
    return withPermissions;
  }

  /** One query for the permissions of all the roles of a page. */
  private async withPermissions(manager: EntityManager, roles: Role[]): Promise<RoleWithPermissions[]> {
    if (roles.length === 0) {
      return [];
    }
    const capabilities = await manager.find(RoleCapability, {
      where: { roleId: In(roles.map((r) => r.id)) },
      order: { capName: 'ASC' },
    });
    return roles.map((role) => ({
      ...role,
      permissions: capabilities.filter((c) => c.roleId === role.id).map((c) => c.capName),
    }));
  }
}
