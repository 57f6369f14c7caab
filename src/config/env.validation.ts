// The decorators below read design types: the metadata API first (this file may load before Nest does).
import 'reflect-metadata';
import { plainToInstance, Transform, Type } from 'class-transformer';
import { availableParallelism } from 'node:os';
import { LOG_FORMATS, LOG_LEVELS } from 'src/common/logging/logger';
import { IntegrationVariables } from 'src/config/integrations.env';
import { readObservabilityEnv } from 'src/config/observability.env';
import { WIRE_COMPAT_MODES, type WireCompat } from 'src/common/wire/wire-compat';
import {
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  MinLength,
  ValidateIf,
  validateSync,
} from 'class-validator';

/** An http(s) origin as `parseOrigins` leaves it (`URL.origin`): nothing after the host and port. */
const ORIGIN = /^https?:\/\/[^\s/?#@]+$/;

/**
 * The origins of a comma-separated list, in the form browsers send them (scheme and host lower
 * case, default port and trailing slash dropped); an entry that is no origin (a path, a query,
 * credentials, a bad port) is left unmatched by ORIGIN, so that the validation refuses it.
 */
function parseOrigins(list: string): string[] {
  return list
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map((entry) => {
      try {
        const url = new URL(entry);
        const bare = url.pathname === '/' && !/[?#@]/.test(entry);
        return bare ? url.origin : `not an origin: ${entry}`;
      } catch {
        return `not an origin: ${entry}`;
      }
    });
}

/**
 * Every setting the service reads from its environment (docs/decisions.md#d11a). Validated once at start-up;
 * a bad value stops the process with the list of offending keys.
 */
export class EnvironmentVariables extends IntegrationVariables {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT: number = 3000;

  @IsOptional()
  @IsString()
  HOST: string = '0.0.0.0';

  /** `mysql://user:password@host:port[,host:port…]/database` (docs/scaling-out.md); absent → SQLite. */
  @IsOptional()
  @Matches(/^mysql:\/\/[^/]+\/[A-Za-z0-9_$]+(\?.*)?$/, {
    message: 'DATABASE_URL must look like mysql://user:password@host:port[,host:port…]/database',
  })
  DATABASE_URL?: string;

  /** Galera's `wsrep_sync_wait` for every connection; unset: 1 with several hosts, else the server's. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(15)
  DB_WSREP_SYNC_WAIT?: number;

  /** Milliseconds a node of a several-host DATABASE_URL that failed is left out before it is tried again. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(600000)
  DB_FAILOVER_RETRY_MS: number = 5000;

  /** The SQLite file used when DATABASE_URL is not set. */
  @IsOptional()
  @IsString()
  SQLITE_PATH: string = './data/cdn.sqlite';

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(200)
  DB_POOL_SIZE: number = 10;

  /** How long opening a MySQL connection may take (a server that accepts and never answers). */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(120000)
  DB_CONNECT_TIMEOUT_MS: number = 5000;

  /**
   * Milliseconds a MySQL statement may go unanswered before it fails (503) and its connection is
   * dropped: a database that stops answering cannot hold requests forever.
   */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(600000)
  DB_QUERY_TIMEOUT_MS: number = 10000;

  /**
   * Milliseconds a request may wait for a database connection (MySQL: a free pooled connection or a
   * new one's handshake; SQLite: the file's lock held by another process) before it fails (503).
   */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(600000)
  DB_ACQUIRE_TIMEOUT_MS: number = 5000;

  /**
   * HMAC key for session cookies; the server needs it with MySQL so that every instance shares it
   * (validateServerEnv). Migrations and the command line do not use it.
   */
  @IsOptional()
  @IsString()
  @MinLength(32, { message: 'SESSION_SECRET must be at least 32 characters long' })
  SESSION_SECRET?: string;

  /** Password of the first `admin` user, created when no user exists (docs/decisions.md#d11). */
  @IsOptional()
  @IsString()
  @MinLength(8, { message: 'ADMIN_PASSWORD must be at least 8 characters long' })
  ADMIN_PASSWORD?: string;

  @IsOptional()
  @IsString()
  SERVER_NAME: string = 'cdn-control-plane/0.1';

  @IsOptional()
  @Matches(/^\d+(b|kb|mb)$/i, { message: 'BODY_LIMIT must be a size such as 1mb or 512kb' })
  BODY_LIMIT: string = '1mb';

  @ValidateIf(
    (env: EnvironmentVariables) => env.TLS_KEY_FILE !== undefined || env.TLS_CERT_FILE !== undefined,
  )
  @IsString({ message: 'TLS_CERT_FILE and TLS_KEY_FILE must be set together' })
  TLS_CERT_FILE?: string;

  @ValidateIf(
    (env: EnvironmentVariables) => env.TLS_KEY_FILE !== undefined || env.TLS_CERT_FILE !== undefined,
  )
  @IsString({ message: 'TLS_CERT_FILE and TLS_KEY_FILE must be set together' })
  TLS_KEY_FILE?: string;

  /** Failed sign-ins allowed per user name and client address in LOGIN_WINDOW_SECONDS. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  LOGIN_MAX_FAILURES: number = 10;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  LOGIN_WINDOW_SECONDS: number = 300;

  /**
   * Worker processes serving HTTP (Node cluster); more than one needs MySQL. Unset: one per core
   * on MySQL (defaultWorkers), one on SQLite.
   */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(64)
  WEB_CONCURRENCY: number = 1;

  /** Seconds a signed-in user's role and permissions may be served from memory (0: never). */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(60)
  SESSION_CACHE_SECONDS: number = 2;

  @IsOptional()
  @IsIn(LOG_LEVELS, { message: `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}` })
  LOG_LEVEL: string = 'info';

  /** `json` (one JSON object a line) or `pretty`; unset: pretty on a terminal outside production. */
  @IsOptional()
  @IsIn(LOG_FORMATS, { message: 'LOG_FORMAT must be json or pretty' })
  LOG_FORMAT?: string;

  @IsOptional()
  @Transform(({ value }: { value: unknown }) => value === 'true' || value === '1')
  TRUST_PROXY: boolean = false;

  /**
   * `spec` (the default): the user specification's shapes everywhere it fixes one; `traffic-ops`: the
   * original's at the three points where the specification breaks Apache's clients (docs/decisions.md#d5a).
   */
  @IsOptional()
  @IsIn(WIRE_COMPAT_MODES, { message: 'WIRE_COMPAT must be spec or traffic-ops' })
  WIRE_COMPAT: WireCompat = 'spec';

  /**
   * For the tests: a response holding a Date where its route's wire schema has no time is a 500
   * (src/common/http/json.ts), so that every suite checks the schemas the envelope relies on.
   */
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => value === true || value === 'true' || value === '1')
  WIRE_TIMES_CHECK: boolean = false;

  /**
   * For the tests: every INSERT served from the statement cache is also built by TypeORM, and a
   * difference is a 500 (src/common/database/insert-rows.ts), so that every suite checks the cache.
   */
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => value === true || value === 'true' || value === '1')
  INSERT_STATEMENTS_CHECK: boolean = false;

  /**
   * Browser origins (`scheme://host[:port]`, comma-separated) besides the service's own that may
   * send writes; when set, a write from any other origin is refused (see src/common/http/cross-site.ts).
   */
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? parseOrigins(value) : value))
  @IsString({ each: true, message: 'ALLOWED_ORIGINS must be a comma-separated list of origins' })
  @Matches(ORIGIN, {
    each: true,
    message: 'ALLOWED_ORIGINS must list origins such as https://portal.example.net or http://localhost:8080',
  })
  ALLOWED_ORIGINS: string[] = [];
}

