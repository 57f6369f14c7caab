// First: a supported Node (one line and exit 1 otherwise), then the .env file, before anything
// reads the environment.
import 'src/bootstrap/supported-node';
import 'src/bootstrap/dotenv';
import { HttpException, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { describeStartupFailure } from 'src/bootstrap/startup-failure';
import { CliModule } from 'src/cli/cli.module';
import { ImportRefused, type CommandOutput } from 'src/cli/import/importer';
import { SourceError } from 'src/cli/import/source';
import { OperatorCommands } from 'src/cli/operator-commands';
import { databaseConfigFrom, describeDatabase } from 'src/config/database.env';
import { validateEnv } from 'src/config/env.validation';
import { createDatabaseIfMissing } from 'src/database/create-database';

type Options = NonNullable<ParseArgsConfig['options']>;
type Values = Record<string, string | boolean | undefined>;

interface Command {
  usage: string;
  options: Options;
  run(commands: OperatorCommands, values: Values): Promise<string[] | CommandOutput>;
  /** Runs without the database (no application context): reads APIs only. */
  standalone?: (values: Values) => Promise<CommandOutput>;
}

/** A usage mistake: the command's usage is printed, exit code 2. */
class UsageError extends Error {}

const PASSWORD_SOURCES = '--password PASSWORD, or NEW_PASSWORD in the environment';

function required(values: Values, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value === '') {
    throw new UsageError(`--${name} is required`);
  }
  return value;
}

/** The new password, from the flag or the environment: the command line never prompts. */
function newPassword(values: Values): string {
  const password = values.password ?? process.env.NEW_PASSWORD;
  if (typeof password !== 'string' || password === '') {
    throw new UsageError(`the new password is required: ${PASSWORD_SOURCES}`);
  }
  return password;
}

const COMMANDS: Record<string, Command> = {
  'migration:run': {
    usage: 'migration:run                 create the database if it does not exist; apply pending migrations',
    options: {},
    run: (commands) => commands.migrationRun(),
  },
  'migration:revert': {
    usage: 'migration:revert              undo the last applied migration',
    options: {},
    run: (commands) => commands.migrationRevert(),
  },
  'schema:version': {
    usage: "schema:version                the database's schema version (its last applied migration)",
    options: {},
    run: (commands) => commands.schemaVersion(),
  },
  'user:list': {
    usage: 'user:list                     the users: name, role, tenant, email, last sign-in',
    options: {},
    run: (commands) => commands.userList(),
  },
  'user:create': {
    usage:
      'user:create --username NAME --role ROLE --tenant TENANT --email EMAIL [--full-name NAME]\n' +
      `                              a user, with ${PASSWORD_SOURCES}`,
    options: {
      username: { type: 'string' },
      role: { type: 'string' },
      tenant: { type: 'string' },
      email: { type: 'string' },
      'full-name': { type: 'string' },
      password: { type: 'string' },
    },
    run: (commands, values) =>
      commands.userCreate({
        username: required(values, 'username'),
        role: required(values, 'role'),
        tenant: required(values, 'tenant'),
        email: required(values, 'email'),
        fullName: values['full-name'] as string | undefined,
        password: newPassword(values),
      }),
  },
  'user:password': {
    usage: `user:password --username NAME  set a user's password, with ${PASSWORD_SOURCES}`,
    options: { username: { type: 'string' }, password: { type: 'string' } },
    run: (commands, values) => commands.userPassword(required(values, 'username'), newPassword(values)),
  },
  'import:traffic-ops': {
    usage:
      'import:traffic-ops --from postgres://USER:PASSWORD@HOST:PORT/traffic_ops [--check] [--replace]\n' +
      '        [--traffic-vault postgres://USER:PASSWORD@HOST:PORT/traffic_vault --traffic-vault-aes-key FILE]\n' +
      "                              copy a Traffic Ops 7.0/8.0 database into this service's, keeping ids, in\n" +
      '                              one transaction; --check lists what would be copied and the rows that break\n' +
      "                              this service's rules, writing nothing; --replace replaces a non-empty database;\n" +
      "                              --traffic-vault also copies Traffic Vault's keys (PostgreSQL backend),\n" +
      '                              decrypted with its AES key file and sealed with KEY_STORE_KEY',
    options: {
      from: { type: 'string' },
      check: { type: 'boolean' },
      replace: { type: 'boolean' },
      'traffic-vault': { type: 'string' },
      'traffic-vault-aes-key': { type: 'string' },
    },
    run: (commands, values) => {
      const vault = values['traffic-vault'] as string | undefined;
      const aesKey = values['traffic-vault-aes-key'] as string | undefined;
      if ((vault === undefined) !== (aesKey === undefined)) {
        throw new UsageError('--traffic-vault and --traffic-vault-aes-key go together');
      }
      return commands.importTrafficOps({
        from: required(values, 'from'),
        check: values.check === true,
        replace: values.replace === true,
        trafficVault: vault,
        trafficVaultAesKey: aesKey,
      });
    },
  },
};

