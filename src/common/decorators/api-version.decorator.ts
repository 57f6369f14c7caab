import type { ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { type ApiVersion, requestedVersion } from 'src/common/versioning/api-version';
import { handlerArgument } from 'src/common/request-input/handler-argument';

/** The API version of the request (`/api/<version>/…`). */
export const RequestedVersion = handlerArgument((_data: unknown, ctx: ExecutionContext): ApiVersion =>
  requestedVersion(ctx.switchToHttp().getRequest<Request>()),
);