/**
 * Workers when WEB_CONCURRENCY is not set with MySQL: one per core the process may use (a worker is
 * one thread of JavaScript, the database can serve them all); SQLite's single file keeps one worker.
 */
export function defaultWorkers(): number {
  return Math.min(availableParallelism(), 64);
}

/** The settings and what is wrong with them, one line per problem. */
function check(raw: Record<string, unknown>): { env: EnvironmentVariables; problems: string[] } {
  const present = Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined && v !== ''));
  const env = plainToInstance(EnvironmentVariables, present, { exposeDefaultValues: true });
  if (present.WEB_CONCURRENCY === undefined && env.DATABASE_URL) {
    env.WEB_CONCURRENCY = defaultWorkers();
  }
  const errors = validateSync(env, { skipMissingProperties: false, whitelist: false });
  const problems = errors.flatMap((e) =>
    Object.values(e.constraints ?? {}).map((m) => `  ${e.property}: ${m}`),
  );
  problems.push(...readObservabilityEnv(present).problems);
  if (env.WEB_CONCURRENCY > 1 && !env.DATABASE_URL) {
    problems.push(
      '  WEB_CONCURRENCY: more than one worker needs DATABASE_URL (the SQLite file has one owner)',
    );
  }
  return { env, problems };
}

function accepted({
  env,
  problems,
}: {
  env: EnvironmentVariables;
  problems: string[];
}): EnvironmentVariables {
  if (problems.length > 0) {
    throw new Error(`Invalid configuration:\n${problems.join('\n')}`);
  }
  return env;
}

/** The settings every entry point reads (the server, migrations, the command line). */
export function validateEnv(raw: Record<string, unknown>): EnvironmentVariables {
  return accepted(check(raw));
}

/** validateEnv plus what only serving needs: with MySQL, the SESSION_SECRET every instance shares. */
export function validateServerEnv(raw: Record<string, unknown>): EnvironmentVariables {
  const result = check(raw);
  if (result.env.DATABASE_URL && !result.env.SESSION_SECRET) {
    result.problems.push('  SESSION_SECRET: SESSION_SECRET is required when DATABASE_URL is set');
  }
  return accepted(result);
}
