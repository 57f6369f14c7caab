import type { INestApplication } from '@nestjs/common';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AppModule } from 'src/app.module';
import { listPaths } from 'src/cli/compare/compare';
import { documentPaths } from 'src/cli/compare/documents';
import { routesOfModule } from 'src/common/routes/route-inventory';
import { responseOf, uniqueName } from 'test/e2e/support/api';
import { createTestApp } from 'test/e2e/support/app';
import { type Finished, runCli } from 'test/e2e/support/child-process';
import { ADMIN_PASSWORD } from 'test/e2e/support/constants';
import { useApp } from 'test/e2e/support/suite';

type Row = Record<string, unknown>;
type Answers = Map<string, { status: number; body: unknown }>;

const VERSION = '4.0';

async function listen(app: INestApplication): Promise<string> {
  await app.listen(0, '127.0.0.1');
  const { port } = (app.getHttpServer() as Server).address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

/** Every list of the API as it answers now (what a recording of the original holds). */
async function record(url: string, only?: string[]): Promise<Answers> {
  const login = await fetch(`${url}/api/${VERSION}/user/login`, {
    method: 'POST',
    body: JSON.stringify({ u: 'admin', p: ADMIN_PASSWORD }),
    headers: { 'content-type': 'application/json' },
  });
  const cookie = login.headers.getSetCookie()[0].split(';')[0];
  const answers: Answers = new Map();
  const get = async (path: string) => {
    const res = await fetch(`${url}/api/${VERSION}/${path}`, { headers: { cookie } });
    const text = await res.text();
    answers.set(path, { status: res.status, body: res.status === 200 ? JSON.parse(text) : text });
  };
  for (const path of only ?? listPaths(routesOfModule(AppModule), VERSION)) {
    await get(path);
  }
  if (only === undefined) {
    // Each CDN's snapshot and monitoring documents, which compare reads after the lists.
    for (const cdn of rowsOf(answers, 'cdns').filter((c) => c.name !== 'ALL')) {
      for (const path of documentPaths(String(cdn.name))) {
        await get(path);
      }
    }
  }
  return answers;
}

/**
 * A small HTTP server answering the recorded lists, and a sign-in as the original does; the users
 * list is read live from `live` (signing in changes the user's own row: lastAuthenticated).
 */
async function replay(answers: Answers, live?: string): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    if (live !== undefined && req.url === `/api/${VERSION}/users`) {
      void record(live, ['users']).then((now) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(now.get('users')!.body));
      });
      return;
    }
    const path = (req.url ?? '').replace(`/api/${VERSION}/`, '').split('?')[0];
    if (req.method === 'POST' && path === 'user/login') {
      req.resume();
      res.writeHead(200, {
        'content-type': 'application/json',
        'set-cookie': 'mojolicious=recorded-session; Path=/; HttpOnly',
      });
      res.end(JSON.stringify({ alerts: [{ text: 'Successfully logged in.', level: 'success' }] }));
      return;
    }
    const answer = answers.get(path);
    res.writeHead(answer?.status ?? 404, { 'content-type': 'application/json' });
    res.end(answer === undefined ? '{}' : JSON.stringify(answer.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

function compare(other: string, self: string, env: Record<string, string> = {}) {
  return runCli(['compare', '--with', other, '--user', 'admin', '--self', self, '--version', VERSION], {
    env: { COMPARE_PASSWORD: ADMIN_PASSWORD, ...env },
  });
}

function rowsOf(answers: Answers, path: string): Row[] {
  return (answers.get(path)!.body as { response: Row[] }).response;
}

/** `npm run cli -- compare`: two instances of this service, and recorded answers of the original. */
describe('compare', () => {
  const { app, admin } = useApp();
  let second: INestApplication;
  const urls: Record<string, string> = {};
  const servers: Server[] = [];
  const runs: Record<string, Finished> = {};
  let createdId = '';
  let firstCdnId = '';
  let monitoringPath = '';

  beforeAll(async () => {
    urls.first = await listen(app);
    second = await createTestApp();
    urls.second = await listen(second);
    // A CDN besides ALL: its snapshot and monitoring documents are compared too.
    const cdnName = uniqueName('doc');
    await admin
      .post('/cdns')
      .send({ name: cdnName, domainName: `${cdnName}.example.net`, dnssecEnabled: false })
      .expect(200);
    runs.same = await compare(urls.first, urls.second);

    // A recording of the first, then a change: the recording is the side the change missed.
    const before = await replay(await record(urls.first));
    servers.push(before.server);
    const name = uniqueName('cmp');
    const created = responseOf<Row>(
      await admin
        .post('/cdns')
        .send({ name, domainName: `${name}.example.net`, dnssecEnabled: false })
        .expect(200),
    );
    createdId = String(created.id);
    runs.changed = await compare(before.url, urls.second);

    // Recorded answers of the original: lastUpdated as Go writes a time.Time in lib/go-tc's CDN (RFC 3339).
    const answers = await record(urls.first);
    for (const cdn of rowsOf(answers, 'cdns')) {
      const at = new Date(Date.parse(String(cdn.lastUpdated).replace(' ', 'T').replace(/\+00$/, 'Z')));
      cdn.lastUpdated = at.toISOString().replace('.000Z', 'Z');
    }
    const original = await replay(answers, urls.first);
    servers.push(original.server);
    runs.times = await compare(original.url, urls.second);

    // Shaped as lib/go-tc's CDN: dnssecEnabled, domainName, id, lastUpdated, name.
    const cdns = rowsOf(answers, 'cdns');
    cdns.push({
      dnssecEnabled: true,
      domainName: 'only-there.example.net',
      id: 987654,
      lastUpdated: '2026-11-30T10:00:00Z',
      name: 'only-there',
    });
    cdns[0].domainName = 'changed.example.net';
    firstCdnId = String(cdns[0].id);
    // A leaf of a CDN's monitoring configuration that only the original has.
    const documented = cdns.find((cdn) => cdn.name !== 'ALL' && cdn.name !== 'only-there')!;
    monitoringPath = documentPaths(String(documented.name))[1];
    expect(answers.get(monitoringPath)?.status).toBe(200);
    const monitoring = (answers.get(monitoringPath)!.body as { response: { config: Row } }).response;
    monitoring.config['only.there'] = 7;
    runs.missing = await compare(original.url, urls.second);

    runs.wrong = await compare(urls.first, urls.second, { COMPARE_PASSWORD: 'not-the-password' });
    runs.usage = await runCli(['compare', '--user', 'admin'], { env: { COMPARE_PASSWORD: 'x' } });
  }, 600_000);

  afterAll(async () => {
    for (const server of servers) {
      await new Promise((resolve) => server.close(resolve));
    }
    await second?.close();
  });

  it('finds no difference between two instances on the same data (exit 0)', () => {
    expect(runs.same.stderr).toBe('');
    expect(runs.same.stdout).toMatch(/\d+ lists and [1-9]\d* CDN documents compared: no differences/);
    expect(runs.same.code).toBe(0);
  });

  it('prints the objects that differ after a change on one side (exit 1)', () => {
    expect(runs.changed.code).toBe(1);
    expect(runs.changed.stdout).toContain('cdns:');
    expect(runs.changed.stdout).toContain(`  extra here: ${createdId}`);
    expect(runs.changed.stdout).toMatch(/documents compared: [1-9]\d* lists and \d+ documents differ/);
  });

  it('compares recorded answers of the original: times written differently are noted, not counted', () => {
    expect(runs.times.stdout).toContain('cdns:');
    expect(runs.times.stdout).toMatch(
      /lastUpdated \(same time, written "[\d-]+T[\d:]+Z" \/ "[\d-]+ [\d:]+\+00"\)/,
    );
    expect(runs.times.stdout).toMatch(/no differences/);
    expect(runs.times.code).toBe(0);
  });

  it('reports an object of the original missing here and a field that differs (exit 1)', () => {
    expect(runs.missing.code).toBe(1);
    expect(runs.missing.stdout).toContain('  missing here: 987654');
    expect(runs.missing.stdout).toContain(`  ${firstCdnId}: domainName: "changed.example.net" ≠ `);
    const documentReport = runs.missing.stdout.slice(runs.missing.stdout.indexOf(`${monitoringPath}:\n`));
    expect(documentReport).toMatch(/^[^\n]+:\n( {2}[^\n]+\n)* {2}config\.only\.there: 7 ≠ \(absent\)\n/);
    expect(runs.missing.stdout).toMatch(/documents compared: [1-9]\d* lists and 1 documents differ/);
  });

  it('refuses a wrong password (exit 1) and a missing --with (usage, exit 2)', () => {
    expect(runs.wrong.code).toBe(1);
    expect(runs.wrong.stderr).toContain('sign-in of admin refused (401)');
    expect(runs.usage.code).toBe(2);
    expect(runs.usage.stderr).toContain('--with is required');
  });
});
