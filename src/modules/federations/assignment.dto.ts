import { GoDecodeError, GoStruct, type GoStructOptions } from 'src/common/validation/go-struct';
import { GoField } from 'src/common/validation/go-field';
import { fitsColumn, intProblem } from 'src/common/validation/integers';

/**
 * The bodies of the routes that assign ids to a federation, `{<ids>: [int], replace: bool}`, read as
 * the original does (api.Parse): decoding problems first (no body: `EOF`; wrong JSON types; an id
 * beyond the 32-bit columns, refused rather than looked up), the first one only, each with the
 * route's prefix; then, where the route requires the list, its presence
 * (`parse error: validating: <key>: is required.`). An absent or null value stays null (echoed so).
 */
export interface Assignment {
  /** null when the request left the list out (echoed as such). */
  readonly ids: number[] | null;
  /** null when the request left `replace` out (echoed as such). */
  readonly replace: boolean | null;
}

/** A list of ids named `key`: `<key> must be an array of integers`, `<key>[i] <out of range>`. */
const ids = (key: string, required: boolean): PropertyDecorator =>
  GoField.decoded(
    (value) => {
      if (!Array.isArray(value) || value.some((id) => typeof id !== 'number' || !Number.isInteger(id))) {
        throw new GoDecodeError(`${key} must be an array of integers`);
      }
      const list = value as number[];
      const outOfRange = list.findIndex((id) => !fitsColumn(id));
      if (outOfRange >= 0) {
        throw new GoDecodeError(`${key}[${outOfRange}] ${intProblem(list[outOfRange])}`);
      }
      return list;
    },
    { type: 'array', items: { type: 'integer' } },
    { required },
  );

const replace = (): PropertyDecorator =>
  GoField.decoded(
    (value) => {
      if (typeof value !== 'boolean') {
        throw new GoDecodeError('replace must be a boolean');
      }
      return value;
    },
    { type: 'boolean' },
  );

/** The route's texts: its decoding prefix, and the list's presence when required. */
function assignment<T>(
  prefix: string,
  required?: { key: string; list: (body: T) => number[] | null },
): GoStructOptions<T> {
  return {
    failure: prefix,
    withCause: true,
    eofWhenNoBody: true,
    notAnObject: `${prefix}the request body must be a JSON object`,
    check: (body) =>
      required && required.list(body) === null
        ? `parse error: validating: ${required.key}: is required.`
        : undefined,
  };
}

const PARSE_ERROR = 'parse error: decoding: ';

/** POST federations/{id}/users: `userIds` required, read after the federation's 404. */
@GoStruct<UserAssignmentBody>(
  'FederationUserPost',
  assignment(PARSE_ERROR, { key: 'userIds', list: (body) => body.userIds }),
)
export class UserAssignmentBody implements Assignment {
  @ids('userIds', true)
  userIds: number[] | null = null;

  @replace()
  replace: boolean | null = null;

  get ids(): number[] | null {
    return this.userIds;
  }
}

/** POST federations/{id}/deliveryservices: `dsIds` required, read after the federation's 404. */
@GoStruct<DeliveryServiceAssignmentBody>(
  'FederationDSPost',
  assignment(PARSE_ERROR, { key: 'dsIds', list: (body) => body.dsIds }),
)
export class DeliveryServiceAssignmentBody implements Assignment {
  @ids('dsIds', true)
  dsIds: number[] | null = null;

  @replace()
  replace: boolean | null = null;

  get ids(): number[] | null {
    return this.dsIds;
  }
}

/** POST federations/{id}/federation_resolvers: `fedResolverIds` optional. */
@GoStruct<ResolverAssignmentBody>('AssignFederationResolversRequest', assignment('malformed JSON: '))
export class ResolverAssignmentBody implements Assignment {
  @ids('fedResolverIds', false)
  fedResolverIds: number[] | null = null;

  @replace()
  replace: boolean | null = null;

  get ids(): number[] | null {
    return this.fedResolverIds;
  }
}
