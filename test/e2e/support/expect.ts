import { createHash } from 'node:crypto';
import type { Response } from 'supertest';
import type { AlertBody } from 'test/e2e/support/api';

/* The assertions on a response most suites share: its error or success envelope, its headers. */

/** The error envelope with exactly this status and text. */
export function expectError(res: Response, status: number, text: string): void {
  expect({ status: res.status, body: res.body as unknown }).toEqual({
    status,
    body: { alerts: [{ text, level: 'error' }] },
  });
}

/** 400 with exactly one error alert saying the JSON could not be read. */
export function expectMalformedJson(res: Response): void {
  expect({ status: res.status, body: res.body as unknown }).toEqual({
    status: 400,
    body: { alerts: [{ text: expect.stringMatching(/^malformed JSON: /), level: 'error' }] },
  });
}

export function expectSuccessAlert(res: Response, text: string): void {
  expect(res.status).toBe(200);
  expect((res.body as AlertBody).alerts).toEqual([{ text, level: 'success' }]);
}

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
