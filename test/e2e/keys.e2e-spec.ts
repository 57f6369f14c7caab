import type { INestApplication } from '@nestjs/common';
import { X509Certificate } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { DataSource } from 'typeorm';
import { createRootLogger, processLogger, setProcessLogger } from 'src/common/logging/logger';
import type {
  CdnSslKey,
  DeliveryServiceSslKeysV3,
  DeliveryServiceSslKeysV4,
  SslKeyExpiration,
} from 'src/modules/keys/ssl/ssl-keys.response';
import { ApiClient, responseOf } from 'test/e2e/support/api';
import { type CreatedUser, createTenant, createUser } from 'test/e2e/support/accounts';
import { expectError, expectErrors, expectMalformedJson, expectSuccessAlert } from 'test/e2e/support/alerts';
import { expectApiHeaders } from 'test/e2e/support/headers';
import { createTestApp } from 'test/e2e/support/app';
import {
  EC_CERTIFICATE,
  EC_KEY,
  EXPIRED_CERTIFICATE,
  NO_KEY_ENCIPHERMENT_CERTIFICATE,
  NO_SERVER_AUTH_CERTIFICATE,
  OTHER_RSA_KEY,
  RSA_CERTIFICATE,
  RSA_CSR,
  RSA_KEY,
} from 'test/e2e/support/fixtures/certificates';
import { insertDeliveryService } from 'test/e2e/support/fixtures/delivery-services';
import type { InsertedDeliveryService } from 'test/e2e/support/fixtures/delivery-services';
import { assignFederationDeliveryServices, createFederation } from 'test/e2e/support/fixtures/federations';
import { createCdn } from 'test/e2e/support/fixtures/profiles';
import { useApp } from 'test/e2e/support/suite';

const HOSTNAME = '*.keys-ds.example';
const RSA_EXPIRATION = new X509Certificate(RSA_CERTIFICATE).validTo;
const goTime = (text: string) => new Date(text).toISOString().replace('.000Z', 'Z');
const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
const UNKNOWN_AUTHORITY = (xmlId: string) =>
  `The input certificate may be invalid for '${xmlId}' (certificate is signed by an unknown authority)`;

interface KeyRow {
  kind: string;
  owner: string;
  version: string;
  cdn: string | null;
  provider: string | null;
  ciphertext: string;
  iv: string;
  tag: string;
}

/** A URI signing key set the original accepts: one issuer, one key whose kid is the renewal kid. */
const URI_KEYS = {
  'https://issuer.example': {
    renewal_kid: 'second',
    keys: [
      { alg: 'HS256', kid: 'first', kty: 'oct', k: 'Kh_uri_signing_secret_one_abcdefgh' },
      { alg: 'HS256', kid: 'second', kty: 'oct', k: 'Kh_uri_signing_secret_two_abcdefgh' },
    ],
  },
};

