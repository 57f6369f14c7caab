import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { useApp } from 'test/e2e/support/suite';

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The bytes as they came over the wire. */
  bytes: Buffer;
}

const digestOf = (body: Buffer) => createHash('sha512').update(body).digest('base64');

/**
 * Responses are gzipped for clients that accept it, from 1 KiB on; Whole-Content-Sha512 is always
 * the digest of the uncompressed body (as the original's). Raw HTTP, to see the bytes sent.
 */
describe('response compression', () => {
  const { app, admin } = useApp();
  let port: number;

  const get = (path: string, headers: Record<string, string>): Promise<Raw> =>
    new Promise((resolve, reject) => {
      const req = httpRequest(
        { host: '127.0.0.1', port, path, headers: { Cookie: admin.cookie!, ...headers } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({ status: res.statusCode!, headers: res.headers, bytes: Buffer.concat(chunks) }),
          );
        },
      );
      req.on('error', reject);
      req.end();
    });

  beforeAll(async () => {
    await app.listen(0, '127.0.0.1');
    port = (app.getHttpServer().address() as AddressInfo).port;
  });

  it('gzips a large list when the client accepts gzip; the digest is of the uncompressed body', async () => {
    const res = await get('/api/4.0/types', { 'Accept-Encoding': 'gzip, deflate' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers.vary).toMatch(/Accept-Encoding/);
    const body = gunzipSync(res.bytes);
    expect(body.length).toBeGreaterThan(1024);
    expect(res.bytes.length).toBeLessThan(body.length);
    expect((JSON.parse(body.toString('utf8')) as { response: unknown[] }).response.length).toBeGreaterThan(5);
    expect(res.headers['whole-content-sha512']).toBe(digestOf(body));

    const plain = await get('/api/4.0/types', {});
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.bytes.equals(body)).toBe(true);
    expect(plain.headers['whole-content-sha512']).toBe(res.headers['whole-content-sha512']);
  });

  it('uses gzip only, as the original: not br or deflate, even when the client prefers them', async () => {
    const preferringBr = await get('/api/4.0/types', { 'Accept-Encoding': 'br;q=1.0, gzip;q=0.5, deflate' });
    expect(preferringBr.headers['content-encoding']).toBe('gzip');
    expect(preferringBr.headers['whole-content-sha512']).toBe(digestOf(gunzipSync(preferringBr.bytes)));
    const withoutGzip = await get('/api/4.0/types', { 'Accept-Encoding': 'br, deflate' });
    expect(withoutGzip.headers['content-encoding']).toBeUndefined();
    expect(withoutGzip.headers['whole-content-sha512']).toBe(digestOf(withoutGzip.bytes));
  });

  it('sends a small body as it is, even to a client that accepts gzip', async () => {
    const res = await get('/api/4.0/ping', { 'Accept-Encoding': 'gzip' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.bytes.toString('utf8')).toBe('{"ping":"pong"}');
    expect(res.headers['content-length']).toBe(String(res.bytes.length));
    expect(res.headers['whole-content-sha512']).toBe(digestOf(res.bytes));
  });

  it('gzips a large error the same way', async () => {
    const long = 'x'.repeat(1500);
    const res = await get(`/api/4.0/${long}`, { 'Accept-Encoding': 'gzip' });
    expect(res.status).toBe(404);
    expect(res.headers['content-encoding']).toBe('gzip');
    const body = gunzipSync(res.bytes);
    expect(JSON.parse(body.toString('utf8'))).toEqual({
      alerts: [{ text: `The requested path '/api/4.0/${long}' does not exist.`, level: 'error' }],
    });
    expect(res.headers['whole-content-sha512']).toBe(digestOf(body));
  });
});
