import { gzipSync } from 'node:zlib';
import request from 'supertest';
import type { App } from 'supertest/types';
import { MAX_DEPTH } from 'src/common/http/strict-json';
import { responseOf, uniqueName } from 'test/e2e/support/api';
import { expectError, expectErrors, expectMalformedJson } from 'test/e2e/support/alerts';
import { expectApiHeaders } from 'test/e2e/support/headers';
import { ADMIN_PASSWORD } from 'test/e2e/support/constants';
import { useApp } from 'test/e2e/support/suite';

/**
 * Request bodies are strict JSON on every route, read before routing and validation: bounded
 * nesting, no duplicate keys, UTF-8 only, no unpaired surrogates or NUL characters. A refused body
 * is a 400 alert and writes nothing.
 */
describe('request bodies: strict JSON and nesting', () => {
  const { app, admin } = useApp();
  let server: App;

  beforeAll(() => {
    server = app.getHttpServer() as App;
  });

  const cdnNames = async (): Promise<string[]> =>
    responseOf<{ name: string }[]>(await admin.get('cdns')).map((c) => c.name);
  const cdnBody = (name = uniqueName('strict')) =>
    `{"name":"${name}","domainName":"${name}.example.net","dnssecEnabled":false`;
  // Buffers go as application/octet-stream: supertest would serialise them as JSON otherwise (the
  // service reads any body as JSON).
  const rawPost = (
    path: string,
    body: string | Buffer,
    contentType = Buffer.isBuffer(body) ? 'application/octet-stream' : 'application/json',
  ) => {
    const req = request(server).post(`/api/4.0/${path}`).set('Content-Type', contentType);
    return (admin.cookie ? req.set('Cookie', admin.cookie) : req).send(body);
  };

  /** Sends a refused body to a write route, then checks the alert and that no CDN appeared. */
  const expectRefused = async (body: string | Buffer, text: string) => {
    const before = await cdnNames();
    const res = await rawPost('cdns', body);
    expectError(res, 400, text);
    expectApiHeaders(res);
    expect(await cdnNames()).toEqual(before);
  };

  const DEEP = `request body nested too deeply: more than ${MAX_DEPTH} levels of arrays and objects`;

  describe('nesting', () => {
    it('refuses 2,000 nested arrays and 5,000 nested objects with a 400, not a stack overflow', async () => {
      await expectRefused(`${cdnBody()},"x":${'['.repeat(2000)}${']'.repeat(2000)}}`, DEEP);
      await expectRefused(`${cdnBody()},"x":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}`, DEEP);
    });

    it('refuses deep bodies on every kind of route: sign-in, PUT, and routes that take arrays', async () => {
      const deep = `[${'['.repeat(3000)}${']'.repeat(3000)}]`;
      expectError(await request(server).post('/api/4.0/user/login').send(`{"u":${deep}}`), 400, DEEP);
      await expectErrors([
        [admin.raw('put', 'cdns/1', `{"name":${deep}}`), 400, DEEP],
        [admin.raw('post', 'profileparameters', deep), 400, DEEP],
        [admin.raw('post', 'federations', deep), 400, DEEP],
      ]);
    });

    it(`reads ${MAX_DEPTH} levels; the routes' own validation then answers`, async () => {
      const nested = `${'['.repeat(MAX_DEPTH - 1)}${']'.repeat(MAX_DEPTH - 1)}`;
      expectError(
        await rawPost('cdns', `${cdnBody('x').replace('"x"', nested)}}`),
        400,
        "'name' must be a string",
      );
      expectError(await rawPost('cdns', `${cdnBody()},"x":[${nested}]}`), 400, DEEP);
    });
  });

  describe('duplicate keys', () => {
    it('refuses a sign-in that names the user twice (the last would win) and signs nobody in', async () => {
      const res = await request(server)
        .post('/api/4.0/user/login')
        .set('Content-Type', 'application/json')
        .send(`{"u":"nobody","p":"x","u":"admin","p":${JSON.stringify(ADMIN_PASSWORD)}}`);
      expectError(res, 400, 'malformed JSON: duplicate key "u"');
      expect(res.headers['set-cookie']).toBeUndefined();
    });

    it('refuses a repeated key in a body or in a nested object, spelled the same or escaped', async () => {
      const name = uniqueName('dup');
      await expectRefused(`${cdnBody(name)},"name":"other-${name}"}`, 'malformed JSON: duplicate key "name"');
      await expectRefused(
        `${cdnBody(name)},"dnssec\\u0045nabled":true}`,
        'malformed JSON: duplicate key "dnssecEnabled"',
      );
      await expectRefused(`${cdnBody(name)},"x":[{"a":1,"a":2}]}`, 'malformed JSON: duplicate key "a"');
    });

    it('accepts the same key in different objects', async () => {
      const name = uniqueName('same-key');
      const res = await rawPost('cdns', `${cdnBody(name)},"x":[{"name":1},{"name":2}]}`);
      expect(res.status).toBe(200);
      expect(await cdnNames()).toContain(name);
    });
  });

  describe('characters', () => {
    it('refuses bytes that are not UTF-8 (they are not replaced with U+FFFD)', async () => {
      const name = uniqueName('utf8');
      const text = `${cdnBody(name)},"x":"\u00ff"}`;
      const latin1 = Buffer.from(text, 'latin1'); // ÿ as the single byte 0xff
      await expectRefused(latin1, 'malformed JSON: the body is not valid UTF-8');
      const cesu = Buffer.concat([
        Buffer.from(`${cdnBody(name)},"x":"`),
        Buffer.from([0xed, 0xa0, 0x80]),
        Buffer.from('"}'),
      ]);
      await expectRefused(cesu, 'malformed JSON: the body is not valid UTF-8');
    });

    it('refuses unpaired surrogate escapes and accepts pairs', async () => {
      await expectRefused(
        `${cdnBody()},"x":"\\ud800"}`,
        'malformed JSON: unpaired surrogate \\ud800 in a string',
      );
      await expectRefused(
        `${cdnBody()},"x":"a\\udfffb"}`,
        'malformed JSON: unpaired surrogate \\udfff in a string',
      );
      const name = uniqueName('pair');
      expect((await rawPost('cdns', `${cdnBody(name)},"x":"\\ud83d\\ude00"}`)).status).toBe(200);
    });

    it('refuses NUL characters, escaped or raw', async () => {
      const nul = 'malformed JSON: NUL character (\\u0000)';
      const name = uniqueName('nul');
      await expectRefused(`{"name":"${name}\\u0000","domainName":"${name}.example.net"}`, nul);
      await expectRefused(`{"name":"${name}\u0000","domainName":"${name}.example.net"}`, nul);
      expectError(
        await request(server).post('/api/4.0/user/login').send('{"u":"admin\\u0000","p":"x"}'),
        400,
        nul,
      );
    });

    it('reads UTF-8 whatever the Content-Type, and refuses another declared charset with 415', async () => {
      const name = uniqueName('charset');
      expect((await rawPost('cdns', `${cdnBody(name)}}`, 'text/plain; charset=UTF-8')).status).toBe(200);
      expect(await cdnNames()).toContain(name);
      for (const charset of ['latin1', 'utf-16']) {
        const res = await rawPost('cdns', `${cdnBody()}}`, `application/json; charset=${charset}`);
        expectError(res, 415, `unsupported charset "${charset.toUpperCase()}"`);
      }
    });
  });

  describe('what stays as it was', () => {
    it('malformed JSON, a body that is not an object, an empty body and 413', async () => {
      expectMalformedJson(await rawPost('cdns', '{"name": '));
      expectError(await rawPost('cdns', '[1, 2]'), 400, 'the request body must be a JSON object');
      expectError(await rawPost('cdns', ''), 400, "'name' cannot be blank, 'domainName' cannot be blank");
      const big = JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 10) });
      expectError(await rawPost('cdns', big), 413, 'request body too large');
    });

    it('reads a gzip-encoded body, with the same strict rules on what it inflates to', async () => {
      const name = uniqueName('gzip');
      const send = (text: string) =>
        request(server)
          .post('/api/4.0/cdns')
          .set('Cookie', admin.cookie!)
          .set('Content-Type', 'application/octet-stream')
          .set('Content-Encoding', 'gzip')
          .send(gzipSync(text));
      expect((await send(`${cdnBody(name)}}`)).status).toBe(200);
      expectError(await send(`${cdnBody()},"name":"x"}`), 400, 'malformed JSON: duplicate key "name"');
    });
  });
});
