import type { ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { CurrentUser as CurrentUserData } from 'src/common/types/current-user';
import { handlerArgument } from 'src/common/request-input/handler-argument';

/**
 * Who is asking (src/common/types/current-user.ts), by the name handlers use for it: the decorator
 * and its parameter's type are imported together (`@CurrentUser() user: CurrentUser`).
 */
export type CurrentUser = CurrentUserData;

/** The signed-in user the session guard put on the request; never parses credentials itself. */
export const CurrentUser = handlerArgument((_data: unknown, ctx: ExecutionContext): CurrentUserData => {
  const user = ctx.switchToHttp().getRequest<Request>().user as CurrentUserData | undefined;
  if (!user) {
    throw new Error('CurrentUser used on a route without a session');
  }
  return user;
});