describe('keys (docs/original-behaviour.md#keys)', () => {
  let app: INestApplication;
  let dataSource: DataSource;
  let admin: ApiClient;
  let readOnly: CreatedUser, otherTenantAdmin: CreatedUser;
  let otherTenant: { id: number; name: string };
  let cdn: { id: number; name: string };
  const logLines: string[] = [];
  const previousLogger = processLogger();

  const newDs = (options: { typeName?: string; tenantId?: number; active?: string } = {}) =>
    insertDeliveryService(app, cdn.id, options);
  const rows = (owner: string): Promise<KeyRow[]> =>
    dataSource.query(
      'SELECT kind, owner, version, cdn, provider, ciphertext, iv, tag FROM key_store WHERE owner = ? ORDER BY kind, version',
      [owner],
    );
  const addBody = (ds: InsertedDeliveryService, overrides: Record<string, unknown> = {}) => ({
    cdn: cdn.name,
    key: ds.xmlId,
    deliveryservice: ds.xmlId,
    version: 1,
    hostname: HOSTNAME,
    certificate: { crt: RSA_CERTIFICATE, key: RSA_KEY, csr: RSA_CSR },
    ...overrides,
  });
  const addKeys = async (ds: InsertedDeliveryService, overrides: Record<string, unknown> = {}) => {
    const res = await admin.post('deliveryservices/sslkeys/add', addBody(ds, overrides));
    expect(res.status).toBe(200);
  };

  beforeAll(async () => {
    // Every log line of the app, at info: the request lines too.
    const stream = new PassThrough();
    stream.on('data', (chunk: Buffer) => logLines.push(chunk.toString('utf8')));
    setProcessLogger(createRootLogger({ level: 'debug', format: 'json', destination: stream }));
    app = await createTestApp();
    dataSource = app.get(DataSource);
    admin = await ApiClient.admin(app);
    cdn = await createCdn(admin);
    readOnly = await createUser(app, admin, 'read-only');
    otherTenant = await createTenant(admin);
    otherTenantAdmin = await createUser(app, admin, 'admin', otherTenant.id);
  });

  afterAll(async () => {
    await app?.close();
    setProcessLogger(previousLogger);
  });

  describe('SSL keys', () => {
    it('POST deliveryservices/sslkeys/add stores them encrypted, warns of a self-signed certificate and sets sslKeyVersion', async () => {
      const ds = await newDs();
      const res = await admin.post('deliveryservices/sslkeys/add', addBody(ds, { version: '3' }));
      expectApiHeaders(res);
      expect({ status: res.status, body: res.body as unknown }).toEqual({
        status: 200,
        body: {
          alerts: [
            { text: UNKNOWN_AUTHORITY(ds.xmlId), level: 'warning' },
            { text: `Added ssl keys for ${ds.xmlId}`, level: 'success' },
          ],
        },
      });
      const stored = await rows(ds.xmlId);
      expect(stored.map((r) => [r.kind, r.version, r.cdn, r.provider])).toEqual([
        ['ssl', '3', cdn.name, ''],
        ['ssl', 'latest', cdn.name, ''],
      ]);
      // The stored bytes are neither the PEM texts nor their base64, and each row has its own nonce.
      for (const row of stored) {
        const bytes = Buffer.from(row.ciphertext, 'base64').toString('latin1');
        for (const secret of [RSA_KEY, base64(RSA_KEY.trim()), 'PRIVATE KEY', RSA_KEY.split('\n')[1]]) {
          expect(row.ciphertext).not.toContain(secret);
          expect(bytes).not.toContain(secret);
        }
      }
      expect(stored[0].iv).not.toBe(stored[1].iv);
      const [dsRow] = await dataSource.query<{ v: number | string }[]>(
        'SELECT ssl_key_version AS v FROM deliveryservice WHERE id = ?',
        [ds.id],
      );
      expect(Number(dsRow.v)).toBe(3);
    });

    it('GET deliveryservices/xmlId/{xmlId}/sslkeys answers them base64-encoded, or as PEM with decode, per version', async () => {
      const ds = await newDs();
      await addKeys(ds, { authType: 'Self Signed' });
      const encoded = {
        crt: base64(RSA_CERTIFICATE),
        key: base64(RSA_KEY.trim()),
        csr: base64(RSA_CSR),
      };
      const v3: DeliveryServiceSslKeysV3 = {
        authType: 'Self Signed',
        cdn: cdn.name,
        deliveryservice: ds.xmlId,
        hostname: HOSTNAME,
        key: ds.xmlId,
        version: 1,
        certificate: encoded,
        expiration: goTime(RSA_EXPIRATION),
      };
      const v4: DeliveryServiceSslKeysV4 = { ...v3, sans: ['alt.keys-ds.example'] };
      const res = await admin.get(`deliveryservices/xmlId/${ds.xmlId}/sslkeys`);
      expectApiHeaders(res);
      expect({ status: res.status, body: res.body as unknown }).toEqual({
        status: 200,
        body: { response: v4 },
      });
      expect(responseOf(await admin.at('5.0').get(`deliveryservices/xmlId/${ds.xmlId}/sslkeys`))).toEqual(v4);
      expect(responseOf(await admin.at('3.1').get(`deliveryservices/xmlId/${ds.xmlId}/sslkeys`))).toEqual(v3);
      expect(
        responseOf(await admin.get(`deliveryservices/xmlId/${ds.xmlId}/sslkeys?decode=true&version=1`)),
      ).toEqual({ ...v4, certificate: { crt: RSA_CERTIFICATE, key: RSA_KEY.trim(), csr: RSA_CSR } });
      expect(responseOf(await admin.get(`deliveryservices/xmlId/${ds.xmlId}/sslkeys?decode=0`))).toEqual(v4);
    });

    it('a delivery service without keys (or that version): 4.x answers an empty record, 5.0 a 404', async () => {
      const ds = await newDs();
      const empty = {
        key: '',
        version: 0,
        certificate: { crt: '', key: '', csr: '' },
        expiration: '0001-01-01T00:00:00Z',
      };
      for (const version of ['3.0', '4.0', '4.1']) {
        const res = await admin.at(version).get(`deliveryservices/xmlId/${ds.xmlId}/sslkeys`);
        expect({ status: res.status, body: res.body as unknown }).toEqual({
          status: 200,
          body: { response: empty },
        });
      }
      expectError(
        await admin.at('5.0').get(`deliveryservices/xmlId/${ds.xmlId}/sslkeys`),
        404,
        `no ssl keys for XML ID ${ds.xmlId}`,
      );
      await addKeys(ds);
      expectError(
        await admin.at('5.0').get(`deliveryservices/xmlId/${ds.xmlId}/sslkeys?version=2`),
        404,
        `no ssl keys for XML ID ${ds.xmlId}`,
      );
    });

    it('refuses an unknown delivery service (400) and one outside the tenancy (403)', async () => {
      expectError(
        await admin.get('deliveryservices/xmlId/no-such-ds/sslkeys'),
        400,
        "no such deliveryservice: 'no-such-ds'",
      );
      const ds = await newDs();
      await addKeys(ds);
      expectError(
        await otherTenantAdmin.client.get(`deliveryservices/xmlId/${ds.xmlId}/sslkeys`),
        403,
        'Forbidden',
      );
      const res = await otherTenantAdmin.client.post('deliveryservices/sslkeys/add', addBody(ds));
      expectError(res, 403, 'Forbidden');
      expectError(
        await otherTenantAdmin.client.delete(`deliveryservices/xmlId/${ds.xmlId}/sslkeys`),
        403,
        'Forbidden',
      );
      expect(await rows(ds.xmlId)).toHaveLength(2);
    });

    it.each<[string, (ds: InsertedDeliveryService) => unknown, string]>([
      [
        'missing fields',
        () => ({}),
        'parsing request: validating: missing fields: cdn required; version required; key required; deliveryservice required; hostname required; certificate required',
      ],
      [
        'different key and deliveryservice',
        (ds) => ({ ...addBody(ds), key: 'another' }),
        'parsing request: validating: missing fields: deliveryservice and key must match',
      ],
      [
        'empty certificate parts',
        (ds) => ({ ...addBody(ds), certificate: { crt: '', key: '' } }),
        'parsing request: validating: missing fields: certificate.key required; certificate.crt required; certificate.csr required',
      ],
      [
        'a number for the cdn',
        (ds) => ({ ...addBody(ds), cdn: 7 }),
        'parsing request: decoding: json: cannot unmarshal number into Go struct field DeliveryServiceAddSSLKeysReq.cdn of type string',
      ],
      [
        'a certificate that is a string',
        (ds) => ({ ...addBody(ds), certificate: 'x' }),
        'parsing request: decoding: json: cannot unmarshal string into Go struct field DeliveryServiceAddSSLKeysReq.certificate of type tc.DeliveryServiceSSLKeysCertificate',
      ],
      [
        'a version that is no integer',
        (ds) => ({ ...addBody(ds), version: 'two' }),
        'parsing request: decoding: not an integer',
      ],
      [
        'a version beyond the column',
        (ds) => ({ ...addBody(ds), version: 2 ** 31 }),
        'parsing request: decoding: not an integer',
      ],
      [
        'an array',
        () => [],
        'parsing request: decoding: json: cannot unmarshal array into Go value of type tc.DeliveryServiceAddSSLKeysReq',
      ],
      [
        'an unknown delivery service',
        (ds) => ({ ...addBody(ds), key: 'no-such-ds', deliveryservice: 'no-such-ds' }),
        "no such deliveryservice: 'no-such-ds'",
      ],
      [
        'no certificate at all',
        (ds) => ({ ...addBody(ds), certificate: { crt: 'not a certificate', key: RSA_KEY, csr: RSA_CSR } }),
        'verifying certificate: no certificate chain to verify',
      ],
      [
        'a certificate that does not decode',
        (ds) => ({
          ...addBody(ds),
          certificate: { crt: 'garbage -----END CERTIFICATE-----', key: RSA_KEY, csr: RSA_CSR },
        }),
        'verifying certificate: could not decode pem-encoded server certificate',
      ],
      [
        'a key of another certificate',
        (ds) => ({ ...addBody(ds), certificate: { crt: RSA_CERTIFICATE, key: OTHER_RSA_KEY, csr: RSA_CSR } }),
        'verifying certificate: cert/key (rsa) mismatch error: RSA public N modulus value mismatch',
      ],
      [
        'no private key',
        (ds) => ({ ...addBody(ds), certificate: { crt: RSA_CERTIFICATE, key: 'secret', csr: RSA_CSR } }),
        'verifying certificate: private key validation error: no RSA private key PEM blocks found',
      ],
      [
        'two private keys',
        (ds) => ({
          ...addBody(ds),
          certificate: { crt: RSA_CERTIFICATE, key: RSA_KEY + OTHER_RSA_KEY, csr: RSA_CSR },
        }),
        'verifying certificate: private key validation error: multiple private key PEM blocks found',
      ],
      [
        'an encrypted private key',
        (ds) => ({
          ...addBody(ds),
          certificate: {
            crt: RSA_CERTIFICATE,
            key: RSA_KEY.replace(/PRIVATE KEY/g, 'ENCRYPTED PRIVATE KEY'),
            csr: RSA_CSR,
          },
        }),
        'verifying certificate: private key validation error: encrypted private key not supported - block type: ENCRYPTED PRIVATE KEY',
      ],
      [
        'a certificate without serverAuth',
        (ds) => ({
          ...addBody(ds),
          certificate: { crt: NO_SERVER_AUTH_CERTIFICATE, key: RSA_KEY, csr: RSA_CSR },
        }),
        "verifying certificate: certificate (x509v3) validation error: server certificate missing 'serverAuth' extended key usage",
      ],
      [
        'an RSA certificate without keyEncipherment',
        (ds) => ({
          ...addBody(ds),
          certificate: { crt: NO_KEY_ENCIPHERMENT_CERTIFICATE, key: RSA_KEY, csr: RSA_CSR },
        }),
        'verifying certificate: cert/key (rsa) validation: no keyEncipherment keyUsage extension present in x509v3 server certificate',
      ],
      [
        'an ECDSA certificate for an HTTP delivery service',
        (ds) => ({ ...addBody(ds), certificate: { crt: EC_CERTIFICATE, key: EC_KEY, csr: RSA_CSR } }),
        'verifying certificate: cert/key validation error: ECDSA public key algorithm unsupported for non-DNS delivery service type',
      ],
      [
        'a chain whose links do not match',
        (ds) => ({
          ...addBody(ds),
          certificate: { crt: RSA_CERTIFICATE + EC_CERTIFICATE, key: RSA_KEY, csr: RSA_CSR },
        }),
        'verifying certificate chain: intermediate chain contains certificates that do not match',
      ],
      [
        'an expired certificate',
        (ds) => ({ ...addBody(ds), certificate: { crt: EXPIRED_CERTIFICATE, key: RSA_KEY, csr: RSA_CSR } }),
        'EXPIRED',
      ],
    ])('POST deliveryservices/sslkeys/add refuses %s and writes nothing', async (_name, body, text) => {
      const ds = await newDs();
      const res = await admin.post('deliveryservices/sslkeys/add', body(ds));
      if (text === 'EXPIRED') {
        expect({ status: res.status, body: res.body as unknown }).toEqual({
          status: 400,
          body: {
            alerts: [
              {
                text: expect.stringMatching(
                  /^verifying certificate: could not verify the certificate chain: x509: certificate has expired or is not yet valid: current time \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ is after 2020-02-01T00:00:00Z$/,
                ),
                level: 'error',
              },
            ],
          },
        });
      } else {
        expectError(res, 400, text);
      }
      expect(await rows(ds.xmlId)).toEqual([]);
    });

    it('POST deliveryservices/sslkeys/add refuses keys too large to store (D65)', async () => {
      const ds = await newDs();
      const res = await admin.post(
        'deliveryservices/sslkeys/add',
        addBody(ds, {
          certificate: { crt: RSA_CERTIFICATE, key: RSA_KEY, csr: 'x'.repeat(60_000) },
        }),
      );
      expectError(res, 400, 'the keys are too large to store');
      expect(await rows(ds.xmlId)).toEqual([]);
    });

    it('POST deliveryservices/sslkeys/add refuses malformed JSON', async () => {
      expectMalformedJson(await admin.raw('post', 'deliveryservices/sslkeys/add', '{"cdn":'));
    });

    it('accepts an ECDSA certificate for a DNS delivery service; key/deliveryservice alone name it', async () => {
      const ds = await newDs({ typeName: 'DNS' });
      const res = await admin.post('deliveryservices/sslkeys/add', {
        cdn: cdn.name,
        key: ds.xmlId,
        version: '2',
        hostname: 'dns.keys-ds.example',
        authType: 'Lets Encrypt',
        certificate: { crt: EC_CERTIFICATE, key: EC_KEY },
      });
      expect(res.status).toBe(200);
      const keys = responseOf<DeliveryServiceSslKeysV4>(
        await admin.get(`deliveryservices/xmlId/${ds.xmlId}/sslkeys?decode=1`),
      );
      expect(keys).toEqual({
        authType: 'Lets Encrypt',
        cdn: cdn.name,
        deliveryservice: ds.xmlId,
        hostname: 'dns.keys-ds.example',
        key: ds.xmlId,
        version: 2,
        certificate: { crt: EC_CERTIFICATE, key: EC_KEY.trim(), csr: '' },
        expiration: goTime(new X509Certificate(EC_CERTIFICATE).validTo),
      });
    });

    it('DELETE deliveryservices/xmlId/{xmlId}/sslkeys deletes the latest (or the given) version', async () => {
      const ds = await newDs();
      await addKeys(ds, { version: 4 });
      const res = await admin.delete(`deliveryservices/xmlId/${ds.xmlId}/sslkeys?version=4`);
      expectApiHeaders(res);
      expect({ status: res.status, body: res.body as unknown }).toEqual({
        status: 200,
        body: { response: `Successfully deleted ssl keys for ${ds.xmlId}` },
      });
      expect((await rows(ds.xmlId)).map((r) => r.version)).toEqual(['latest']);
      expect((await admin.delete(`deliveryservices/xmlId/${ds.xmlId}/sslkeys`)).status).toBe(200);
      expect(await rows(ds.xmlId)).toEqual([]);
      expectError(
        await admin.delete('deliveryservices/xmlId/no-such-ds/sslkeys'),
        404,
        'no DS with name no-such-ds',
      );
    });

    it('DELETE answers 412 when the keys changed after If-Unmodified-Since (URI signing keys too)', async () => {
      const ds = await newDs();
      await addKeys(ds);
      await admin.post(`deliveryservices/${ds.xmlId}/urisignkeys`, URI_KEYS);
      const past = new Date(Date.now() - 3_600_000).toUTCString();
      const modified = 'resource was modified since the time specified by the request headers';
      expectError(
        await admin.delete(`deliveryservices/xmlId/${ds.xmlId}/sslkeys`).set('If-Unmodified-Since', past),
        412,
        modified,
      );
      expectError(
        await admin.delete(`deliveryservices/${ds.xmlId}/urisignkeys`).set('If-Unmodified-Since', past),
        412,
        modified,
      );
      expectError(
        await admin
          .put(`deliveryservices/${ds.xmlId}/urisignkeys`, URI_KEYS)
          .set('If-Unmodified-Since', past),
        412,
        modified,
      );
      expect(await rows(ds.xmlId)).toHaveLength(3);
    });

    it('GET cdns/name/{name}/sslkeys lists the latest certificate of each delivery service of the CDN', async () => {
      const own = await createCdn(admin);
      const first = await insertDeliveryService(app, own.id);
      const second = await insertDeliveryService(app, own.id);
      for (const ds of [first, second]) {
        const res = await admin.post('deliveryservices/sslkeys/add', { ...addBody(ds), cdn: own.name });
        expect(res.status).toBe(200);
      }
      const res = await admin.get(`cdns/name/${own.name}/sslkeys`);
      expectApiHeaders(res);
      const expected: CdnSslKey[] = [first, second]
        .sort((a, b) => (a.xmlId < b.xmlId ? -1 : 1))
        .map((ds) => ({
          deliveryservice: ds.xmlId,
          hostname: HOSTNAME,
          certificate: { crt: base64(RSA_CERTIFICATE), key: base64(RSA_KEY.trim()) },
        }));
      expect({ status: res.status, body: res.body as unknown }).toEqual({
        status: 200,
        body: { response: expected },
      });
      expect(res.body).toEqual((await admin.at('3.0').get(`cdns/name/${own.name}/sslkeys`)).body);
      const none = await admin.get('cdns/name/no-such-cdn/sslkeys');
      expect({ status: none.status, body: none.body as unknown }).toEqual({
        status: 200,
        body: { response: null },
      });
    });
  });

  describe('GET sslkey_expirations (4.0+)', () => {
    it('lists the latest certificates of delivery services that are not inactive, by days', async () => {
      const active = await newDs();
      const inactive = await newDs({ active: 'INACTIVE' });
      await addKeys(active, { authType: 'Self Signed' });
      await addKeys(inactive);
      const res = await admin.get('sslkey_expirations');
      expectApiHeaders(res);
      expect(res.status).toBe(200);
      const list = responseOf<SslKeyExpiration[]>(res);
      expect(list.find((e) => e.deliveryservice === active.xmlId)).toEqual({
        deliveryservice: active.xmlId,
        cdn: cdn.name,
        provider: 'Self Signed',
        expiration: goTime(RSA_EXPIRATION),
        federated: false,
      });
      expect(list.find((e) => e.deliveryservice === inactive.xmlId)).toBeUndefined();
      const soon = responseOf<SslKeyExpiration[]>(await admin.at('5.0').get('sslkey_expirations?days=30'));
      expect(soon.find((e) => e.deliveryservice === active.xmlId)).toBeUndefined();
      const later = responseOf<SslKeyExpiration[]>(await admin.get('sslkey_expirations?days=40000'));
      expect(later.find((e) => e.deliveryservice === active.xmlId)).toBeDefined();
    });

    it('says which delivery services are federated', async () => {
      const ds = await newDs();
      await addKeys(ds);
      const federation = await createFederation(admin, cdn.name);
      await assignFederationDeliveryServices(admin, federation.id, [ds.id]);
      const list = responseOf<SslKeyExpiration[]>(await admin.get('sslkey_expirations'));
      expect(list.find((e) => e.deliveryservice === ds.xmlId)).toMatchObject({ federated: true });
    });

    it('refuses a days that is no integer; does not exist before 4.0', async () => {
      await expectErrors([
        [
          admin.get('sslkey_expirations?days=soon'),
          400,
          "getting integer parameters: parameter 'days' not an integer",
        ],
        [
          admin.at('3.1').get('sslkey_expirations'),
          404,
          "The requested path '/api/3.1/sslkey_expirations' does not exist.",
        ],
      ]);
    });
  });

  describe('URL signing keys', () => {
    it('a delivery service without keys answers an empty object and an alert', async () => {
      const ds = await newDs();
      for (const path of [
        `deliveryservices/xmlId/${ds.xmlId}/urlkeys`,
        `deliveryservices/${ds.id}/urlkeys`,
      ]) {
        const res = await admin.get(path);
        expectApiHeaders(res);
        expect({ status: res.status, body: res.body as unknown }).toEqual({
          status: 200,
          body: { alerts: [{ text: 'No url sig keys found', level: 'success' }], response: {} },
        });
      }
    });

    it('generate makes 16 random keys, readable by xmlId and id (also by read-only users), and copyFromXmlId copies them', async () => {
      const ds = await newDs();
      const res = await admin.post(`deliveryservices/xmlId/${ds.xmlId}/urlkeys/generate`);
      expectApiHeaders(res);
      expect({ status: res.status, body: res.body as unknown }).toEqual({
        status: 200,
        body: { alerts: [{ text: 'Successfully generated and stored keys', level: 'success' }] },
      });
      const keys = responseOf<Record<string, string>>(
        await admin.get(`deliveryservices/xmlId/${ds.xmlId}/urlkeys`),
      );
      expect(Object.keys(keys).sort()).toEqual(Array.from({ length: 16 }, (_, i) => `key${i}`).sort());
      for (const value of Object.values(keys)) {
        expect(value).toMatch(/^[A-Za-z0-9_]{32}$/);
      }
      expect(new Set(Object.values(keys)).size).toBe(16);
      expect(responseOf(await readOnly.client.get(`deliveryservices/${ds.id}/urlkeys`))).toEqual(keys);
      const [row] = await rows(ds.xmlId);
      expect(row.kind).toBe('url_sig');
      for (const value of Object.values(keys)) {
        expect(row.ciphertext).not.toContain(value);
        expect(Buffer.from(row.ciphertext, 'base64').toString('latin1')).not.toContain(value);
      }

      const regenerated = await admin.post(`deliveryservices/xmlId/${ds.xmlId}/urlkeys/generate`);
      expect(regenerated.status).toBe(200);
      expect(responseOf(await admin.get(`deliveryservices/${ds.id}/urlkeys`))).not.toEqual(keys);

      const copy = await newDs();
      const copied = await admin.post(
        `deliveryservices/xmlId/${copy.xmlId}/urlkeys/copyFromXmlId/${ds.xmlId}`,
      );
      expect({ status: copied.status, body: copied.body as unknown }).toEqual({
        status: 200,
        body: { alerts: [{ text: 'Successfully copied and stored keys', level: 'success' }] },
      });
      expect(responseOf(await admin.get(`deliveryservices/xmlId/${copy.xmlId}/urlkeys`))).toEqual(
        responseOf(await admin.get(`deliveryservices/xmlId/${ds.xmlId}/urlkeys`)),
      );
    });

    it('refuses unknown delivery services, bad ids, a source without keys and delivery services out of reach', async () => {
      const ds = await newDs();
      const bare = await newDs();
      const tenant = await createTenant(admin);
      const hidden = await newDs({ tenantId: tenant.id });
      await expectErrors([
        [
          admin.get('deliveryservices/xmlId/no-such-ds/urlkeys'),
          404,
          'delivery service no-such-ds not found',
        ],
        [admin.get('deliveryservices/2147483000/urlkeys'), 404, 'delivery service 2147483000 not found'],
        [
          admin.get('deliveryservices/one/urlkeys'),
          400,
          "getting integer parameters: parameter 'id' not an integer",
        ],
        [
          admin.post('deliveryservices/xmlId/no-such-ds/urlkeys/generate'),
          404,
          'delivery service no-such-ds not found',
        ],
      ]);
      expectError(
        await admin.post(`deliveryservices/xmlId/${ds.xmlId}/urlkeys/copyFromXmlId/no-such-ds`),
        404,
        `delivery service ${ds.xmlId} not found`,
      );
      expectError(
        await admin.post(`deliveryservices/xmlId/${ds.xmlId}/urlkeys/copyFromXmlId/${bare.xmlId}`),
        400,
        `Unable to retrieve keys from Delivery Service '${bare.xmlId}'`,
      );
      expect(await rows(ds.xmlId)).toEqual([]);
      await admin.post(`deliveryservices/xmlId/${hidden.xmlId}/urlkeys/generate`);
      const outsider = otherTenantAdmin.client;
      await expectErrors([
        [outsider.get(`deliveryservices/${hidden.id}/urlkeys`), 403, 'not authorized on this tenant'],
        [outsider.get(`deliveryservices/xmlId/${ds.xmlId}/urlkeys`), 403, 'not authorized on this tenant'],
        [
          outsider.post(`deliveryservices/xmlId/${ds.xmlId}/urlkeys/generate`),
          403,
          'not authorized on this tenant',
        ],
      ]);
      const inOtherTenant = await newDs({ tenantId: otherTenant.id });
      expectError(
        await outsider.post(
          `deliveryservices/xmlId/${inOtherTenant.xmlId}/urlkeys/copyFromXmlId/${ds.xmlId}`,
        ),
        403,
        'not authorized on this copy tenant',
      );
      expect(await rows(inOtherTenant.xmlId)).toEqual([]);
    });
  });

  describe('URI signing keys', () => {
    it('GET answers the explicit nulls without an envelope when there are none', async () => {
      const ds = await newDs();
      const res = await admin.get(`deliveryservices/${ds.xmlId}/urisignkeys`);
      expectApiHeaders(res);
      expect({ status: res.status, body: res.body as unknown }).toEqual({
        status: 200,
        body: { renewal_kid: null, keys: null },
      });
    });

    it('POST and PUT store the key set as sent and answer it; DELETE removes it', async () => {
      const ds = await newDs();
      const res = await admin.post(`deliveryservices/${ds.xmlId}/urisignkeys`, URI_KEYS);
      expectApiHeaders(res);
      expect({ status: res.status, body: res.body as unknown }).toEqual({ status: 200, body: URI_KEYS });
      expect((await admin.get(`deliveryservices/${ds.xmlId}/urisignkeys`)).body).toEqual(URI_KEYS);
      const [row] = await rows(ds.xmlId);
      expect(row.kind).toBe('uri_signing');
      expect(row.ciphertext).not.toContain('uri_signing_secret');
      expect(Buffer.from(row.ciphertext, 'base64').toString('latin1')).not.toContain('uri_signing_secret');

      const replaced = {
        'https://other.example': { ...URI_KEYS['https://issuer.example'], renewal_kid: 'first' },
      };
      const put = await admin.put(`deliveryservices/${ds.xmlId}/urisignkeys`, replaced);
      expect({ status: put.status, body: put.body as unknown }).toEqual({ status: 200, body: replaced });
      expect((await admin.get(`deliveryservices/${ds.xmlId}/urisignkeys`)).body).toEqual(replaced);

      const deleted = await admin.delete(`deliveryservices/${ds.xmlId}/urisignkeys`);
      expectApiHeaders(deleted);
      expectSuccessAlert(deleted, 'object deleted');
      expect(deleted.body).toEqual({ alerts: [{ text: 'object deleted', level: 'success' }] });
      const again = await admin.delete(`deliveryservices/${ds.xmlId}/urisignkeys`);
      expect({ status: again.status, body: again.body as unknown }).toEqual({
        status: 200,
        body: { alerts: [{ text: 'not deleted, no object found to delete', level: 'info' }] },
      });
      expect(await rows(ds.xmlId)).toEqual([]);
    });

    const set = (keys: unknown[], renewalKid?: string) => ({
      'https://issuer.example': { ...(renewalKid ? { renewal_kid: renewalKid } : {}), keys },
    });
    const key = (kid?: string, alg?: string) => ({
      kty: 'oct',
      k: 'c2VjcmV0',
      ...(kid ? { kid } : {}),
      ...(alg ? { alg } : {}),
    });
    it.each<[string, unknown, string]>([
      ['an array', [], 'malformed JSON'],
      ['a key set that is a string', { issuer: 'secret' }, 'malformed JSON'],
      ['a key without kty', set([{ kid: 'a', alg: 'HS256' }], 'a'), 'malformed JSON'],
      [
        'an empty issuer',
        { '': set([key('a', 'HS256')], 'a')['https://issuer.example'] },
        'invalid keyset: JSON Keyset has no issuer',
      ],
      ['a key without alg', set([key('a')], 'a'), 'invalid keyset: A Key has no algorithm, alg, specified'],
      [
        'a key without kid',
        set([key(undefined, 'HS256')], 'a'),
        'invalid keyset: A Key has no key id, kid, specified',
      ],
      ['no renewal_kid', set([key('a', 'HS256')]), 'invalid keyset: No renewal_kid was found in any keyset'],
      [
        'two renewal_kids',
        {
          'https://one.example': set([key('a', 'HS256')], 'a')['https://issuer.example'],
          'https://two.example': set([key('b', 'HS256')], 'b')['https://issuer.example'],
        },
        'invalid keyset: More than one renewal_kid was found in the keysets',
      ],
      [
        'a renewal_kid no key has',
        set([key('a', 'HS256')], 'b'),
        'invalid keyset: No key was found with a kid that matches the renewal kid',
      ],
    ])('refuses %s and writes nothing', async (_name, body, text) => {
      const ds = await newDs();
      expectError(await admin.post(`deliveryservices/${ds.xmlId}/urisignkeys`, body), 400, text);
      expectError(await admin.put(`deliveryservices/${ds.xmlId}/urisignkeys`, body), 400, text);
      expect(await rows(ds.xmlId)).toEqual([]);
    });

    it('refuses unknown delivery services (400) and ones out of reach (403)', async () => {
      await expectErrors([
        [admin.get('deliveryservices/no-such-ds/urisignkeys'), 400, "no such deliveryservice: 'no-such-ds'"],
        [
          admin.post('deliveryservices/no-such-ds/urisignkeys', URI_KEYS),
          400,
          "no such deliveryservice: 'no-such-ds'",
        ],
        [
          admin.delete('deliveryservices/no-such-ds/urisignkeys'),
          400,
          "no such deliveryservice: 'no-such-ds'",
        ],
      ]);
      const ds = await newDs();
      await expectErrors([
        [otherTenantAdmin.client.get(`deliveryservices/${ds.xmlId}/urisignkeys`), 403, 'Forbidden'],
        [
          otherTenantAdmin.client.post(`deliveryservices/${ds.xmlId}/urisignkeys`, URI_KEYS),
          403,
          'Forbidden',
        ],
      ]);
      expect(await rows(ds.xmlId)).toEqual([]);
    });
  });

  it('no key reaches the change log or the logs', async () => {
    const ds = await newDs();
    await addKeys(ds);
    await admin.post(`deliveryservices/xmlId/${ds.xmlId}/urlkeys/generate`);
    const urlKeys = Object.values(
      responseOf<Record<string, string>>(await admin.get(`deliveryservices/xmlId/${ds.xmlId}/urlkeys`)),
    );
    await admin.post(`deliveryservices/${ds.xmlId}/urisignkeys`, URI_KEYS);
    await admin.get(`deliveryservices/xmlId/${ds.xmlId}/sslkeys?decode=true`);
    const messages = (await dataSource.query<{ message: string }[]>('SELECT message FROM log')).map(
      (r) => r.message,
    );
    expect(messages).toEqual(
      expect.arrayContaining([
        `POST /deliveryservices/sslkeys/add: Added ssl keys for ${ds.xmlId}`,
        `POST /deliveryservices/xmlId/${ds.xmlId}/urlkeys/generate: Successfully generated and stored keys`,
        `POST /deliveryservices/${ds.xmlId}/urisignkeys`,
      ]),
    );
    const secrets = [
      RSA_KEY.split('\n')[1],
      base64(RSA_KEY.trim()).slice(0, 40),
      'PRIVATE KEY',
      'uri_signing_secret',
      ...urlKeys,
    ];
    const logs = logLines.join('');
    expect(logs).toContain(`/api/4.0/deliveryservices/xmlId/${ds.xmlId}/sslkeys`);
    for (const secret of secrets) {
      expect(messages.join('\n')).not.toContain(secret);
      expect(logs).not.toContain(secret);
    }
  });

  describe('without KEY_STORE_KEY (docs/decisions.md#d65)', () => {
    const { admin: client } = useApp({ env: { KEY_STORE_KEY: undefined } });
    let ds: InsertedDeliveryService;

    beforeAll(async () => {
      ds = await newDs();
    });

    it('the SSL and URL signing routes answer 500 as the original without a Traffic Vault', async () => {
      const requests = [
        client.get(`deliveryservices/xmlId/${ds.xmlId}/sslkeys`),
        client.post('deliveryservices/sslkeys/add', addBody(ds)),
        client.delete(`deliveryservices/xmlId/${ds.xmlId}/sslkeys`),
        client.get(`cdns/name/${cdn.name}/sslkeys`),
        client.get('sslkey_expirations'),
        client.get(`deliveryservices/xmlId/${ds.xmlId}/urlkeys`),
        client.get(`deliveryservices/${ds.id}/urlkeys`),
        client.post(`deliveryservices/xmlId/${ds.xmlId}/urlkeys/generate`),
        client.post(`deliveryservices/xmlId/${ds.xmlId}/urlkeys/copyFromXmlId/${ds.xmlId}`),
      ];
      for (const res of await Promise.all(requests)) {
        expectError(res, 500, 'Internal Server Error');
      }
      expect(await rows(ds.xmlId)).toEqual([]);
    });

    it('the URI signing routes answer 503 with the original texts', async () => {
      await expectErrors([
        [
          client.get(`deliveryservices/${ds.xmlId}/urisignkeys`),
          503,
          'the Traffic Vault service is unavailable',
        ],
        [
          client.post(`deliveryservices/${ds.xmlId}/urisignkeys`, URI_KEYS),
          503,
          'the Traffic Vault service is unavailable',
        ],
        [
          client.delete(`deliveryservices/${ds.xmlId}/urisignkeys`),
          503,
          'rhe Traffic Vault service is unavailable',
        ],
      ]);
    });
  });
});
