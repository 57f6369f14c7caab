import { BadRequestException, createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { IntParamPipe, KeyIdPipe } from 'src/common/validation/id.pipe';
import { requestedVersion } from 'src/common/versioning/api-version';

const keyId = new KeyIdPipe();
const intParam = new IntParamPipe();

/**
 * `@VersionedQueryId('5.0')`: the `id` of the query form (`PUT /coordinates?id=7`) of a resource
 * served by the original's generic handlers before `handWrittenFrom` and by its own handlers from
 * then on, each family with its texts (docs/original-behaviour.md#generic-handlers): generic —
 * absent → 400 `missing key: id`, not an integer → `failed to parse key: id`; hand-written — absent
 * → `required parameters missing: missing required parameters: id`, not an integer → `getting
 * integer parameters: parameter 'id' not an integer`. Read raw from the request, so that the global
 * pipe's primitive conversion never turns `?id=` into 0.
 */
export const VersionedQueryId = createParamDecorator(
  (handWrittenFrom: '4.0' | '5.0', ctx: ExecutionContext): number => {
    const req = ctx.switchToHttp().getRequest<Request>();
    const raw: unknown = req.query.id;
    const first: unknown = Array.isArray(raw) ? raw[0] : raw;
    const handWritten = requestedVersion(req).atLeast(handWrittenFrom);
    if (first === undefined) {
      throw new BadRequestException(
        handWritten ? 'required parameters missing: missing required parameters: id' : 'missing key: id',
      );
    }
    const text = typeof first === 'string' ? first : '';
    return handWritten ? intParam.transform(text) : keyId.transform(text);
  },
);
