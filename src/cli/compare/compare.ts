import type { CommandOutput } from 'src/cli/import/importer';
import { canonical, compareDocuments, documentPaths } from 'src/cli/compare/documents';
import { isListRoute, type Route } from 'src/common/routes/route-inventory';

/** One API to read: its base URL (`https://to.example.net`) and an account on it. */
export interface Endpoint {
  url: string;
  user: string;
  password: string;
}

export interface CompareOptions {
  /** The other API (the original Traffic Ops, or another instance of this service). */
  other: Endpoint;
  /** This service. */
  self: Endpoint;
  version: string;
  /** The routes to read (the route inventory of the application). */
  routes: Route[];
  /** Per request, in milliseconds. */
  timeoutMs?: number;
}

/** A failure to reach or sign in to one of the APIs: the command exits 1 with its text. */
export class CompareError extends Error {}

type Row = Record<string, unknown>;

/** The parameterless GET list routes of a version, as paths under `/api/<version>/`. */
export function listPaths(routes: Route[], version: string): string[] {
  const paths = routes
    .filter(
      (r) => r.method === 'GET' && isListRoute(r) && r.versions.includes(version) && !r.path.includes(':'),
    )
    .map((r) => r.path.replace(/^\//, ''));
  return [...new Set(paths)].sort();
}

/** A signed-in reader of one API. */
class Reader {
  private cookie = '';

  constructor(
    readonly endpoint: Endpoint,
    private readonly version: string,
    private readonly timeoutMs: number,
  ) {}

  private base(): string {
    return `${this.endpoint.url.replace(/\/+$/, '')}/api/${this.version}/`;
  }

  async signIn(): Promise<void> {
    let res: Response;
    try {
      res = await fetch(`${this.base()}user/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ u: this.endpoint.user, p: this.endpoint.password }),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      throw new CompareError(`${this.endpoint.url}: cannot connect (${(error as Error).message})`);
    }
    await res.text();
    const cookie = res.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .find((c) => c.startsWith('mojolicious='));
    if (res.status !== 200 || cookie === undefined) {
      throw new CompareError(
        `${this.endpoint.url}: sign-in of ${this.endpoint.user} refused (${res.status})`,
      );
    }
    this.cookie = cookie;
  }

  /** The route's `response`, or the HTTP status it answered instead of a JSON 200. */
  async response(path: string): Promise<{ response: unknown } | number> {
    let res: Response;
    try {
      res = await fetch(`${this.base()}${path}`, {
        headers: { cookie: this.cookie, accept: 'application/json' },
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      throw new CompareError(`${this.endpoint.url}: GET ${path} failed (${(error as Error).message})`);
    }
    const text = await res.text();
    if (res.status !== 200) {
      return res.status;
    }
    try {
      return { response: (JSON.parse(text) as { response?: unknown }).response };
    } catch {
      return res.status;
    }
  }

  /** The route's `response` array (an object answered is a list of one), or the HTTP status. */
  async list(path: string): Promise<Row[] | number> {
    const answer = await this.response(path);
    if (typeof answer === 'number') {
      return answer;
    }
    const { response } = answer;
    if (Array.isArray(response)) {
      return response as Row[];
    }
    return response !== null && typeof response === 'object' ? [response as Row] : [];
  }
}

/** What identifies a row of a list: its id, else its name, else its position. */
function keyOf(row: Row, index: number): string {
  for (const field of ['id', 'name', 'xmlId', 'username', 'hostName']) {
    const value = row[field];
    if (typeof value === 'string' || typeof value === 'number') {
      return String(value);
    }
  }
  return `#${index}`;
}

const TIME = /^\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d/;

/** The instant a time string denotes, in either of the formats the APIs write (`+00`, RFC 3339). */
function instant(value: unknown): number | undefined {
  if (typeof value !== 'string' || !TIME.test(value)) {
    return undefined;
  }
  const parsed = Date.parse(value.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00'));
  return Number.isNaN(parsed) ? undefined : parsed;
}

interface FieldDiffs {
  differ: string[];
  notes: string[];
}

function compareRows(other: Row, self: Row): FieldDiffs {
  const result: FieldDiffs = { differ: [], notes: [] };
  const fields = [...new Set([...Object.keys(other), ...Object.keys(self)])].sort();
  for (const field of fields) {
    const a = other[field];
    const b = self[field];
    if (canonical(a) === canonical(b)) {
      continue;
    }
    const [ta, tb] = [instant(a), instant(b)];
    if (ta !== undefined && ta === tb) {
      result.notes.push(`${field} (same time, written ${JSON.stringify(a)} / ${JSON.stringify(b)})`);
      continue;
    }
    const show = (v: unknown) => (v === undefined ? '(absent)' : canonical(v));
    result.differ.push(`${field}: ${show(a)} ≠ ${show(b)}`);
  }
  return result;
}

/** The differences of one resource, as report lines; none when the lists agree. */
function compareLists(
  path: string,
  other: Row[] | number,
  self: Row[] | number,
): { lines: string[]; differs: boolean } {
  if (typeof other === 'number' || typeof self === 'number') {
    if (other === self) {
      return { lines: [], differs: false };
    }
    const status = (v: Row[] | number) => (typeof v === 'number' ? `HTTP ${v}` : 'HTTP 200');
    return { lines: [`${path}: answered ${status(other)} there, ${status(self)} here`], differs: true };
  }
  const index = (rows: Row[]) => new Map(rows.map((row, i) => [keyOf(row, i), row]));
  const [there, here] = [index(other), index(self)];
  const missing = [...there.keys()].filter((k) => !here.has(k));
  const extra = [...here.keys()].filter((k) => !there.has(k));
  const lines: string[] = [];
  if (missing.length > 0) {
    lines.push(`  missing here: ${missing.join(', ')}`);
  }
  if (extra.length > 0) {
    lines.push(`  extra here: ${extra.join(', ')}`);
  }
  const notes: string[] = [];
  for (const [key, row] of there) {
    const mine = here.get(key);
    if (mine === undefined) {
      continue;
    }
    const diffs = compareRows(row, mine);
    lines.push(...diffs.differ.map((d) => `  ${key}: ${d}`));
    notes.push(...diffs.notes.map((n) => `  ${key}: ${n}`));
  }
  const differs = lines.length > 0;
  return { lines: differs || notes.length > 0 ? [`${path}:`, ...lines, ...notes] : [], differs };
}

/** `compare`: reads every list of both APIs and reports the differences; exit code 1 when any. */
export async function compareApis(options: CompareOptions): Promise<CommandOutput> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const other = new Reader(options.other, options.version, timeoutMs);
  const self = new Reader(options.self, options.version, timeoutMs);
  await other.signIn();
  await self.signIn();
  const paths = listPaths(options.routes, options.version);
  const lines: string[] = [];
  let differing = 0;
  for (const path of paths) {
    const result = compareLists(path, await other.list(path), await self.list(path));
    lines.push(...result.lines);
    differing += result.differs ? 1 : 0;
  }
  const documents = (await cdnNames(other, self)).flatMap(documentPaths);
  let documentsDiffering = 0;
  for (const path of documents) {
    const result = compareDocumentAnswers(await other.response(path), await self.response(path));
    if (result.length > 0) {
      lines.push(`${path}:`, ...result);
      documentsDiffering += 1;
    }
  }
  const counted = `${paths.length} lists and ${documents.length} CDN documents compared`;
  lines.push(
    differing + documentsDiffering === 0
      ? `${counted}: no differences`
      : `${counted}: ${differing} lists and ${documentsDiffering} documents differ`,
  );
  return { lines, code: differing + documentsDiffering === 0 ? 0 : 1 };
}

/** The CDNs either side has (bar `ALL`, which has no servers and no documents). */
async function cdnNames(other: Reader, self: Reader): Promise<string[]> {
  const names = new Set<string>();
  for (const rows of [await other.list('cdns'), await self.list('cdns')]) {
    for (const row of typeof rows === 'number' ? [] : rows) {
      if (typeof row.name === 'string' && row.name !== 'ALL') {
        names.add(row.name);
      }
    }
  }
  return [...names].sort();
}

function compareDocumentAnswers(
  other: { response: unknown } | number,
  self: { response: unknown } | number,
): string[] {
  if (typeof other === 'number' || typeof self === 'number') {
    const status = (v: { response: unknown } | number) => (typeof v === 'number' ? `HTTP ${v}` : 'HTTP 200');
    return other === self ? [] : [`  answered ${status(other)} there, ${status(self)} here`];
  }
  return compareDocuments(other.response, self.response);
}