/** A secret from its flag, else from the environment variable. */
function secret(values: Values, name: string, variable: string): string {
  const value = values[name] ?? process.env[variable];
  if (typeof value !== 'string' || value === '') {
    throw new UsageError(`--${name} is required (or ${variable} in the environment)`);
  }
  return value;
}

COMMANDS.compare = {
  usage:
    'compare --with URL --user NAME [--password PASSWORD] [--version 4.0] [--self URL --self-user NAME\n' +
    '        --self-password PASSWORD]\n' +
    "                              read every list of both APIs (default self: this service's own URL) and\n" +
    '                              print what differs; exit 0 only when nothing does (passwords also from\n' +
    '                              COMPARE_PASSWORD and COMPARE_SELF_PASSWORD)',
  options: {
    with: { type: 'string' },
    user: { type: 'string' },
    password: { type: 'string' },
    version: { type: 'string' },
    self: { type: 'string' },
    'self-user': { type: 'string' },
    'self-password': { type: 'string' },
  },
  run: () => Promise.reject(new Error('compare runs standalone')),
  standalone: async (values) => {
    const { compareApis } = await import('./cli/compare/compare');
    const { routesOfModule } = await import('./common/routes/route-inventory');
    const { AppModule } = await import('./app.module');
    const user = required(values, 'user');
    const password = secret(values, 'password', 'COMPARE_PASSWORD');
    return compareApis({
      other: { url: required(values, 'with'), user, password },
      self: {
        url: (values.self as string | undefined) ?? `http://127.0.0.1:${process.env.PORT ?? '3000'}`,
        user: (values['self-user'] as string | undefined) ?? user,
        password:
          (values['self-password'] as string | undefined) ?? process.env.COMPARE_SELF_PASSWORD ?? password,
      },
      version: (values.version as string | undefined) ?? '4.0',
      routes: routesOfModule(AppModule),
    });
  },
};

function usage(): string {
  return [
    'Usage: npm run cli -- <command> [options]',
    '',
    ...Object.values(COMMANDS).map((command) => `  ${command.usage}`),
    '',
    "The database is the server's: DATABASE_URL (MySQL), else SQLITE_PATH; a .env file is read too.",
    '',
  ].join('\n');
}

/** Runs one command; returns the exit code (0 done, 1 failed, 2 misused). */
async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    process.stdout.write(usage());
    return name === undefined ? 2 : 0;
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) {
    process.stderr.write(`unknown command '${name}'\n\n${usage()}`);
    return 2;
  }
  let values: Values;
  try {
    values = parseArgs({ args: rest, options: command.options, strict: true, allowPositionals: false })
      .values as Values;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (command.standalone) {
    try {
      const output = await command.standalone(values);
      process.stdout.write(output.lines.map((line) => `${line}\n`).join(''));
      return output.code;
    } catch (error) {
      if (error instanceof UsageError) {
        throw error;
      }
      process.stderr.write(`${name}: ${(error as Error).message}\n`);
      return 1;
    }
  }
  validateEnv(process.env);
  const database = databaseConfigFrom(process.env);
  let app: INestApplicationContext | undefined;
  try {
    if (name === 'migration:run' && (await createDatabaseIfMissing(database))) {
      process.stdout.write(`created the database: ${describeDatabase(database)}\n`);
    }
    app = await NestFactory.createApplicationContext(CliModule, { logger: false, abortOnError: false });
    const result = await command.run(app.get(OperatorCommands), values);
    const output = Array.isArray(result) ? { lines: result, code: 0 } : result;
    process.stdout.write(output.lines.map((line) => `${line}\n`).join(''));
    return output.code;
  } catch (error) {
    if (error instanceof UsageError) {
      throw error;
    }
    const text =
      error instanceof HttpException || error instanceof SourceError || error instanceof ImportRefused
        ? error.message
        : describeStartupFailure(error, { database });
    process.stderr.write(`${name}: ${text}\n`);
    return 1;
  } finally {
    await app?.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\n\n${usage()}`);
      process.exitCode = 2;
      return;
    }
    process.stderr.write(`${(error as Error).message.replace(/:\n\s*/, ': ').replace(/\n\s*/g, '; ')}\n`);
    process.exitCode = 1;
  },
);
