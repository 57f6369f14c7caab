import { UnitOfWork } from 'src/common/database/unit-of-work';
import * as mysql from 'mysql2/promise';
import { createCipheriv, randomBytes, X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import request from 'supertest';
import { TrafficOpsImporter } from 'src/cli/import/importer';
import { Progress } from 'src/cli/import/progress';
import { RequestScopedDataSource } from 'src/common/database/request-transaction';
import { databaseConfigFrom } from 'src/config/database.env';
import { createDatabaseIfMissing } from 'src/database/create-database';
import { buildTypeOrmOptions } from 'src/database/typeorm-options';
import { KEY_STATUS_NEW, newDnssecKey, type StoredDnssecKeySet } from 'src/modules/keys/dnssec/dnssec';
import { KeyStoreRepository } from 'src/modules/keys/store/key-store.repository';
import { KeyStoreService } from 'src/modules/keys/store/key-store.service';
import { createTestAppWithEnv } from 'test/e2e/support/app';
import { type Finished, runCli } from 'test/e2e/support/child-process';
import { RSA_CERTIFICATE, RSA_CSR, RSA_KEY } from 'test/e2e/support/fixtures/certificates';
import { PrivateCluster } from 'test/e2e/support/postgres';
import { dumpTables, type FreshTarget } from 'test/e2e/support/target-dump';
import { testDatabase } from 'test/e2e/support/test-database';

type Outcome = Pick<Finished, 'code' | 'stdout' | 'stderr'>;

const FIXTURE = ['schema-8.sql', 'data.sql', 'data-8.sql'];
const VAULT_SCHEMA = readFileSync(
  join(__dirname, '..', 'fixtures', 'traffic-vault', 'create_tables.sql'),
  'utf8',
);
/** Traffic Vault's AES key (AES-256 here; the original takes 128 and 192 bits too) and another one. */
const AES_KEY = randomBytes(32);
const OTHER_AES_KEY = randomBytes(32);
/** This service's KEY_STORE_KEY. */
const STORE_KEY = randomBytes(32);
const TABLES = ['deliveryservice', 'cdn', 'key_store'];

const base64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');

/** How Traffic Vault's lib/go-util AESEncrypt seals: a 12-byte nonce, the ciphertext, the 16-byte tag. */
function seal(document: unknown, key: Buffer): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv(`aes-${key.length * 8}-gcm` as 'aes-256-gcm', key, nonce);
  const sealed = Buffer.concat([
    cipher.update(JSON.stringify(document), 'utf8'),
    cipher.final(),
    cipher.getAuthTag(),
  ]);
  return `'\\x${Buffer.concat([nonce, sealed]).toString('hex')}'::bytea`;
}

const literal = (text: string): string => `'${text.replace(/'/g, "''")}'`;

/** The plaintext of every key the fixture holds. */
const SSL_DS1 = {
  authType: 'Self Signed',
  cdn: 'cdn-west',
  deliveryservice: 'ds-1',
  hostname: '*.ds-1.west.example.net',
  key: 'ds-1',
  version: 1,
  certificate: { crt: base64(RSA_CERTIFICATE), key: base64(RSA_KEY), csr: base64(RSA_CSR) },
};
/** Version 2 of ds-2's keys, the version written as the original's numeric string (util.JSONIntStr). */
const SSL_DS2 = {
  cdn: 'cdn-east',
  deliveryservice: 'ds-2',
  hostname: 'ds-2.east.example.net',
  key: 'ds-2',
  version: '2',
  certificate: { crt: base64(RSA_CERTIFICATE), key: base64(RSA_KEY), csr: '' },
};
const URL_SIG_DS4 = Object.fromEntries(
  Array.from({ length: 16 }, (_, i) => [`key${i}`, randomBytes(24).toString('base64url')]),
);
const URI_SIGNING_DS5 = {
  'issuer.example.net': {
    renewal_kid: 'first',
    keys: [{ alg: 'HS256', kid: 'first', kty: 'oct', k: randomBytes(32).toString('base64url') }],
  },
};

function sslRows(key: Buffer): string {
  const expiration = new Date(new X509Certificate(RSA_CERTIFICATE).validTo).toISOString();
  const row = (doc: object, ds: string, cdn: string, version: string, provider: string) =>
    `(${seal(doc, key)}, ${literal(ds)}, ${literal(cdn)}, ${literal(version)}, ${literal(provider)}, '${expiration}')`;
  return (
    'INSERT INTO sslkey (data, deliveryservice, cdn, version, provider, expiration) VALUES ' +
    [
      row(SSL_DS1, 'ds-1', 'cdn-west', '1', 'Self Signed'),
      row(SSL_DS1, 'ds-1', 'cdn-west', 'latest', 'Self Signed'),
      row(SSL_DS2, 'ds-2', 'cdn-east', '2', ''),
      row(SSL_DS2, 'ds-2', 'cdn-east', 'latest', ''),
    ].join(', ') +
    ';'
  );
}

