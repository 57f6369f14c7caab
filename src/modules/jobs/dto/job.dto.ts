import { GoField } from 'src/common/validation/go-field';
import { GoStruct } from 'src/common/validation/go-struct';

/**
 * The bodies of the jobs routes, decoded as the original's Go structs decode them
 * (docs/original-behaviour.md#jobs, GoStruct): a missing or null field is its zero value (validated
 * later by the service, in the original's words); a value of the wrong JSON type fails the whole
 * decoding. `required`, `minimum` and `enum` below document what the service checks.
 */

const UINT32_MAX = 4294967295;

const CREATE_FAILED = 'Unable to parse Invalidation Job';
const UPDATE_FAILED = 'Unable to parse input: ';

const INVALIDATION_TYPES = ['REFRESH', 'REFETCH'];

/** POST jobs on 4.0+ (lib/go-tc InvalidationJobCreateV4). */
@GoStruct('InvalidationJobCreateV4', { failure: CREATE_FAILED })
export class JobCreateV4Body {
  @GoField.string({ required: true, schema: { description: 'xmlId' } })
  deliveryService = '';

  @GoField.string({ required: true })
  regex = '';

  /** Undefined: absent (Go's zero time). */
  @GoField.rfc3339('layout', { required: true })
  startTime?: Date;

  @GoField.uint('uint32', UINT32_MAX, { required: true, schema: { minimum: 1 } })
  ttlHours = 0;

  @GoField.string({ required: true, schema: { enum: INVALIDATION_TYPES } })
  invalidationType = '';
}

/** PUT jobs?id= on 4.0+ (lib/go-tc InvalidationJobV4): the whole job. */
@GoStruct('InvalidationJobV4', { failure: UPDATE_FAILED, withCause: true })
export class JobV4Body {
  @GoField.uint('uint64', undefined, { required: true })
  id = 0;

  @GoField.string({ required: true })
  assetUrl = '';

  @GoField.string({ required: true })
  createdBy = '';

  @GoField.string({ required: true })
  deliveryService = '';

  @GoField.uint('uint', undefined, { required: true, schema: { minimum: 1 } })
  ttlHours = 0;

  @GoField.string({ required: true, schema: { enum: INVALIDATION_TYPES } })
  invalidationType = '';

  @GoField.rfc3339('layout', { required: true })
  startTime?: Date;
}

/** POST jobs on 3.x (lib/go-tc InvalidationJobInput): `deliveryService` an id or an xmlId, `ttl` hours or a duration. */
@GoStruct('InvalidationJobInput', { failure: CREATE_FAILED })
export class JobCreateV3Body {
  @GoField.any({ required: true, schema: { description: 'id (integer) or xmlId (string)' } })
  deliveryService?: unknown;

  @GoField.string({ required: true })
  regex?: string;

  @GoField.legacyTime({
    required: true,
    schema: { description: 'RFC 3339, YYYY-MM-DD HH:MM:SS[-07] or milliseconds since the epoch' },
  })
  startTime?: Date;

  @GoField.any({ required: true, schema: { description: 'hours (number) or a duration such as "48h"' } })
  ttl?: unknown;
}

/** PUT jobs?id= on 3.x (lib/go-tc InvalidationJob): the whole job, its TTL in `parameters` (`TTL:48h`). */
@GoStruct('InvalidationJob', { failure: UPDATE_FAILED, withCause: true })
export class JobV3Body {
  @GoField.string({ required: true })
  assetUrl?: string;

  @GoField.string({ required: true })
  createdBy?: string;

  @GoField.string({ required: true })
  deliveryService?: string;

  @GoField.uint('uint64', undefined, { required: true })
  id?: number;

  @GoField.string({ required: true })
  keyword?: string;

  @GoField.string({ required: true, schema: { description: 'TTL:<hours>h' } })
  parameters?: string;

  @GoField.legacyTime({ required: true, schema: { type: 'string' } })
  startTime?: Date;
}
