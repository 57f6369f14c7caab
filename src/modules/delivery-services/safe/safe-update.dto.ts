import { GoDecodeError, GoStruct, type GoStructOptions } from 'src/common/validation/go-struct';
import { GoField } from 'src/common/validation/go-field';

/**
 * The body of PUT /deliveryservices/{id}/safe (lib/go-tc DeliveryServiceSafeUpdateRequest), read as
 * the original does (`decoding: validating: …`, docs/original-behaviour.md#deliveryservices-safe),
 * after the lookups (`@ValidBody(…, { deferred: true })`): each field must be a string or null, in
 * the struct's order, then `displayName` must be present and at most 48 characters long; on 4.0+ a
 * `longDesc1` is then refused with the original's own text. The first problem answers.
 */

const VALIDATING = 'decoding: validating: ';

/** A `*string` field: a string or null (the zero value), `<field>: must be a string` otherwise. */
const nullableString = (field: string, description?: string): PropertyDecorator =>
  GoField.decoded(
    (value) => {
      if (typeof value !== 'string') {
        throw new GoDecodeError(`${field}: must be a string`);
      }
      return value;
    },
    { type: 'string', nullable: true, ...(description === undefined ? {} : { description }) },
  );

function displayNameProblem(displayName: string | null): string | undefined {
  if (displayName === null) {
    return `${VALIDATING}displayName: cannot be null/missing`;
  }
  return displayName.length > 48
    ? `${VALIDATING}displayName: the length must be between 1 and 48`
    : undefined;
}

const options = (check: GoStructOptions<SafeUpdateV3Body>['check']): GoStructOptions<SafeUpdateV3Body> => ({
  failure: VALIDATING,
  withCause: true,
  notAnObject: 'decoding: the request body must be a JSON object',
  check,
});

/** API 3.x: `longDesc1` is written too (null when absent). */
@GoStruct<SafeUpdateV3Body>(
  'DeliveryServiceSafeUpdateRequest',
  options((body) => displayNameProblem(body.displayName)),
)
export class SafeUpdateV3Body {
  @GoField.decoded(
    (value) => {
      if (typeof value !== 'string') {
        throw new GoDecodeError('displayName: must be a string');
      }
      return value;
    },
    { type: 'string', minLength: 1, maxLength: 48 },
    { required: true },
  )
  displayName: string | null = null;

  @nullableString('infoUrl')
  infoUrl: string | null = null;

  @nullableString('longDesc')
  longDesc: string | null = null;

  /** Undefined (not written) from 4.0 on. */
  @nullableString('longDesc1', 'API 3.x only')
  longDesc1?: string | null = null;
}

/** API 4.0 onwards: a `longDesc1` (but null) is refused; it is never written. */
@GoStruct<SafeUpdateV3Body>(
  'DeliveryServiceSafeUpdateRequest',
  options(
    (body) =>
      displayNameProblem(body.displayName) ??
      (body.longDesc1 === undefined
        ? undefined
        : 'the longDesc1 field is no longer supported in API 4.0 onwards'),
  ),
)
export class SafeUpdateV4Body extends SafeUpdateV3Body {
  override longDesc1?: string | null = undefined;
}

/** Body of PUT /deliveryservices/{id}/safe, as read. */
export type SafeUpdate = SafeUpdateV3Body & { displayName: string };
