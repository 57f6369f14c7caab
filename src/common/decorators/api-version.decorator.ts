import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { type ApiVersion, requestedVersion } from 'src/common/versioning/api-version';

/** The API version of the request (`/api/<version>/…`). */
export const RequestedVersion = createParamDecorator((_data: unknown, ctx: ExecutionContext): ApiVersion =>
  requestedVersion(ctx.switchToHttp().getRequest<Request>()),
);
