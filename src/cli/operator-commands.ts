import { Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { type CommandOutput, type ImportOptions, TrafficOpsImporter } from 'src/cli/import/importer';
import { PrivLevel } from 'src/common/decorators/auth.decorators';
import type { CurrentUser } from 'src/common/types/current-user';
import { validateBody } from 'src/common/validation/versioned-body';
import { schemaVersionOf } from 'src/database/schema-version';
import { Tenant } from 'src/modules/tenants/tenant.entity';
import { UserV4Dto } from 'src/modules/users/dto/user.dto';
import type { User } from 'src/modules/users/user.entity';
import { UsersService } from 'src/modules/users/users.service';

export interface NewUser {
  username: string;
  role: string;
  tenant: string;
  email: string;
  fullName?: string;
  password: string;
}

/** A table of plain text, one row a line, columns padded to their widest cell. */
function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)];
}

/**
 * What `npm run cli -- <command>` does. User administration goes through UsersService, so that a
 * user made here obeys the API's rules (validation, password rules and hashing, unique names).
 */
@Injectable()
export class OperatorCommands {
  constructor(
    private readonly users: UsersService,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly importer: TrafficOpsImporter,
  ) {}

  importTrafficOps(options: ImportOptions): Promise<CommandOutput> {
    return this.importer.run(options);
  }

  async migrationRun(): Promise<string[]> {
    const applied = await this.dataSource.runMigrations({ transaction: 'each' });
    const version = await schemaVersionOf(this.dataSource);
    return [
      applied.length === 0
        ? 'no pending migrations'
        : `applied ${applied.length} migration(s): ${applied.map((m) => m.name).join(', ')}`,
      `schema version: ${version.current ?? '(none)'}`,
    ];
  }

  async migrationRevert(): Promise<string[]> {
    const before = await schemaVersionOf(this.dataSource);
    if (before.current === null) {
      return ['no migration to revert'];
    }
    await this.dataSource.undoLastMigration({ transaction: 'each' });
    const after = await schemaVersionOf(this.dataSource);
    return [`reverted ${before.current}`, `schema version: ${after.current ?? '(none)'}`];
  }

  async schemaVersion(): Promise<string[]> {
    const version = await schemaVersionOf(this.dataSource);
    return [
      `schema version: ${version.current ?? '(none)'}`,
      `applied: ${version.applied}, pending: ${version.pending.length}` +
        (version.pending.length > 0 ? ` (${version.pending.join(', ')}: run npm run migration:run)` : ''),
    ];
  }

  async userList(): Promise<string[]> {
    const operator = await this.operator();
    const users = await this.users.list(
      { filters: [], order: { column: 'u.username', direction: 'ASC' } },
      operator,
    );
    return table(
      ['id', 'username', 'role', 'tenant', 'email', 'last sign-in'],
      users.map((u) => [
        String(u.id),
        u.username,
        u.role?.name ?? '',
        u.tenant?.name ?? '',
        u.email ?? '',
        u.lastAuthenticated ? u.lastAuthenticated.toISOString() : 'never',
      ]),
    );
  }

  async userCreate(input: NewUser): Promise<string[]> {
    const tenant = await this.dataSource.manager.findOneBy(Tenant, { name: input.tenant });
    if (!tenant) {
      throw new NotFoundException(`no tenant named '${input.tenant}'`);
    }
    const dto = await validateBody(
      {
        username: input.username,
        role: input.role,
        tenantId: tenant.id,
        email: input.email,
        fullName: input.fullName ?? input.username,
        localPasswd: input.password,
        confirmLocalPasswd: input.password,
      },
      UserV4Dto,
    );
    const created = await this.users.create(dto, await this.operator());
    return [`created the user ${describe(created)}`];
  }

  async userPassword(username: string, password: string): Promise<string[]> {
    const user = await this.users.setPassword(username, password);
    return [`set a new password for the user ${describe(user)}`];
  }

  /**
   * Who the command line acts as: an administrator of the root tenant, who may hand out every
   * role and reach every tenant.
   */
  private async operator(): Promise<CurrentUser> {
    const root = await this.dataSource.manager.findOneBy(Tenant, { name: 'root' });
    if (!root) {
      throw new NotFoundException("the database has no 'root' tenant (run npm run migration:run)");
    }
    return {
      id: 0,
      username: '(command line)',
      roleName: 'admin',
      privLevel: Number(PrivLevel.Admin),
      permissions: new Set(['ALL']),
      tenantId: root.id,
    };
  }
}

function describe(user: User): string {
  return `'${user.username}' (id ${user.id}, role ${user.role?.name ?? user.roleId}, tenant ${user.tenant?.name ?? user.tenantId})`;
}
