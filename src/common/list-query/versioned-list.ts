import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { type ListQuery, type ListSpec, listRoute, parseListQuery } from 'src/common/list-query/list-query';
import { requestedVersion } from 'src/common/versioning/api-version';

export interface VersionedListSpecs {
  /** Spec of 3.x. */
  v3: ListSpec;
  /** Spec of 4.0 and later. */
  v4: ListSpec;
}

/** `@ListParams` for lists whose fields differ between 3.x and 4.0+ (roles, users). */
const versionedListParams = createParamDecorator(
  (specs: VersionedListSpecs, ctx: ExecutionContext): ListQuery => {
    const req = ctx.switchToHttp().getRequest<Request>();
    const version = requestedVersion(req);
    return parseListQuery(version.atLeast('4.0') ? specs.v4 : specs.v3, req.query, version);
  },
);

export const VersionedListParams = (specs: VersionedListSpecs): ParameterDecorator =>
  listRoute((version) => (version.atLeast('4.0') ? specs.v4 : specs.v3), versionedListParams(specs));
