import { ArrayMaxSize, IsArray, IsBoolean, IsDefined } from 'class-validator';
import { ArrayOf } from 'src/common/validation/body-collections';
import { GoField } from 'src/common/validation/go-field';
import { GoDecodeError, GoStruct } from 'src/common/validation/go-struct';
import { ColumnInt } from 'src/common/validation/rules';
import { BODY_NOT_AN_OBJECT } from 'src/common/validation/validation.options';

/** Most ids one request may name (a bound on the statement's size, not a rule of the original). */
export const MAX_IDS = 10_000;

/**
 * Body of POST /deliveryserviceserver (docs/original-behaviour.md#deliveryserviceserver). The
 * original decodes the body itself and names a missing (or null) field in its own words, in this
 * order: `servers must exist in post`, `dsid must exist in post`, `replace must exist in post`; then
 * every field of the wrong JSON type (a decoder error there), or an id beyond the 32-bit columns, is
 * named, in the body's order (docs/decisions.md#d9).
 */
@GoStruct<ServerAssignmentBody>('DSServerIDs', {
  failure: '',
  notAnObject: BODY_NOT_AN_OBJECT,
  check: (body) =>
    body.servers === undefined
      ? 'servers must exist in post'
      : body.dsId === undefined
        ? 'dsid must exist in post'
        : body.replace === undefined
          ? 'replace must exist in post'
          : undefined,
})
export class ServerAssignmentBody {
  @GoField.any({ required: true, schema: { type: 'integer' } })
  @ColumnInt()
  dsId!: number;

  @GoField.any({
    required: true,
    schema: { type: 'array', items: { type: 'integer' }, description: `at most ${MAX_IDS} ids` },
  })
  @IsArray({ message: 'must be an array of integers' })
  @ColumnInt(undefined, { each: true, message: 'must be an array of integers' })
  @ArrayMaxSize(MAX_IDS, { message: `must have at most ${MAX_IDS} items` })
  servers!: number[];

  @GoField.any({ required: true, schema: { type: 'boolean' } })
  @IsBoolean({ message: 'must be a boolean' })
  replace!: boolean;
}

/** Body of POST /deliveryserviceserver, as read. */
export type ServerAssignment = ServerAssignmentBody;

/** The body of cachegroups/{id}/deliveryservices (docs/original-behaviour.md#cachegroup-deliveryservices). */
export class CachegroupAssignmentDto {
  @IsDefined({ message: 'is required' })
  @IsArray({ message: 'must be an array of integers' })
  @ColumnInt(undefined, { each: true, message: 'must be an array of integers' })
  @ArrayMaxSize(MAX_IDS, { message: `must have at most ${MAX_IDS} items` })
  deliveryServices!: number[];
}

/**
 * Body of POST deliveryservices/{xmlId}/servers (lib/go-tc DeliveryServiceServers), read after the
 * delivery service's checks as the original does: `serverNames` null when left out. The original
 * answers any decoding failure `malformed JSON`; here the text also says what is wrong
 * (docs/decisions.md#d9).
 */
@GoStruct('DeliveryServiceServers', {
  failure: 'malformed JSON: ',
  withCause: true,
  eofWhenNoBody: true,
  notAnObject: 'malformed JSON: the request body must be a JSON object',
})
export class HostNameAssignmentBody {
  @GoField.decoded(
    (value) => {
      if (!Array.isArray(value) || value.some((name) => typeof name !== 'string')) {
        throw new GoDecodeError('serverNames must be an array of strings');
      }
      if (value.length > MAX_IDS) {
        throw new GoDecodeError(`serverNames must have at most ${MAX_IDS} items`);
      }
      return value as string[];
    },
    { type: 'array', items: { type: 'string' }, description: `at most ${MAX_IDS} names` },
  )
  serverNames: string[] | null = null;
}

/** Body of POST deliveryservices/{xmlId}/servers, as read. */
export type HostNameAssignment = HostNameAssignmentBody;

/**
 * The body of POST servers/{id}/deliveryservices: a JSON array of delivery service ids (`null` counts
 * as none, as the original's decoder reads it); anything else is the original's `payload must be a
 * list of integers representing delivery service ids`. Ids beyond the 32-bit columns name the first
 * such one (docs/decisions.md#d46).
 */
export const DeliveryServiceIdsBody = ArrayOf<number>(Number, {
  invalid: 'payload must be a list of integers representing delivery service ids',
  noBody: 'payload must be a list of integers representing delivery service ids',
  nullAsEmpty: true,
  maxItems: MAX_IDS,
  description: `delivery service ids, at most ${MAX_IDS}`,
});