/** The rows of a Traffic Vault database, sealed with `key`; `extra` rows are added as given. */
function vaultRows(key: Buffer, dnssec: Record<string, StoredDnssecKeySet>, extra = ''): string {
  return [
    sslRows(key),
    `INSERT INTO dnssec (cdn, data) VALUES ('cdn-east', ${seal(dnssec, key)}),
       ('cdn-gone', ${seal({ 'cdn-gone': dnssec['cdn-east'] }, key)});`,
    `INSERT INTO url_sig_key (deliveryservice, data) VALUES ('ds-4', ${seal(URL_SIG_DS4, key)}),
       ('ds-gone', ${seal(URL_SIG_DS4, key)});`,
    `INSERT INTO uri_signing_key (deliveryservice, data) VALUES ('ds-5', ${seal(URI_SIGNING_DS5, key)});`,
    extra,
  ].join('\n');
}

/**
 * `import:traffic-ops --traffic-vault`: Traffic Vault's keys (PostgreSQL backend) copied with the
 * Traffic Ops database, decrypted with the original's AES key and sealed with KEY_STORE_KEY, then
 * read back through the key routes.
 */
describe('import:traffic-ops --traffic-vault', () => {
  const db = testDatabase(Number(process.env.E2E_DB_PID));
  const freshName = `${db.database ?? 'sqlite'}_vault`;
  const dir = mkdtempSync(join(tmpdir(), 'cdn-e2e-vault-'));
  const target: FreshTarget = {
    driver: db.driver,
    env:
      db.driver === 'mysql'
        ? { DATABASE_URL: `${db.serverUrl!.replace(/\/$/, '')}/${freshName}`, SQLITE_PATH: undefined }
        : { SQLITE_PATH: join(dir, 'cdn.sqlite'), DATABASE_URL: undefined },
  };
  const keyFile = join(dir, 'aes.key');
  const otherKeyFile = join(dir, 'other-aes.key');
  const cluster = new PrivateCluster();
  const urls: Record<string, string> = {};
  const runs: Record<string, Outcome> = {};
  const api: Record<string, request.Response> = {};
  const dumps: Record<string, Record<string, unknown[]>> = {};
  let dataSource: RequestScopedDataSource | undefined;
  let dnssec: Record<string, StoredDnssecKeySet> = {};

  const dropFresh = async (): Promise<void> => {
    if (db.driver === 'mysql') {
      const connection = await mysql.createConnection(db.serverUrl!);
      await connection.query(`DROP DATABASE IF EXISTS \`${freshName}\``);
      await connection.end();
    }
  };

  /** A Traffic Vault database of the private cluster: the original's tables and `rows`. */
  const vaultDatabase = async (name: string, rows: string): Promise<string> => {
    const url = await cluster.createDatabase(name, []);
    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(VAULT_SCHEMA);
      await client.query(rows);
    } finally {
      await client.end();
    }
    return url;
  };

  beforeAll(async () => {
    await dropFresh();
    writeFileSync(keyFile, `${AES_KEY.toString('base64')}\n`);
    writeFileSync(otherKeyFile, OTHER_AES_KEY.toString('base64'));
    const inception = new Date(1_700_000_000_000);
    const expiration = new Date(1_800_000_000_000);
    const key = (kind: 'ksk' | 'zsk', name: string) =>
      newDnssecKey(kind, {
        name,
        ttlSeconds: 60,
        inception,
        expiration,
        status: KEY_STATUS_NEW,
        effective: inception,
        tld: kind === 'ksk' && name === 'east.example.net.',
      });
    dnssec = {
      'cdn-east': {
        ksk: [await key('ksk', 'east.example.net.')],
        zsk: [await key('zsk', 'east.example.net.')],
      },
      'ds-2': { ksk: [await key('ksk', 'ds-2.east.example.net.')], zsk: null },
    };

    await cluster.start();
    urls.ops = await cluster.createDatabase('to_good', FIXTURE);
    urls.vault = await vaultDatabase('tv_good', vaultRows(AES_KEY, dnssec));
    // One more key, sealed with another AES key than the others.
    urls.broken = await vaultDatabase(
      'tv_broken',
      vaultRows(
        AES_KEY,
        dnssec,
        `INSERT INTO url_sig_key (deliveryservice, data) VALUES ('ds-6', ${seal(URL_SIG_DS4, OTHER_AES_KEY)});`,
      ),
    );

    // URI signing keys too large for this service's key store: refused while the keys are written,
    // after the tables and the other keys.
    const huge = {
      'issuer.example.net': {
        renewal_kid: 'a',
        keys: [{ alg: 'HS256', kid: 'a', kty: 'oct', k: 'x'.repeat(60_000) }],
      },
    };
    urls.tooLarge = await vaultDatabase(
      'tv_too_large',
      vaultRows(
        AES_KEY,
        dnssec,
        `UPDATE uri_signing_key SET data = ${seal(huge, AES_KEY)} WHERE deliveryservice = 'ds-5';`,
      ),
    );

    const config = databaseConfigFrom(target.env);
    await createDatabaseIfMissing(config);
    dataSource = new RequestScopedDataSource(buildTypeOrmOptions(config));
    await dataSource.initialize();
    await dataSource.runMigrations({ transaction: 'each' });
    const quiet = new Progress({ isTTY: false } as NodeJS.WriteStream);
    const importer = (storeKey: Buffer | undefined) =>
      new TrafficOpsImporter(
        dataSource!,
        new KeyStoreService(
          new KeyStoreRepository(dataSource!),
          { key: storeKey },
          new UnitOfWork(dataSource!),
        ),
      );
    const run = async (
      vault: string,
      aesKeyFile: string,
      flags: { check?: boolean; replace?: boolean; storeKey?: Buffer } = {},
    ): Promise<Outcome> => {
      try {
        const output = await importer('storeKey' in flags ? flags.storeKey : STORE_KEY).run(
          {
            from: urls.ops,
            check: flags.check ?? false,
            replace: flags.replace ?? false,
            trafficVault: vault,
            trafficVaultAesKey: aesKeyFile,
          },
          quiet,
        );
        return { code: output.code, stdout: output.lines.join('\n') + '\n', stderr: '' };
      } catch (error) {
        return { code: 1, stdout: '', stderr: (error as Error).message };
      }
    };

    runs.noStore = await run(urls.vault, keyFile, { storeKey: undefined });
    runs.wrongKey = await run(urls.vault, otherKeyFile);
    runs.missingKeyFile = await run(urls.vault, join(dir, 'no-such.key'));
    dumps.empty = await dumpTables(target, TABLES);
    // The import itself on the command line (its options, the key store in its module, its
    // DataSource); every other run goes through the same importer in this process.
    runs.first = await runCli(
      [
        'import:traffic-ops',
        '--from',
        urls.ops,
        '--traffic-vault',
        urls.vault,
        '--traffic-vault-aes-key',
        keyFile,
      ],
      {
        env: {
          ...target.env,
          KEY_STORE_KEY: STORE_KEY.toString('hex'),
          ADMIN_PASSWORD: undefined,
          LOG_LEVEL: 'warn',
        },
      },
    );

    const app = await createTestAppWithEnv({
      ...target.env,
      KEY_STORE_KEY: STORE_KEY.toString('hex'),
      SESSION_SECRET: db.driver === 'mysql' ? 'x'.repeat(40) : undefined,
    });
    try {
      const admin = request.agent(app.getHttpServer());
      api.login = await admin.post('/api/4.0/user/login').send({ u: 'admin', p: 'Admin-old-Pass-0' });
      api.ssl1 = await admin.get('/api/4.0/deliveryservices/xmlId/ds-1/sslkeys?decode=1');
      api.ssl1v1 = await admin.get('/api/4.0/deliveryservices/xmlId/ds-1/sslkeys?version=1');
      api.ssl2 = await admin.get('/api/4.0/deliveryservices/xmlId/ds-2/sslkeys');
      api.cdnSsl = await admin.get('/api/4.0/cdns/name/cdn-east/sslkeys');
      api.dnssec = await admin.get('/api/4.0/cdns/name/cdn-east/dnsseckeys');
      api.urlSig = await admin.get('/api/4.0/deliveryservices/xmlId/ds-4/urlkeys');
      api.uriSigning = await admin.get('/api/4.0/deliveryservices/ds-5/urisignkeys');
    } finally {
      await app.close();
    }

    dumps.before = await dumpTables(target, TABLES);
    runs.broken = await run(urls.broken, keyFile, { replace: true });
    dumps.afterBroken = await dumpTables(target, TABLES);
    runs.check = await run(urls.broken, keyFile, { check: true });
    runs.tooLarge = await run(urls.tooLarge, keyFile, { replace: true });
    dumps.afterTooLarge = await dumpTables(target, TABLES);
    runs.replace1 = await run(urls.vault, keyFile, { replace: true });
    dumps.replace1 = await dumpTables(target, TABLES);
    runs.replace2 = await run(urls.vault, keyFile, { replace: true });
    dumps.replace2 = await dumpTables(target, TABLES);
    const plain = await importer(STORE_KEY).run({ from: urls.ops, check: false, replace: true }, quiet);
    runs.withoutVault = { code: plain.code, stdout: `${plain.lines.join('\n')}\n`, stderr: '' };
    dumps.withoutVault = await dumpTables(target, TABLES);
  }, 600_000);

  afterAll(async () => {
    await dataSource?.destroy();
    cluster.stop();
    await dropFresh();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The key store's rows without what each sealing makes anew (nonce, ciphertext, tag, id, time). */
  const entries = (dump: Record<string, unknown[]>) =>
    (dump.key_store as Record<string, unknown>[]).map(
      ({ kind, owner, version, cdn, provider, expiration }) => ({
        kind,
        owner,
        version,
        cdn,
        provider,
        expiration,
      }),
    );

  it('copies the keys and prints their counts and the keys left out', () => {
    expect(runs.first).toMatchObject({ code: 0, stderr: '' });
    expect(runs.first.stdout).toContain(
      [
        'Traffic Vault keys (sealed with KEY_STORE_KEY):',
        '  SSL keys          4',
        '  DNSSEC keys       1',
        '  URL signing keys  2',
        '  URI signing keys  1',
        '1 of them belong to delivery services no longer in Traffic Ops (kept, as Traffic Vault keeps them):',
        '  URL signing keys of delivery service ds-gone',
        '1 Traffic Vault key(s) not copied:',
        '  DNSSEC keys of CDN cdn-gone: no such CDN',
      ].join('\n'),
    );
    expect(
      entries(dumps.before)
        .map((e) => `${String(e.kind)} ${String(e.owner)} ${String(e.version)}`)
        .sort(),
    ).toEqual([
      'dnssec  2',
      'dnssec ds-2 2',
      'ssl ds-1 1',
      'ssl ds-1 latest',
      'ssl ds-2 2',
      'ssl ds-2 latest',
      'uri_signing ds-5 ',
      'url_sig ds-4 ',
      'url_sig ds-gone ',
    ]);
  });

  it('seals the keys with KEY_STORE_KEY: no plaintext in the database', () => {
    const stored = JSON.stringify(dumps.before.key_store);
    expect(stored).not.toContain(URL_SIG_DS4.key0);
    expect(stored).not.toContain(SSL_DS1.certificate.key);
    expect(stored).not.toContain(dnssec['cdn-east'].ksk![0].private);
  });

  it('answers the SSL keys as Traffic Vault held them', () => {
    expect(api.login.status).toBe(200);
    expect(api.ssl1.status).toBe(200);
    expect(api.ssl1.body.response).toMatchObject({
      authType: 'Self Signed',
      cdn: 'cdn-west',
      deliveryservice: 'ds-1',
      hostname: '*.ds-1.west.example.net',
      key: 'ds-1',
      version: 1,
      certificate: { crt: RSA_CERTIFICATE, key: RSA_KEY, csr: RSA_CSR },
    });
    expect(api.ssl1v1.body.response).toMatchObject({ version: 1, certificate: SSL_DS1.certificate });
    expect(api.ssl2.body.response).toMatchObject({
      deliveryservice: 'ds-2',
      version: 2,
      certificate: SSL_DS2.certificate,
    });
    expect(api.cdnSsl.body.response).toEqual([
      {
        deliveryservice: 'ds-2',
        hostname: 'ds-2.east.example.net',
        certificate: { crt: SSL_DS2.certificate.crt, key: SSL_DS2.certificate.key },
      },
    ]);
    // Traffic Vault's clear columns come along: the CDN, the provider, the expiration.
    expect(entries(dumps.before).find((e) => e.owner === 'ds-1' && e.version === 'latest')).toMatchObject({
      cdn: 'cdn-west',
      provider: 'Self Signed',
    });
    const expiration = entries(dumps.before).find((e) => e.owner === 'ds-2')!.expiration;
    expect(new Date(`${String(expiration).replace(' ', 'T').replace(/Z?$/, 'Z')}`).getTime()).toBe(
      new Date(new X509Certificate(RSA_CERTIFICATE).validTo).getTime(),
    );
  });

  it('answers the DNSSEC keys of the CDN and its delivery services', () => {
    expect(api.dnssec.status).toBe(200);
    const keys = api.dnssec.body.response as Record<string, StoredDnssecKeySet>;
    expect(Object.keys(keys)).toEqual(['cdn-east', 'ds-2']);
    const { dsRecord, ...ksk } = dnssec['cdn-east'].ksk![0];
    expect(keys['cdn-east'].ksk).toEqual([{ ...ksk, dsRecord: { ...dsRecord, text: expect.any(String) } }]);
    expect(keys['cdn-east'].zsk).toEqual(dnssec['cdn-east'].zsk);
    expect(keys['ds-2']).toEqual(dnssec['ds-2']);
  });

  it('answers the URL and URI signing keys', () => {
    expect(api.urlSig.status).toBe(200);
    expect(api.urlSig.body.response).toEqual(URL_SIG_DS4);
    expect(api.uriSigning.status).toBe(200);
    expect(api.uriSigning.body).toEqual(URI_SIGNING_DS5);
  });

  it('names every key the AES key does not open, and writes nothing', () => {
    expect(runs.wrongKey.code).toBe(1);
    expect(runs.wrongKey.stderr).toContain('9 Traffic Vault key(s) cannot be copied; nothing was written:');
    expect(runs.wrongKey.stderr).toContain(
      'SSL keys of delivery service ds-1 (version 1, CDN cdn-west): does not decrypt with the given AES key',
    );
    expect(runs.wrongKey.stderr).toContain(
      'DNSSEC keys of CDN cdn-east: does not decrypt with the given AES key',
    );
    expect(runs.wrongKey.stderr).toContain('URI signing keys of delivery service ds-5: does not decrypt');
    expect(dumps.empty.deliveryservice).toEqual([]);
    expect(dumps.empty.key_store).toEqual([]);

    expect(runs.broken.code).toBe(1);
    expect(runs.broken.stderr).toBe(
      '1 Traffic Vault key(s) cannot be copied; nothing was written:\n' +
        '  URL signing keys of delivery service ds-6: does not decrypt with the given AES key',
    );
    expect(dumps.afterBroken).toEqual(dumps.before);
  });

  it('a key that cannot be stored rolls the whole import back', () => {
    expect(runs.tooLarge.code).toBe(1);
    expect(runs.tooLarge.stderr).toBe(
      'writing the URI signing keys of delivery service ds-5 failed: the keys are too large to store, nothing was written',
    );
    expect(dumps.afterTooLarge).toEqual(dumps.before);
  });

  it('refuses --traffic-vault without KEY_STORE_KEY, or without a readable AES key file', () => {
    expect(runs.noStore.code).toBe(1);
    expect(runs.noStore.stderr).toContain('--traffic-vault needs KEY_STORE_KEY');
    expect(runs.missingKeyFile.code).toBe(1);
    expect(runs.missingKeyFile.stderr).toContain('cannot read the Traffic Vault AES key file');
  });

  it('--check counts the keys and names those that cannot be read', () => {
    expect(runs.check.code).toBe(1);
    expect(runs.check.stdout).toMatch(
      /^check of Traffic Ops 8\.0 \(schema 2023082308560644\): nothing was written\n/,
    );
    expect(runs.check.stdout).toContain(
      [
        'Traffic Vault keys that would be copied:',
        '  SSL keys          4',
        '  DNSSEC keys       1',
        '  URL signing keys  2',
        '  URI signing keys  1',
      ].join('\n'),
    );
    expect(runs.check.stdout).toContain(
      '1 Traffic Vault key(s) cannot be copied:\n' +
        '  URL signing keys of delivery service ds-6: does not decrypt with the given AES key\n',
    );
  });

  it('--replace with the keys twice gives the same keys', () => {
    expect(runs.replace1).toMatchObject({ code: 0, stderr: '' });
    expect(runs.replace2).toMatchObject({ code: 0, stderr: '' });
    expect(entries(dumps.replace1)).toEqual(entries(dumps.before));
    expect(entries(dumps.replace2)).toEqual(entries(dumps.replace1));
    expect(dumps.replace2.deliveryservice).toEqual(dumps.replace1.deliveryservice);
  });

  it('an import without --traffic-vault replaces the keys too: none are left', () => {
    expect(runs.withoutVault.code).toBe(0);
    expect(runs.withoutVault.stdout).not.toContain('Traffic Vault');
    expect(dumps.withoutVault.key_store).toEqual([]);
    expect(dumps.withoutVault.deliveryservice).toEqual(dumps.before.deliveryservice);
  });
});
