import type { INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test as NestTest } from '@nestjs/testing';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request, { type Response, type Test } from 'supertest';
import type { App } from 'supertest/types';
import { AppModule } from 'src/app.module';
import { configureApp } from 'src/app.setup';
import { ApiClient, responseOf, sessionCookieOf, uniqueName } from 'test/e2e/support/api';
import { expectError } from 'test/e2e/support/alerts';
import { ADMIN_PASSWORD } from 'test/e2e/support/constants';
import { useApp } from 'test/e2e/support/suite';

const REFUSED =
  'cross-site request refused: this service accepts writes from browsers only from its own origin ' +
  'and the origins in ALLOWED_ORIGINS';
const JSON_REQUIRED =
  'a write sent by a browser from another origin must have the Content-Type application/json';
const HOST = 'cdn.example.net';
const OWN = `http://${HOST}`;
const EVIL = 'https://evil.example.org';
const PORTAL = 'https://portal.example.net';

const setCookies = (res: Response): string[] => ([] as string[]).concat(res.headers['set-cookie'] ?? []);

/**
 * Cross-site writes (decision D19): the cookie is SameSite=Lax (Secure over HTTPS), and a write a
 * browser sends from another site — a form or text/plain POST carrying the admin's cookie, or a
 * sign-in (login CSRF) — is refused before its body is read, and writes nothing. Clients without
 * Origin (curl, the Go and Python clients) and Traffic Portal's same-origin proxy are unaffected.
 */
