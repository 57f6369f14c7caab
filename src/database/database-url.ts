/** One MySQL server of DATABASE_URL. */
export interface DatabaseHost {
  host: string;
  port: number;
}

/** DATABASE_URL taken apart: `mysql://user:password@host1:port1,host2:port2/database?options`. */
export interface DatabaseUrl {
  user: string;
  password: string;
  /** In the URL's order: the first is the instance's own node, the others its fall-backs. */
  hosts: DatabaseHost[];
  database: string;
  /** What follows `?`, without it ('' when none). */
  query: string;
}

const SHAPE = /^mysql:\/\/(?:([^@/]*)@)?([^/?#]+)\/([^?#]*)(?:\?([^#]*))?$/;

function parseHost(entry: string): DatabaseHost {
  // `[::1]:3306`, `[::1]`, `db.example.net:3306`, `db.example.net`
  const m = /^(\[[0-9A-Fa-f:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/.exec(entry);
  const port = m?.[2] === undefined ? 3306 : Number(m[2]);
  if (!m || port < 1 || port > 65535) {
    throw new Error(`DATABASE_URL: '${entry}' is not a host or host:port`);
  }
  return { host: m[1].replace(/^\[|\]$/g, ''), port };
}

/**
 * Parses DATABASE_URL, which may name several hosts separated by commas (a Galera cluster's nodes,
 * docs/scaling-out.md). The user name and password are percent-decoded, as in any URL.
 */
export function parseDatabaseUrl(url: string): DatabaseUrl {
  const m = SHAPE.exec(url);
  if (!m) {
    throw new Error('DATABASE_URL must look like mysql://user:password@host:port[,host:port…]/database');
  }
  const [, credentials = '', hostList, database, query = ''] = m;
  const colon = credentials.indexOf(':');
  const user = colon < 0 ? credentials : credentials.slice(0, colon);
  const password = colon < 0 ? '' : credentials.slice(colon + 1);
  const hosts = hostList.split(',').map((entry) => parseHost(entry.trim()));
  return {
    user: decodeURIComponent(user),
    password: decodeURIComponent(password),
    hosts,
    database: decodeURIComponent(database),
    query,
  };
}

const hostText = ({ host, port }: DatabaseHost): string =>
  `${host.includes(':') ? `[${host}]` : host}:${port}`;

/** The URL of one of the hosts of `url`, the rest kept (for single-connection tools and TypeORM). */
export function urlForHost(url: string, host: DatabaseHost, database?: string): string {
  const parsed = parseDatabaseUrl(url);
  const credentials = (/^mysql:\/\/([^@/]*@)?/.exec(url)?.[1] ?? '').replace(/@$/, '');
  const auth = credentials ? `${credentials}@` : '';
  const name = database === undefined ? encodeURIComponent(parsed.database) : encodeURIComponent(database);
  return `mysql://${auth}${hostText(host)}/${name}${parsed.query ? `?${parsed.query}` : ''}`;
}

/** `host:port,host:port` as the URL names them (no credentials), for logs and messages. */
export function describeHosts(hosts: DatabaseHost[]): string {
  return hosts.map(hostText).join(',');
}
