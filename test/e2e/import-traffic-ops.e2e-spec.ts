import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { TrafficOpsImporter } from 'src/cli/import/importer';
import { MAPPINGS } from 'src/cli/import/mappings';
import { Progress } from 'src/cli/import/progress';
import { databaseConfigFrom } from 'src/config/database.env';
import { createDatabaseIfMissing } from 'src/database/create-database';
import { buildTypeOrmOptions } from 'src/database/typeorm-options';
import { createTestAppWithEnv } from 'test/e2e/support/app';
import { type Finished, runCli } from 'test/e2e/support/child-process';

type Outcome = Pick<Finished, 'code' | 'stdout' | 'stderr'>;
import { PrivateCluster } from 'test/e2e/support/postgres';
import { dumpTables, type FreshTarget } from 'test/e2e/support/target-dump';
import { dropFreshDatabase, testDatabase } from 'test/e2e/support/test-database';

const TABLES = MAPPINGS.map((m) => m.table);
const FIXTURE = ['schema-8.sql', 'data.sql', 'data-8.sql'];
/** The same rows in a Traffic Ops 7.0 database (the fixtures' comments list what differs). */
const FIXTURE_7 = ['schema-7.sql', 'data.sql', 'data-7.sql'];

/** What only 8.0 has to say, in the target's tables: the rest of a 7.0 and an 8.0 import is the same. */
const ONLY_IN_8: Record<string, string[]> = {
  cdn: ['ttl_override'],
  server_capability: ['description'],
  server: ['config_update_failed', 'revalidate_update_failed'],
  deliveryservice: ['active', 'regional'],
};

/** Columns holding the time a fixture was loaded (each source database was loaded at its own). */
const LOAD_TIME = /last_updated|created_at|_time$/;

/** A dump without load times and without the `ignored` columns of each table. */
function comparable(
  dump: Record<string, unknown[]>,
  ignored: Record<string, string[]>,
): Record<string, unknown[]> {
  return Object.fromEntries(
    Object.entries(dump).map(([table, rows]) => [
      table,
      (rows as Record<string, unknown>[]).map((row) =>
        Object.fromEntries(
          Object.entries(row).filter(
            ([column]) => !LOAD_TIME.test(column) && !(ignored[table] ?? []).includes(column),
          ),
        ),
      ),
    ]),
  );
}

/** The fields that differ between 7.0 and 8.0 databases, read through the API. */
async function readReleaseFields(admin: request.Agent): Promise<Record<string, request.Response>> {
  return {
    cdnWest: await admin.get('/api/4.1/cdns?name=cdn-west'),
    capabilities: await admin.get('/api/4.1/server_capabilities'),
    server3: await admin.get('/api/5.0/servers?id=3'),
    server4: await admin.get('/api/5.0/servers?id=4'),
    deliveryServices: await admin.get('/api/5.0/deliveryservices'),
    requiredCapabilities: await admin.get('/api/4.1/deliveryservices_required_capabilities'),
    requests: await admin.get('/api/5.0/deliveryservice_requests'),
  };
}

/** Rows the original allows and this service's rules do not. */
const BROKEN_ROWS = `
  INSERT INTO deliveryservice (id, xml_id, display_name, dscp, type, cdn_id, tenant_id, active)
    VALUES (90, 'has.a period', 'Broken', 0, 20, 2, 1, 'ACTIVE');
  INSERT INTO tm_user (id, username, role, local_passwd, tenant_id) VALUES (90, 'md5-user', 2, 'not-a-scrypt-hash', 1);
  INSERT INTO tm_user (id, username, role, local_passwd, tenant_id) VALUES (91, 'roleless', NULL, NULL, 1);
  INSERT INTO deliveryservice_request (id, author_id, change_type, status, deliveryservice)
    VALUES (90, 1, 'create', 'draft', '{"displayName": "no xmlId"}');`;

