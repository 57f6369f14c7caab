import request from 'supertest';
import type { App } from 'supertest/types';
import { expectError, expectMalformedJson } from 'test/e2e/support/alerts';
import { expectApiHeaders, expectOk } from 'test/e2e/support/headers';
import { useApp } from 'test/e2e/support/suite';

const NOT_IMPLEMENTED =
  'The requested api version is not implemented by this server. If you are using a newer client with an ' +
  'older server, you will need to use an older client version or upgrade your server.';
const EMPTY_DIGEST =
  'z4PhNX7vuL3xVChQ1m2AB9Yg5AULVxXcg/SpIdNs6c5H0NE8XYXysP+DGNKHfuwvY7kxvUdBeoGlODJ6+SfaPg==';

describe('API conventions (D1, D5, D9, D17, D18)', () => {
  const { app, admin } = useApp();
  let server: App;

  beforeAll(() => {
    server = app.getHttpServer() as App;
  });

  describe('versions', () => {
    it.each(['3.0', '3.1', '4.0', '4.1', '5.0'])('serves %s', async (version) => {
      expectOk(await admin.at(version).get('cdns'));
    });

    it.each(['4.2', '6.0', '2.0', '1.5'])('answers 501 for the unserved version %s', async (version) => {
      const res = await admin.at(version).get('cdns');
      expectError(res, 501, NOT_IMPLEMENTED);
      expectApiHeaders(res);
    });

    it('answers 404 with the path for an unknown path', async () => {
      const res = await admin.get('no-such-resource');
      expectError(res, 404, "The requested path '/api/4.0/no-such-resource' does not exist.");
      expectApiHeaders(res);
    });

    it('answers 404 for a malformed version', async () => {
      const res = await request(server).get('/api/four/cdns');
      expectError(res, 404, "The requested path '/api/four/cdns' does not exist.");
    });

    it('answers 404 for a method the path does not have', async () => {
      const res = await admin.raw('put', 'cdns', '{}');
      expectError(res, 404, "The requested path '/api/4.0/cdns' does not exist.");
    });

    it('accepts a trailing slash', async () => {
      const res = await admin.get('cdns/');
      expect(res.status).toBe(200);
    });
  });

  describe('headers', () => {
    it('answers an OPTIONS preflight with the CORS headers and an empty body', async () => {
      const res = await request(server).options('/api/4.0/cdns');
      expect(res.status).toBe(200);
      expect(res.text).toBe('');
      expectApiHeaders(res);
      expect(res.headers['whole-content-sha512']).toBe(EMPTY_DIGEST);
    });

    it('puts the headers on a 401 too', async () => {
      const res = await request(server).get('/api/4.0/cdns');
      expectError(res, 401, 'unauthorized, please log in.');
      expectApiHeaders(res);
      expect(res.headers['set-cookie']).toBeUndefined();
    });

    it('re-issues the session cookie for an hour on authenticated responses', async () => {
      const res = await admin.get('cdns');
      const cookie = ([] as string[])
        .concat(res.headers['set-cookie'] ?? [])
        .find((c) => c.startsWith('mojolicious='));
      expect(cookie).toMatch(/; Max-Age=3600; Path=\/; Expires=[^;]+; HttpOnly; SameSite=Lax$/);
    });

    it('echoes X-Request-Id, or gives the response a fresh one', async () => {
      const given = await admin.get('cdns').set('X-Request-Id', 'trace-42');
      expect(given.headers['x-request-id']).toBe('trace-42');
      const fresh = await request(server).get('/api/4.0/nope');
      expect(fresh.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('sends JSON as application/json', async () => {
      const res = await admin.get('cdns');
      expect(res.headers['content-type']).toMatch(/^application\/json(; charset=utf-8)?$/);
    });
  });

  describe('bad input', () => {
    it('answers malformed JSON with a 400 alert', async () => {
      const res = await admin.raw('post', 'cdns', '{"name": ');
      expectMalformedJson(res);
      expectApiHeaders(res);
    });

    it('answers a body that is not an object with a 400 alert', async () => {
      const res = await admin.raw('post', 'cdns', '[1, 2]');
      expectError(res, 400, 'the request body must be a JSON object');
    });

    it('answers an oversized body with 413', async () => {
      const res = await admin.raw('post', 'cdns', JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 10) }));
      expectError(res, 413, 'request body too large');
    });
  });
});
