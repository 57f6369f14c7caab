import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import type { ApiVersionString } from 'src/common/versioning/api-version';

/**
 * `@CreatedFrom('4.0')` on a creating route: from this version on, the original answers the creation
 * `201 Created`. This service answers 200 to every success (docs/decisions.md#d2); with
 * `WIRE_COMPAT=traffic-ops` the envelope answers the original's 201 where it is declared
 * (docs/decisions.md#d5a).
 */
export const CreatedFrom = Reflector.createDecorator<ApiVersionString>();

/** The status the envelope chose for a success, in place of the route's `@HttpCode`. */
const ANSWER_STATUS = 'answerStatus';

export function answerWithStatus(res: Response, status: number): void {
  (res.locals as Record<string, unknown>)[ANSWER_STATUS] = status;
}

/**
 * The status to write as the body goes out: the one the envelope chose for a success (Nest applies
 * the route's `@HttpCode` after the interceptors, so it is applied here), else the current one.
 */
export function answerStatus(res: Response): number {
  const chosen = (res.locals as Record<string, unknown>)[ANSWER_STATUS];
  return typeof chosen === 'number' && res.statusCode === 200 ? chosen : res.statusCode;
}
