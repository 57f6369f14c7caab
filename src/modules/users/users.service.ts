import { Inject, Injectable, Logger, NotFoundException, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { DataSource, Repository } from 'typeorm';
import { classifyDbError } from 'src/common/database/db-error';
import type { CurrentUser } from 'src/common/types/current-user';
import { authConfig, type AuthConfig } from 'src/config/auth.config';
import { hashPassword } from 'src/modules/auth/password';
import { User } from './user.entity';

interface SessionRow {
  id: number;
  username: string;
  tenant_id: number;
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
}

@Injectable()
export class UsersService implements OnApplicationBootstrap {
  private readonly logger = new Logger(UsersService.name);

  constructor(
    @InjectRepository(User) private readonly users: Repository<User>,
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(authConfig.KEY) private readonly config: AuthConfig,
  ) {}

  /**
   * The signed-in user with role, level and permissions: one indexed query (by the unique user
   * name), one row per permission.
   */
  async findSessionUser(username: string): Promise<CurrentUser | undefined> {
    const rows: SessionRow[] = await this.dataSource.query(
      'SELECT u.id, u.username, u.tenant_id, r.name AS role_name, r.priv_level, rc.cap_name ' +
        'FROM tm_user u JOIN role r ON r.id = u.role LEFT JOIN role_capability rc ON rc.role_id = r.id ' +
        'WHERE u.username = ?',
      [username],
    );
    if (rows.length === 0) {
      return undefined;
    }
    const [row] = rows;
    return {
      id: Number(row.id),
      username: row.username,
      tenantId: Number(row.tenant_id),
      roleName: row.role_name,
      privLevel: Number(row.priv_level),
      permissions: new Set(rows.map((r) => r.cap_name).filter((c): c is string => c !== null)),
    };
  }

  async findLoginCandidate(username: string): Promise<LoginCandidate | undefined> {
    const user = await this.users
      .createQueryBuilder('u')
      .addSelect('u.localPasswd')
      .innerJoinAndSelect('u.role', 'r')
      .where('u.username = :username', { username })
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
    return user;
  }

  /**
   * Decision D11: with no user at all, create `admin` (role admin, tenant root) with ADMIN_PASSWORD,
   * or a random password printed once. The unique user name settles a race between instances.
   */
  async onApplicationBootstrap(): Promise<void> {
    if ((await this.users.count()) > 0) {
      return;
    }
    const generated = this.config.adminPassword === undefined;
    const password = this.config.adminPassword ?? randomBytes(12).toString('base64url');
    try {
      await this.dataSource.query(
        'INSERT INTO tm_user (username, local_passwd, role, tenant_id, full_name, new_user) ' +
          "SELECT 'admin', ?, r.id, t.id, 'Administrator', ? FROM role r, tenant t WHERE r.name = 'admin' AND t.name = 'root'",
        [await hashPassword(password), 0],
      );
    } catch (error) {
      if (classifyDbError(error)?.kind === 'unique') {
        return;
      }
      throw error;
    }
    this.logger.log(
      generated
        ? `created the first user 'admin' with the generated password ${password} (shown once; change it)`
        : `created the first user 'admin' with the password from ADMIN_PASSWORD`,
    );
  }
}
