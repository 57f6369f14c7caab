import { GoField } from 'src/common/validation/go-field';
import { GoDecodeError, GoStruct } from 'src/common/validation/go-struct';
import { intProblem } from 'src/common/validation/integers';
import { BODY_NOT_AN_OBJECT } from 'src/common/validation/validation.options';

/** PUT servers/{id}/status: the status by name or id, and why the server goes down. */
export interface ServerStatusRequest {
  status?: { id: number } | { name: string };
  offlineReason?: string;
}

/** util.JSONNameOrIDStr: an id (an integer, or a string of digits) or a name (any other string). */
function statusRef(value: unknown): { id: number } | { name: string } {
  let ref: { id: number } | { name: string };
  if (typeof value === 'string') {
    ref = /^[+-]?\d+$/.test(value) ? { id: Number(value) } : { name: value };
  } else if (typeof value === 'number') {
    ref = { id: value };
  } else {
    throw new GoDecodeError("'status' must be a status name or id");
  }
  const problem = 'id' in ref ? intProblem(ref.id) : undefined;
  if (problem !== undefined) {
    throw new GoDecodeError(`'status' ${problem}`);
  }
  return ref;
}

/**
 * The body of PUT servers/{id}/status (lib/go-tc ServerPutStatus), its JSON types checked first
 * (`malformed JSON: 'offlineReason' must be a string`, docs/decisions.md#d225). A missing or null
 * status is answered later (`status is required`), after the server's checks.
 */
@GoStruct('ServerPutStatus', {
  failure: 'malformed JSON: ',
  withCause: true,
  notAnObject: BODY_NOT_AN_OBJECT,
})
export class ServerStatusBody implements ServerStatusRequest {
  @GoField.decoded(statusRef, { oneOf: [{ type: 'integer' }, { type: 'string' }] }, { required: true })
  status?: { id: number } | { name: string };

  @GoField.text({ schema: { nullable: true } })
  offlineReason?: string;
}
