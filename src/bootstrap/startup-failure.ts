import { type DatabaseConfig, describeDatabase } from 'src/config/database.env';

interface SystemError {
  code?: string;
  errno?: number | string;
  syscall?: string;
  address?: string;
  port?: number;
  hostname?: string;
  sqlMessage?: string;
  message?: string;
}

/** Where listening fails: resolving HOST, binding (a cluster worker's listen), listening. */
const LISTEN_SYSCALLS = new Set(['getaddrinfo', 'bind', 'listen']);

/** Why listening on HOST:PORT failed, in words. */
function listenFailure(error: SystemError, where: string): string | undefined {
  switch (error.code) {
    case 'EADDRINUSE':
      return `cannot listen on ${where}: the port is already in use by another process`;
    case 'EADDRNOTAVAIL':
      return `cannot listen on ${where}: this machine has no such address (check HOST)`;
    case 'EACCES':
      return `cannot listen on ${where}: permission denied (ports below 1024 need privileges)`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NONAME':
      return `cannot listen on ${where}: the host name does not resolve (check HOST)`;
    default:
      return `cannot listen on ${where}: ${error.message}`;
  }
}

/** Why the database could not be reached or used, in words. */
function databaseFailure(error: SystemError, database: DatabaseConfig): string | undefined {
  const where = describeDatabase(database);
  switch (error.code) {
    case 'ER_ACCESS_DENIED_ERROR':
    case 'ER_ACCESS_DENIED_NO_PASSWORD_ERROR':
    case 'ER_DBACCESS_DENIED_ERROR':
      return `cannot connect to ${where}: access denied (check the user name and password in DATABASE_URL): ${error.sqlMessage ?? error.message}`;
    case 'ER_BAD_DB_ERROR':
      return `cannot connect to ${where}: the database does not exist (npm run migration:run creates it)`;
    case 'ETIMEDOUT':
      return database.driver === 'mysql'
        ? `cannot connect to ${where}: no answer within ${database.connectTimeoutMs} ms (DB_CONNECT_TIMEOUT_MS)`
        : `cannot open ${where}: timed out`;
    case 'ECONNREFUSED':
      return `cannot connect to ${where}: connection refused (is the database running?)`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `cannot connect to ${where}: the host name does not resolve`;
    case 'ECONNRESET':
    case 'PROTOCOL_CONNECTION_LOST':
      return `cannot connect to ${where}: the connection was closed by the server`;
    case 'SQLITE_CANTOPEN':
      return `cannot open ${where}`;
    default:
      return undefined;
  }
}

/**
 * One line saying what stopped the start-up, for the operator: the failing step in words, without
 * a stack trace, and never a password.
 */
export function describeStartupFailure(
  error: unknown,
  context: { database?: DatabaseConfig; listen?: string },
): string {
  const failure = (error ?? {}) as SystemError;
  const listening =
    context.listen && LISTEN_SYSCALLS.has(failure.syscall ?? '')
      ? listenFailure(failure, context.listen)
      : undefined;
  const database = context.database && !listening ? databaseFailure(failure, context.database) : undefined;
  const text = listening ?? database ?? (error instanceof Error ? error.message : String(error));
  return text.replace(/\s*\n\s*/g, '; ');
}
