import { GoField } from 'src/common/validation/go-field';
import { GoStruct } from 'src/common/validation/go-struct';
import { BIGINT, INT32 } from 'src/common/validation/integers';
import { BODY_NOT_AN_OBJECT } from 'src/common/validation/validation.options';

/**
 * The body of POST steering/{id}/targets and PUT steering/{id}/targets/{targetId}:
 * `{targetId, value, typeId}` (PUT takes the target from the path). The service checks presence in
 * the original's words and joins (lib/go-tc SteeringTargetNullable.Validate): `missing typeId;
 * missing value`, joined with `; `.
 */
export interface SteeringTargetFields {
  targetId: number | null;
  typeId: number | null;
  value: number | null;
}

/** Whether an id can name a row at all (ids start at 1); others simply match nothing. */
export function isStorableId(id: number): boolean {
  return id >= 1 && id <= INT32.max;
}

/**
 * The body class of POST and PUT steering/{id}/targets: JSON types and ranges only, stopping at the
 * first bad field (`'typeId' must be an integer`, docs/decisions.md#d225); presence and the type's
 * table are checked by the service. A null body is an empty one. `value` is the original's
 * JSONIntStr (an integer, or a string holding one), stored in a BIGINT: anything beyond the integers
 * JSON numbers carry exactly is refused.
 */
@GoStruct('SteeringTargetNullable', {
  failure: '',
  withCause: true,
  notAnObject: BODY_NOT_AN_OBJECT,
  nullBody: 'zero',
})
export class SteeringTargetBody implements SteeringTargetFields {
  @GoField.int({
    schema: { description: 'the target delivery service (POST; PUT takes it from the path)' },
  })
  targetId: number | null = null;

  @GoField.int({ required: true, schema: { description: 'a steering target type' } })
  typeId: number | null = null;

  @GoField.int({ column: BIGINT, intStr: true, required: true })
  value: number | null = null;
}
