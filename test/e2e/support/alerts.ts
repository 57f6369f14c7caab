import type { Response, Test } from 'supertest';

/* The alert envelope of an answer as most suites check it: an error (status and text), or a success. */

export interface AlertBody {
  alerts?: { text: string; level: string }[];
  response?: unknown;
}

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

/**
 * A table of refusals: sends each request in turn (a supertest request is sent only when awaited)
 * and checks, as expectError does, that it answers exactly this status and error text.
 */
export async function expectErrors(cases: readonly (readonly [Test, number, string])[]): Promise<void> {
  for (const [index, [request, status, text]] of cases.entries()) {
    const res = await request;
    expect({ case: index, status: res.status, body: res.body as unknown }).toEqual({
      case: index,
      status,
      body: { alerts: [{ text, level: 'error' }] },
    });
  }
}
