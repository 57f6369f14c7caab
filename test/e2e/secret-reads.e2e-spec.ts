import { DataSource } from 'typeorm';
import { ApiClient, responseOf } from 'test/e2e/support/api';
import { type CreatedUser, createUser } from 'test/e2e/support/accounts';
import { expectError } from 'test/e2e/support/alerts';
import { RSA_CERTIFICATE, RSA_CSR, RSA_KEY } from 'test/e2e/support/fixtures/certificates';
import { insertDeliveryService } from 'test/e2e/support/fixtures/delivery-services';
import type { InsertedDeliveryService } from 'test/e2e/support/fixtures/delivery-services';
import { createCdn } from 'test/e2e/support/fixtures/profiles';
import { useApp } from 'test/e2e/support/suite';

/** A URI signing key set (one issuer, one key). */
const URI_KEYS = {
  'https://issuer.example': {
    renewal_kid: 'only',
    keys: [{ alg: 'HS256', kid: 'only', kty: 'oct', k: 'Kh_secret_read_uri_signing_key_abc' }],
  },
};

interface Entry {
  username: string;
  message: string;
}

/**
 * Every read of private keys (SSL private keys, URL and URI signing keys, DNSSEC private keys) is
 * recorded in the change log within the request: who read it (the entry's user), which key (the path
 * and what it names), from which address — never the key itself. A refused read records nothing.
 */
describe('reads of private keys are recorded in the change log', () => {
  const { app, admin } = useApp();
  let dataSource: DataSource;
  let readOnly: CreatedUser;
  let cdn: { id: number; name: string };
  /** A CDN without delivery services: its DNSSEC keys are the CDN's own. */
  let dnssecCdn: { id: number; name: string };
  let ds: InsertedDeliveryService;
  let dsId: number;

  const newest = async (): Promise<Entry | undefined> => {
    const [row] = await dataSource.query<Entry[]>(
      'SELECT u.username, l.message FROM log l JOIN tm_user u ON u.id = l.tm_user ORDER BY l.id DESC LIMIT 1',
    );
    return row;
  };
  const count = async (): Promise<number> =>
    Number((await dataSource.query<{ n: number | string }[]>('SELECT COUNT(*) AS n FROM log'))[0].n);

  beforeAll(async () => {
    dataSource = app.get(DataSource);
    readOnly = await createUser(app, admin, 'read-only');
    cdn = await createCdn(admin);
    dnssecCdn = await createCdn(admin);
    ds = await insertDeliveryService(app, cdn.id);
    dsId = responseOf<{ id: number }[]>(await admin.get(`deliveryservices?xmlId=${ds.xmlId}`))[0].id;
    const writes = [
      await admin.post('deliveryservices/sslkeys/add', {
        cdn: cdn.name,
        key: ds.xmlId,
        deliveryservice: ds.xmlId,
        version: 1,
        hostname: '*.secret-reads.example',
        certificate: { crt: RSA_CERTIFICATE, key: RSA_KEY, csr: RSA_CSR },
      }),
      await admin.post(`deliveryservices/xmlId/${ds.xmlId}/urlkeys/generate`),
      await admin.post(`deliveryservices/${ds.xmlId}/urisignkeys`, URI_KEYS),
      await admin.post('cdns/dnsseckeys/generate', {
        key: dnssecCdn.name,
        ttl: '60',
        kskExpirationDays: 365,
        zskExpirationDays: 30,
        effectiveDate: 1_700_000_000,
      }),
    ];
    expect(writes.map((res) => [res.status, res.status === 200 ? '' : res.text])).toEqual([
      [200, ''],
      [200, ''],
      [200, ''],
      [200, ''],
    ]);
  });

  /** Each read: its URL and what its entry must say was read. */
  const reads: [string, () => [string, string]][] = [
    [
      'SSL keys',
      () => [
        `deliveryservices/xmlId/${ds.xmlId}/sslkeys?decode=true`,
        `the SSL keys (private key included) of delivery service ${ds.xmlId}`,
      ],
    ],
    [
      'URL signing keys by xmlId',
      () => [
        `deliveryservices/xmlId/${ds.xmlId}/urlkeys`,
        `the URL signing keys of delivery service ${ds.xmlId}`,
      ],
    ],
    [
      'URL signing keys by id',
      () => [`deliveryservices/${dsId}/urlkeys`, `the URL signing keys of delivery service id ${dsId}`],
    ],
    [
      'URI signing keys',
      () => [
        `deliveryservices/${ds.xmlId}/urisignkeys`,
        `the URI signing keys of delivery service ${ds.xmlId}`,
      ],
    ],
    [
      "a CDN's SSL keys",
      () => [
        `cdns/name/${cdn.name}/sslkeys`,
        `the SSL keys (private keys included) of every delivery service of CDN ${cdn.name}`,
      ],
    ],
    [
      "a CDN's DNSSEC keys",
      () => [
        `cdns/name/${dnssecCdn.name}/dnsseckeys`,
        `the DNSSEC keys (private keys included) of CDN ${dnssecCdn.name} and its delivery services`,
      ],
    ],
  ];

  it.each(reads)('%s: who, which key, from which address; never the key', async (_name, read) => {
    const [url, what] = read();
    for (const version of ['3.0', '4.0', '5.0']) {
      const before = await count();
      const res = await admin.at(version).get(url);
      expect(res.status).toBe(200);
      expect(await count()).toBe(before + 1);
      const entry = await newest();
      const path = url.replace(/\?.*$/, '');
      expect(entry).toEqual({
        username: 'admin',
        message: expect.stringMatching(/^GET .*, from (::ffff:)?127\.0\.0\.1$/),
      });
      expect(entry!.message).toBe(`GET /${path}: read ${what}, from ${entry!.message.split(', from ')[1]}`);
      for (const material of [RSA_KEY.split('\n')[1], 'PRIVATE KEY', 'Kh_secret_read', 'BEGIN']) {
        expect(entry!.message).not.toContain(material);
      }
    }
  });

  it('records the reader: a read-only user reading URL signing keys, as the original lets them', async () => {
    const res = await readOnly.client.get(`deliveryservices/xmlId/${ds.xmlId}/urlkeys`);
    expect(res.status).toBe(200);
    expect(await newest()).toEqual({
      username: readOnly.username,
      message: expect.stringContaining(`read the URL signing keys of delivery service ${ds.xmlId}, from `),
    });
  });

  it('records nothing for a refused read, nor for another user who may not read', async () => {
    const before = await count();
    expectError(await readOnly.client.get(`deliveryservices/xmlId/${ds.xmlId}/sslkeys`), 403, 'Forbidden.');
    expect((await ApiClient.anonymous(app).get(`cdns/name/${dnssecCdn.name}/dnsseckeys`)).status).toBe(401);
    expect((await admin.get('deliveryservices/xmlId/no-such-ds/urlkeys')).status).toBeGreaterThanOrEqual(400);
    expect(await count()).toBe(before);
  });
});