/** Two identical parameters: legal in Traffic Ops, refused by this service's database (unique). */
const DUPLICATE_PARAMETER = `
  INSERT INTO parameter (id, name, config_file, value) VALUES (200, 'tm.url', 'global', 'https://to.example.net/');`;

/**
 * `npm run cli -- import:traffic-ops` from a Traffic Ops 8.0 database in a private PostgreSQL
 * cluster into a fresh database of this service, then read back through the API.
 */
describe('import:traffic-ops', () => {
  const db = testDatabase(Number(process.env.E2E_DB_PID));
  const freshName = `${db.database ?? 'sqlite'}_import`;
  const freshDir = db.driver === 'mysql' ? '' : mkdtempSync(join(tmpdir(), 'cdn-e2e-import-'));
  const target: FreshTarget = {
    driver: db.driver,
    env:
      db.driver === 'mysql'
        ? { DATABASE_URL: `${db.serverUrl!.replace(/\/$/, '')}/${freshName}`, SQLITE_PATH: undefined }
        : { SQLITE_PATH: join(freshDir, 'cdn.sqlite'), DATABASE_URL: undefined },
  };
  const env = { ...target.env, ADMIN_PASSWORD: undefined, LOG_LEVEL: 'warn' };
  const cluster = new PrivateCluster();
  const urls: Record<string, string> = {};
  const runs: Record<string, Outcome> = {};
  let dataSource: DataSource | undefined;
  const api: Record<string, request.Response> = {};
  const dumps: Record<string, Record<string, unknown[]>> = {};
  const fields: Record<'seven' | 'eight', Record<string, request.Response>> = { seven: {}, eight: {} };

  const dropFresh = (): Promise<void> => dropFreshDatabase(db, freshName, freshDir);

  beforeAll(async () => {
    await dropFresh();
    await cluster.start();
    urls.good = await cluster.createDatabase('to_good', FIXTURE);
    urls.broken = await cluster.createDatabase('to_broken', FIXTURE, BROKEN_ROWS);
    urls.duplicate = await cluster.createDatabase('to_duplicate', FIXTURE, DUPLICATE_PARAMETER);
    urls.unknown = await cluster.createDatabase(
      'to_unknown',
      FIXTURE,
      'UPDATE schema_migrations SET version = 2099010100000000;',
    );
    urls.missing = await cluster.createDatabase('to_missing', FIXTURE, 'DROP TABLE servercheck;');
    urls.seven = await cluster.createDatabase('to_seven', FIXTURE_7);
    urls.sevenMissing = await cluster.createDatabase(
      'to_seven_missing',
      FIXTURE_7,
      'DROP TABLE deliveryservices_required_capability;',
    );

    // The command line once (a child process starts slowly on a loaded machine); every other run
    // goes through the same importer in this process, on a data source of its own.
    const checkRun = runCli(['import:traffic-ops', '--check', '--from', urls.broken], { env });
    const config = databaseConfigFrom(target.env);
    await createDatabaseIfMissing(config);
    dataSource = new DataSource(buildTypeOrmOptions(config));
    await dataSource.initialize();
    await dataSource.runMigrations({ transaction: 'each' });
    const importer = new TrafficOpsImporter(dataSource);
    const quiet = new Progress({ isTTY: false } as NodeJS.WriteStream);
    const run = async (
      from: string,
      flags: { check?: boolean; replace?: boolean } = {},
    ): Promise<Outcome> => {
      try {
        const output = await importer.run(
          { from, check: flags.check ?? false, replace: flags.replace ?? false },
          quiet,
        );
        return { code: output.code, stdout: output.lines.join('\n') + '\n', stderr: '' };
      } catch (error) {
        return { code: 1, stdout: '', stderr: (error as Error).message };
      }
    };
    runs.first = await run(urls.good);
    runs.checkGood = await run(urls.good, { check: true });
    runs.again = await run(urls.good);
    runs.unknown = await run(urls.unknown);
    runs.missing = await run(urls.missing);
    runs.password = await run(cluster.url('to_good', 'wrong-password'));
    runs.unreachable = await run('postgres://traffic_ops:x@127.0.0.1:1/traffic_ops');
    runs.broken = await run(urls.broken, { replace: true });
    runs.sevenMissing = await run(urls.sevenMissing);
    runs.check = await checkRun;

    // The application in this process, on the imported database (a child server starts too slowly
    // on a loaded machine).
    const app = await createTestAppWithEnv({
      ...target.env,
      SESSION_SECRET: db.driver === 'mysql' ? 'x'.repeat(40) : undefined,
    });
    try {
      const base = app.getHttpServer();
      const signIn = (u: string, p: string) => request(base).post('/api/4.0/user/login').send({ u, p });
      api.zoe = await signIn('zoë', 'Zoë-passwort-22');
      api.kim = await signIn('readonly-kim', 'Kim-read-Only-3');
      api.wrong = await signIn('ops-maria', 'Maria-old-Pass-2');
      const admin = request.agent(base);
      api.admin = await admin.post('/api/4.0/user/login').send({ u: 'admin', p: 'Admin-old-Pass-0' });
      api.server1 = await admin.get('/api/4.0/servers?id=1');
      api.tenants = await admin.get('/api/4.0/tenants');
      api.ds2 = await admin.get('/api/4.0/deliveryservices?xmlId=ds-2');
      api.regexes = await admin.get('/api/4.0/deliveryservices/1/regexes');
      api.cachegroups = await admin.get('/api/4.0/cachegroups');
      api.locks = await admin.get('/api/4.0/cdn_locks');
      api.snapshot = await admin.get('/api/4.0/cdns/cdn-east/snapshot');
      api.users = await admin.get('/api/4.0/users');
      fields.eight = await readReleaseFields(admin);
      api.newDivision = await admin.post('/api/4.0/divisions').send({ name: 'made-after-the-import' });
    } finally {
      await app.close();
    }

    dumps.before = await dumpTables(target, TABLES);
    runs.failing = await run(urls.duplicate, { replace: true });
    dumps.afterFailure = await dumpTables(target, TABLES);
    runs.replace1 = await run(urls.good, { replace: true });
    dumps.replace1 = await dumpTables(target, TABLES);
    runs.replace2 = await run(urls.good, { replace: true });
    dumps.replace2 = await dumpTables(target, TABLES);

    // The same rows from a 7.0 database, over the 8.0 import, read back through the API.
    runs.seven = await run(urls.seven, { replace: true });
    dumps.seven = await dumpTables(target, TABLES);
    if (runs.seven.code !== 0) {
      return; // the target still holds the 8.0 import: nothing of 7.0 to read
    }
    const again = await createTestAppWithEnv({
      ...target.env,
      SESSION_SECRET: db.driver === 'mysql' ? 'x'.repeat(40) : undefined,
    });
    try {
      const admin = request.agent(again.getHttpServer());
      api.sevenAdmin = await admin.post('/api/4.0/user/login').send({ u: 'admin', p: 'Admin-old-Pass-0' });
      fields.seven = await readReleaseFields(admin);
    } finally {
      await again.close();
    }
  }, 600_000);

  afterAll(async () => {
    await dataSource?.destroy();
    cluster.stop();
    await dropFresh();
  });

  it('copies every table and prints the counts per table', () => {
    expect(runs.first).toMatchObject({ code: 0, stderr: '' });
    expect(runs.first.stdout).toMatch(/^imported Traffic Ops 8\.0 \(schema 2023082308560644\):\n/);
    expect(runs.first.stdout).toMatch(/\n {2}server +62\n/);
    expect(runs.first.stdout).toMatch(/\n {2}interface +73\n/);
    expect(runs.first.stdout).toMatch(/\n {2}deliveryservice_regex +28\n/);
    expect(runs.first.stdout).toMatch(/\n {2}snapshot +1\n$/);
  });

  it('refuses a target that is no longer empty unless --replace is given', () => {
    expect(runs.again.code).toBe(1);
    expect(runs.again.stderr).toContain('the target database is not empty (rows in cdn, cachegroup');
    expect(runs.again.stderr).toContain('give --replace');
  });

  it('keeps users’ old passwords: the original’s scrypt hashes sign in', () => {
    expect(api.zoe.status).toBe(200);
    expect(api.kim.status).toBe(200);
    expect(api.admin.status).toBe(200);
    expect(api.wrong.status).toBe(401);
  });

  it('keeps ids, names and relations', () => {
    const server = api.server1.body.response[0];
    expect(server).toMatchObject({
      id: 1,
      hostName: 'edge-1',
      cachegroup: 'edge-west-1',
      cdnName: 'cdn-west',
    });
    expect(server.interfaces).toHaveLength(12);
    const bond0 = server.interfaces.find((i: { name: string }) => i.name === 'bond0');
    expect(bond0).toMatchObject({
      monitor: true,
      maxBandwidth: 0,
      routerHostName: 'router-0',
      routerPortName: 'port/0',
    });
    expect(bond0.ipAddresses).toEqual(
      expect.arrayContaining([
        { address: '198.51.100.0/24', gateway: '198.51.100.254', serviceAddress: true },
        { address: '2001:db8:1::/64', gateway: null, serviceAddress: true },
      ]),
    );

    const tenants = api.tenants.body.response as { id: number; name: string; parentName: string | null }[];
    expect(tenants).toHaveLength(11);
    expect(tenants.find((t) => t.name === 'level-8')).toMatchObject({ id: 9, parentName: 'level-7' });
    expect(tenants.find((t) => t.id === 21)).toMatchObject({
      name: '東京テナント',
      parentName: 'Société-Générale',
    });

    expect(api.ds2.body.response[0]).toMatchObject({
      id: 2,
      displayName: 'Vidéo — 東京 ✓',
      tenantId: 3,
      active: false, // API 4.0 answers PRIMED as false (5.0 as the text)
    });
    const sets = (api.regexes.body.response as { setNumber: number; pattern: string }[]).map(
      (r) => r.setNumber,
    );
    expect(sets.sort()).toEqual([0, 1, 2, 3]);

    const groups = api.cachegroups.body.response as Record<string, unknown>[];
    expect(groups.find((g) => g.name === 'edge-東京')).toMatchObject({
      id: 6,
      latitude: null,
      longitude: null,
      parentCachegroupName: 'mid-west',
    });
    expect(groups.find((g) => g.name === 'edge-east-1')).toMatchObject({
      latitude: 40.7128,
      longitude: -74.006,
      parentCachegroupId: 2,
      secondaryParentCachegroupId: 3,
    });
    expect(api.locks.body.response).toEqual([
      expect.objectContaining({
        cdn: 'cdn-west',
        userName: 'ops-maria',
        sharedUserNames: ['zoë'],
        soft: false,
      }),
    ]);
    expect(api.snapshot.body.response.config).toEqual({ domain_name: 'east.example.net' });
    const users = api.users.body.response as { username: string; fullName: string }[];
    expect(users.find((u) => u.username === 'readonly-kim')).toMatchObject({
      fullName: '김민지',
      tenant: '東京テナント',
    });
  });

  it('continues the id counters past the copied ids', () => {
    expect(api.newDivision.status).toBe(200);
    expect(api.newDivision.body.response.id).toBe(5);
  });

  it('--check lists the counts and every rule-breaking row, and writes nothing', () => {
    expect(runs.checkGood).toMatchObject({ code: 0, stderr: '' });
    expect(runs.checkGood.stdout).toContain('no row breaks this service’s rules');
    expect(runs.check.code).toBe(1);
    expect(runs.check.stdout).toMatch(
      /^check of Traffic Ops 8\.0 \(schema 2023082308560644\): nothing was written\n/,
    );
    expect(runs.check.stdout).toMatch(/\n {2}deliveryservice +25\n/);
    expect(runs.check.stdout).toContain('4 row(s) break this service');
    expect(runs.check.stdout).toContain('  tm_user id=91: user without a role\n');
    expect(runs.check.stdout).toContain(
      '  tm_user id=90: password hash not in the SCRYPT format (the user could not sign in)\n',
    );
    expect(runs.check.stdout).toContain('  deliveryservice id=90: xml_id contains spaces or periods\n');
    expect(runs.check.stdout).toContain('  deliveryservice_request id=90: request without an xmlId\n');
    expect(runs.broken.code).toBe(1);
    expect(runs.broken.stderr).toContain("4 row(s) break this service's rules; nothing was written:");
  });

  it('says clearly what is wrong with the source', () => {
    expect(runs.unknown.code).toBe(1);
    expect(runs.unknown.stderr).toContain('unknown Traffic Ops schema version 2099010100000000');
    expect(runs.missing.code).toBe(1);
    expect(runs.missing.stderr).toContain("the Traffic Ops database has no table 'servercheck'");
    expect(runs.password.code).toBe(1);
    expect(runs.password.stderr).toContain('refused the user name or password');
    expect(runs.password.stderr).not.toContain('wrong-password');
    expect(runs.unreachable.code).toBe(1);
    expect(runs.unreachable.stderr).toContain(
      'cannot reach the Traffic Ops database at postgres://traffic_ops:***@127.0.0.1:1/',
    );
  });

  it('a failed run leaves the target as it was', () => {
    expect(runs.failing.code).toBe(1);
    expect(runs.failing.stderr).toContain('writing parameter failed, nothing was written');
    expect(dumps.afterFailure).toEqual(dumps.before);
    expect(dumps.before.division).toHaveLength(5);
  });

  it('--replace replaces the contents, and twice gives the same result', () => {
    expect(runs.replace1).toMatchObject({ code: 0, stderr: '' });
    expect(runs.replace1.stdout).toContain('replacing the previous contents');
    expect(dumps.replace1.division).toHaveLength(4);
    expect(dumps.replace2).toEqual(dumps.replace1);
    expect(dumps.replace1.server).toEqual(dumps.before.server);
  });

  describe('from Traffic Control 7.0 (D190)', () => {
    type Ds = {
      id: number;
      active: string;
      regional: boolean;
      multiSiteOrigin: boolean;
      requiredCapabilities: string[];
    };
    const byId = (release: 'seven' | 'eight') =>
      new Map((fields[release].deliveryServices.body.response as Ds[]).map((ds) => [ds.id, ds]));

    it('reads the 7.0 schema and copies the same rows as from 8.0, but for what only 8.0 has', () => {
      expect(runs.seven).toMatchObject({ code: 0, stderr: '' });
      expect(runs.seven.stdout).toMatch(
        /^imported Traffic Ops 7\.0 \(schema 2022050916074300\), replacing the previous contents:\n/,
      );
      expect(runs.seven.stdout).toMatch(/\n {2}deliveryservices_required_capability +3\n/);
      expect(comparable(dumps.seven, ONLY_IN_8)).toEqual(comparable(dumps.replace1, ONLY_IN_8));
      expect(api.sevenAdmin.status).toBe(200);
    });

    it('delivery services: active true is ACTIVE and false PRIMED, not regional, multi-site origin false where null', () => {
      const seven = byId('seven');
      const eight = byId('eight');
      expect(seven.size).toBe(24);
      // ds 3: true in 7.0; ds 1: false in 7.0 (PRIMED), INACTIVE in the 8.0 database; ds 2: PRIMED in both.
      expect([1, 2, 3].map((id) => seven.get(id)!.active)).toEqual(['PRIMED', 'PRIMED', 'ACTIVE']);
      expect([1, 2, 3].map((id) => eight.get(id)!.active)).toEqual(['INACTIVE', 'PRIMED', 'ACTIVE']);
      expect(seven.get(6)!.regional).toBe(false);
      expect(eight.get(6)!.regional).toBe(true);
      expect([13, 14, 15].map((id) => seven.get(id)!.multiSiteOrigin)).toEqual([false, false, false]);
    });

    it('required capabilities come from their own table', () => {
      expect(byId('seven').get(8)!.requiredCapabilities.sort()).toEqual(['DISK', 'RAM']);
      expect(byId('seven').get(9)!.requiredCapabilities).toEqual(['RAM']);
      const rows = (r: request.Response) =>
        (r.body.response as { deliveryServiceID: number; requiredCapability: string }[])
          .map((row) => `${row.deliveryServiceID}:${row.requiredCapability}`)
          .sort();
      expect(rows(fields.seven.requiredCapabilities)).toEqual(['8:DISK', '8:RAM', '9:RAM']);
      expect(rows(fields.seven.requiredCapabilities)).toEqual(rows(fields.eight.requiredCapabilities));
    });

    it('what 7.0 did not have reads as 8.0 starts it: no TTL override, empty descriptions, no failed updates', () => {
      expect(fields.seven.cdnWest.body.response[0]).not.toHaveProperty('ttlOverride');
      expect(fields.eight.cdnWest.body.response[0]).toMatchObject({ ttlOverride: 60 });
      const descriptions = (r: request.Response) =>
        Object.fromEntries(
          (r.body.response as { name: string; description: string }[]).map((c) => [c.name, c.description]),
        );
      expect(descriptions(fields.seven.capabilities)).toEqual({ DISK: '', RAM: '', SSD: '' });
      expect(descriptions(fields.eight.capabilities)).toEqual({
        DISK: 'Spinning disks',
        RAM: 'In-memory cache',
        SSD: '',
      });
      expect(fields.seven.server3.body.response[0]).toMatchObject({ id: 3, configUpdateFailed: false });
      expect(fields.seven.server4.body.response[0]).toMatchObject({ id: 4, revalUpdateFailed: false });
      expect(fields.eight.server3.body.response[0]).toMatchObject({ id: 3, configUpdateFailed: true });
      expect(fields.eight.server4.body.response[0]).toMatchObject({ id: 4, revalUpdateFailed: true });
    });

    it('requests keep their delivery services as 8.0’s migrations rewrote them', () => {
      type Request = { id: number; requested?: Record<string, unknown>; original?: Record<string, unknown> };
      const requestOf = (release: 'seven' | 'eight', id: number) =>
        (fields[release].requests.body.response as Request[]).find((r) => r.id === id)!;
      expect(requestOf('seven', 2).requested).toEqual({
        xmlId: 'ds-2',
        tenantId: 3,
        displayName: 'Vidéo 2',
        active: 'ACTIVE',
        regional: false,
        multiSiteOrigin: false,
        lastUpdated: '2026-10-01T10:00:00Z',
      });
      expect(requestOf('seven', 1).requested).toMatchObject({ regional: false, multiSiteOrigin: false });
      expect(requestOf('seven', 1).requested).not.toHaveProperty('active');
      expect(requestOf('seven', 3).original).toMatchObject({
        xmlId: 'ds-9',
        active: 'PRIMED',
        regional: false,
      });
      // The same JSON as the 8.0 database's (an open update's original is the live delivery service).
      expect([1, 2].map((id) => requestOf('seven', id).requested)).toEqual(
        [1, 2].map((id) => requestOf('eight', id).requested),
      );
      expect(requestOf('seven', 3).original).toEqual(requestOf('eight', 3).original);
    });

    it('a 7.0 database without its required capabilities table is refused by name', () => {
      expect(runs.sevenMissing.code).toBe(1);
      expect(runs.sevenMissing.stderr).toContain(
        "the Traffic Ops database has no table 'deliveryservices_required_capability'",
      );
    });
  });
});
