import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { classifyDbError } from 'src/common/database/db-error';
import { authConfig, type AuthConfig } from 'src/config/auth.config';
import { hashPassword } from './password';
import { UsersService } from './users.service';

/**
 * The generated password, shown once where the operator looks at start-up: on stderr, as a block
 * of its own, whatever LOG_LEVEL says (the log itself never holds a password).
 */
export function generatedPasswordNotice(password: string): string {
  const rule = '='.repeat(72);
  return [
    '',
    rule,
    "  FIRST START: created the user 'admin' (role admin, tenant root) with the generated password",
    '',
    `      ${password}`,
    '',
    '  It is shown only this once: keep it, or set another one with',
    '      NEW_PASSWORD=<password> npm run cli -- user:password --username admin',
    rule,
    '',
    '',
  ].join('\n');
}

/**
 * Decision D11: with no user at all, create `admin` (role admin, tenant root) with ADMIN_PASSWORD,
 * or a random password shown once. The unique user name settles a race between instances. The
 * server does this, not the command line (which can create users of its own).
 */
@Injectable()
export class FirstAdmin implements OnApplicationBootstrap {
  private readonly logger = new Logger(FirstAdmin.name);

  constructor(
    private readonly users: UsersService,
    @Inject(authConfig.KEY) private readonly config: AuthConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (await this.users.hasAnyUser()) {
      return;
    }
    const generated = this.config.adminPassword === undefined;
    const password = this.config.adminPassword ?? randomBytes(12).toString('base64url');
    try {
      await this.users.addFirstAdmin(await hashPassword(password));
    } catch (error) {
      if (classifyDbError(error)?.kind === 'unique') {
        return;
      }
      throw error;
    }
    if (generated) {
      process.stderr.write(generatedPasswordNotice(password));
      this.logger.warn("created the first user 'admin' with a generated password (shown once on stderr)");
    } else {
      this.logger.log("created the first user 'admin' with the password from ADMIN_PASSWORD");
    }
  }
}
