import { createHash } from 'node:crypto';
import type { Response } from 'supertest';
import { expectSuccessAlert } from 'test/e2e/support/alerts';

/** The headers of docs/decisions.md#d18, with the digest recomputed over the bytes received. */
export function expectApiHeaders(res: Response): void {
  expect(res.headers['access-control-allow-credentials']).toBe('true');
  expect(res.headers['access-control-allow-origin']).toBe('*');
  expect(res.headers['access-control-allow-methods']).toBe('POST,GET,OPTIONS,PUT,DELETE');
  expect(res.headers['access-control-allow-headers']).toBe(
    'Origin, X-Requested-With, Content-Type, Accept, Set-Cookie, Cookie',
  );
  expect(res.headers['x-server-name']).toBe('cdn-control-plane/e2e');
  const body = res.text ?? '';
  expect(res.headers['whole-content-sha512']).toBe(
    createHash('sha512').update(body, 'utf8').digest('base64'),
  );
}

/**
 * 200 with the headers of D18: what a successful request answers; with `successAlert`, exactly that
 * success alert too (as expectSuccessAlert). Returns the response.
 */
export function expectOk(res: Response, successAlert?: string): Response {
  if (successAlert === undefined) {
    expect(res.status).toBe(200);
  } else {
    expectSuccessAlert(res, successAlert);
  }
  expectApiHeaders(res);
  return res;
}