describe('cross-site writes', () => {
  describe('by default (no ALLOWED_ORIGINS)', () => {
    const { app, admin: signedIn } = useApp();
    let server: App;
    /** The admin's session; a test that ends it signs in again. */
    let admin: ApiClient;

    beforeAll(() => {
      server = app.getHttpServer() as App;
      admin = signedIn;
    });

    /** A POST /cdns as a browser would send it with the admin's cookie: Host is this service. */
    const browserPost = (headers: Record<string, string>, body: string, path = 'cdns'): Test => {
      const req = request(server).post(`/api/4.0/${path}`).set('Host', HOST).set('Cookie', admin.cookie!);
      for (const [name, value] of Object.entries(headers)) {
        req.set(name, value);
      }
      return req.send(body);
    };
    const newCdn = () => {
      const name = uniqueName('csrf-cdn');
      return { name, json: JSON.stringify({ name, domainName: `${name}.example.net` }) };
    };
    const cdnsNamed = async (name: string) => responseOf<unknown[]>(await admin.get(`cdns?name=${name}`));

    it.each([
      ['text/plain', 'text/plain'],
      ['an urlencoded form', 'application/x-www-form-urlencoded'],
      ['a multipart form', 'multipart/form-data; boundary=x'],
    ])(
      'refuses a cross-site %s POST (Sec-Fetch-Site: cross-site) with 403, writing nothing',
      async (_c, type) => {
        const cdn = newCdn();
        const res = await browserPost(
          { Origin: EVIL, 'Sec-Fetch-Site': 'cross-site', 'Content-Type': type },
          cdn.json,
        );
        expectError(res, 403, REFUSED);
        expect(await cdnsNamed(cdn.name)).toEqual([]);
      },
    );

    it.each([
      ['text/plain', 'text/plain;charset=UTF-8'],
      ['an urlencoded form', 'application/x-www-form-urlencoded'],
    ])(
      'refuses a %s POST from another origin by a browser without Sec-Fetch-Site with 415',
      async (_c, type) => {
        const cdn = newCdn();
        const res = await browserPost({ Origin: EVIL, 'Content-Type': type }, cdn.json);
        expectError(res, 415, JSON_REQUIRED);
        expect(await cdnsNamed(cdn.name)).toEqual([]);
      },
    );

    it('refuses a write from another origin of the same site (Sec-Fetch-Site: same-site), even as JSON', async () => {
      const cdn = newCdn();
      const res = await browserPost(
        {
          Origin: `https://other.${HOST}`,
          'Sec-Fetch-Site': 'same-site',
          'Content-Type': 'application/json',
        },
        cdn.json,
      );
      expectError(res, 403, REFUSED);
      expect(await cdnsNamed(cdn.name)).toEqual([]);
    });

    it('refuses PUT and DELETE from another site too, and never renews the session of a refused write', async () => {
      const cdn = newCdn();
      expect((await admin.post('cdns', JSON.parse(cdn.json))).status).toBe(200);
      const [{ id }] = responseOf<{ id: number }[]>(await admin.get(`cdns?name=${cdn.name}`));
      for (const method of ['put', 'delete'] as const) {
        const res = await request(server)
          [method](`/api/4.0/cdns/${id}`)
          .set('Host', HOST)
          .set('Cookie', admin.cookie!)
          .set('Origin', EVIL)
          .set('Sec-Fetch-Site', 'cross-site')
          .set('Content-Type', 'text/plain')
          .send(JSON.stringify({ name: `${cdn.name}-x`, domainName: 'x.example.net' }));
        expectError(res, 403, REFUSED);
        expect(res.headers['set-cookie']).toBeUndefined();
      }
      expect(await cdnsNamed(cdn.name)).toHaveLength(1);
    });

    it('refuses a cross-site sign-in (login CSRF): no session cookie is set', async () => {
      const body = JSON.stringify({ u: 'admin', p: ADMIN_PASSWORD });
      for (const [headers, status, text] of [
        [{ Origin: EVIL, 'Sec-Fetch-Site': 'cross-site', 'Content-Type': 'text/plain' }, 403, REFUSED],
        [{ Origin: EVIL, 'Content-Type': 'application/x-www-form-urlencoded' }, 415, JSON_REQUIRED],
      ] as const) {
        const res = await request(server)
          .post('/api/4.0/user/login')
          .set('Host', HOST)
          .set(headers)
          .send(body);
        expectError(res, status, text);
        expect(setCookies(res)).toEqual([]);
      }
    });

    it('accepts a write from the service’s own origin, whatever its Content-Type', async () => {
      const cdn = newCdn();
      const res = await browserPost(
        { Origin: OWN, 'Sec-Fetch-Site': 'same-origin', 'Content-Type': 'text/plain' },
        cdn.json,
      );
      expect(res.status).toBe(200);
      expect(await cdnsNamed(cdn.name)).toHaveLength(1);
      const login = await request(server)
        .post('/api/4.0/user/login')
        .set('Host', HOST)
        .set('Origin', OWN)
        .set('Content-Type', 'application/x-www-form-urlencoded')
        .send(JSON.stringify({ u: 'admin', p: ADMIN_PASSWORD }));
      expect(login.status).toBe(200);
    });

    it('accepts what Traffic Portal’s proxy passes on: its own Origin, Sec-Fetch-Site: same-origin', async () => {
      const cdn = newCdn();
      const res = await browserPost(
        { Origin: PORTAL, 'Sec-Fetch-Site': 'same-origin', 'Content-Type': 'application/json;charset=UTF-8' },
        cdn.json,
      );
      expect(res.status).toBe(200);
      expect(await cdnsNamed(cdn.name)).toHaveLength(1);
      // Its sign-out has no body and no Content-Type.
      const session = await ApiClient.admin(app);
      const logout = await request(server)
        .post('/api/4.0/user/logout')
        .set('Host', HOST)
        .set('Cookie', session.cookie!)
        .set('Origin', PORTAL)
        .set('Sec-Fetch-Site', 'same-origin');
      expect(logout.status).toBe(200);
      admin = await ApiClient.admin(app);
    });

    it('accepts JSON from another origin by a browser without Sec-Fetch-Site (it needed a CORS preflight)', async () => {
      const cdn = newCdn();
      const res = await browserPost({ Origin: PORTAL, 'Content-Type': 'application/json' }, cdn.json);
      expect(res.status).toBe(200);
      expect(await cdnsNamed(cdn.name)).toHaveLength(1);
    });

    it('accepts writes without Origin (curl, the Go and Python clients), as the README’s curl examples send them', async () => {
      // `curl -d` sends application/x-www-form-urlencoded.
      const login = await request(server)
        .post('/api/4.0/user/login')
        .set('Content-Type', 'application/x-www-form-urlencoded')
        .send(JSON.stringify({ u: 'admin', p: ADMIN_PASSWORD }));
      expect(login.status).toBe(200);
      const cdn = newCdn();
      const res = await request(server)
        .post('/api/4.0/cdns')
        .set('Cookie', sessionCookieOf(login))
        .set('Content-Type', 'text/plain')
        .send(cdn.json);
      expect(res.status).toBe(200);
    });

    it('leaves reads from other sites alone', async () => {
      const res = await request(server)
        .get('/api/4.0/cdns')
        .set('Cookie', admin.cookie!)
        .set('Origin', EVIL)
        .set('Sec-Fetch-Site', 'cross-site');
      expect(res.status).toBe(200);
    });

    it('ignores X-Forwarded-Proto without TRUST_PROXY: the cookie is not Secure, https://host is another origin', async () => {
      const login = await request(server)
        .post('/api/4.0/user/login')
        .set('Host', HOST)
        .set('X-Forwarded-Proto', 'https')
        .send({ u: 'admin', p: ADMIN_PASSWORD });
      expect(setCookies(login)[0]).not.toMatch(/Secure/);
      const res = await browserPost(
        {
          Origin: `https://${HOST}`,
          'X-Forwarded-Proto': 'https',
          'Sec-Fetch-Site': 'cross-site',
          'Content-Type': 'text/plain',
        },
        newCdn().json,
      );
      expectError(res, 403, REFUSED);
    });
  });

  describe('with ALLOWED_ORIGINS', () => {
    const { app, admin } = useApp({ env: { ALLOWED_ORIGINS: `${PORTAL}, http://localhost:8080` } });
    let server: App;

    beforeAll(() => {
      server = app.getHttpServer() as App;
    });

    const post = (origin: string, headers: Record<string, string> = {}) => {
      const name = uniqueName('origin-cdn');
      return request(server)
        .post('/api/4.0/cdns')
        .set('Host', HOST)
        .set('Cookie', admin.cookie!)
        .set('Origin', origin)
        .set({ 'Content-Type': 'application/json', ...headers })
        .send(JSON.stringify({ name, domainName: `${name}.example.net` }));
    };

    it('accepts writes from the listed origins and its own', async () => {
      expect(
        (await post(PORTAL, { 'Sec-Fetch-Site': 'cross-site', 'Content-Type': 'text/plain' })).status,
      ).toBe(200);
      expect((await post('http://localhost:8080')).status).toBe(200);
      expect((await post(OWN, { 'Content-Type': 'text/plain' })).status).toBe(200);
    });

    it('refuses every other origin with 403, JSON and Sec-Fetch-Site: same-origin included', async () => {
      expectError(await post(EVIL), 403, REFUSED);
      expectError(
        await post('https://portal.example.net:8443', { 'Sec-Fetch-Site': 'same-origin' }),
        403,
        REFUSED,
      );
      expectError(await post('null'), 403, REFUSED);
    });

    it('still accepts writes without Origin', async () => {
      const name = uniqueName('origin-cdn');
      const res = await admin.post('cdns', { name, domainName: `${name}.example.net` });
      expect(res.status).toBe(200);
    });
  });

  describe('behind a TLS-terminating proxy (TRUST_PROXY)', () => {
    const { app, admin } = useApp({ env: { TRUST_PROXY: 'true' } });
    let server: App;

    beforeAll(() => {
      server = app.getHttpServer() as App;
    });

    it('marks the cookie Secure when the request came over https, and not otherwise', async () => {
      const login = (proto: string) =>
        request(server)
          .post('/api/4.0/user/login')
          .set('X-Forwarded-Proto', proto)
          .send({ u: 'admin', p: ADMIN_PASSWORD });
      expect(setCookies(await login('https'))[0]).toMatch(/; HttpOnly; Secure; SameSite=Lax$/);
      expect(setCookies(await login('http'))[0]).toMatch(/; HttpOnly; SameSite=Lax$/);
    });

    it('takes the service’s own origin from the forwarded scheme and host', async () => {
      const post = (origin: string) => {
        const name = uniqueName('proxy-cdn');
        return request(server)
          .post('/api/4.0/cdns')
          .set('X-Forwarded-Proto', 'https')
          .set('X-Forwarded-Host', 'cdn.example.com')
          .set('Cookie', admin.cookie!)
          .set('Origin', origin)
          .set('Sec-Fetch-Site', 'same-origin')
          .set('Content-Type', 'text/plain')
          .send(JSON.stringify({ name, domainName: `${name}.example.net` }));
      };
      expect((await post('https://cdn.example.com')).status).toBe(200);
      expectError(
        await request(server)
          .post('/api/4.0/cdns')
          .set('X-Forwarded-Proto', 'https')
          .set('X-Forwarded-Host', 'cdn.example.com')
          .set('Cookie', admin.cookie!)
          .set('Origin', 'http://cdn.example.com')
          .set('Sec-Fetch-Site', 'cross-site')
          .send({}),
        403,
        REFUSED,
      );
    });
  });

  describe('served over TLS (TLS_CERT_FILE, TLS_KEY_FILE)', () => {
    let app: INestApplication;
    let dir: string;

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'cdn-e2e-tls-'));
      const [key, cert] = [join(dir, 'key.pem'), join(dir, 'cert.pem')];
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'rsa:2048',
          '-nodes',
          '-keyout',
          key,
          '-out',
          cert,
          '-days',
          '1',
          '-subj',
          '/CN=localhost',
        ],
        { stdio: 'ignore' },
      );
      // As main.ts does with TLS_CERT_FILE and TLS_KEY_FILE.
      const moduleRef = await NestTest.createTestingModule({ imports: [AppModule] }).compile();
      app = moduleRef.createNestApplication<NestExpressApplication>({
        bodyParser: false,
        logger: ['error', 'fatal'],
        httpsOptions: { key: readFileSync(key), cert: readFileSync(cert) },
      });
      configureApp(app as NestExpressApplication);
      await app.init();
    });

    afterAll(async () => {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('marks the session cookie Secure', async () => {
      const res = await request(app.getHttpServer() as App)
        .post('/api/4.0/user/login')
        .disableTLSCerts()
        .send({ u: 'admin', p: ADMIN_PASSWORD });
      expect(res.status).toBe(200);
      expect(setCookies(res)[0]).toMatch(
        /^mojolicious=[^;]+; Max-Age=3600; Path=\/; Expires=[^;]+; HttpOnly; Secure; SameSite=Lax$/,
      );
    });
  });
});
