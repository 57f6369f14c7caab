import { GoDecodeError, GoStruct } from 'src/common/validation/go-struct';
import { GoField } from 'src/common/validation/go-field';
import { INT32, intProblem } from 'src/common/validation/integers';
import { type IpFamily, ipFamily } from 'src/modules/federations/ip';

/** The resolver's fields as the original validates them (ozzo-validation on the struct). */
function validating(body: FederationResolverBodyType): string | undefined {
  const problems: string[] = [];
  const family = ipFamily(body.ipAddress);
  if (body.ipAddress === '') {
    problems.push('ipAddress: cannot be blank');
  } else if (family === undefined) {
    problems.push('ipAddress: invalid network IP or CIDR-notation subnet');
  }
  if (body.typeId === 0) {
    problems.push('typeId: cannot be blank');
  }
  if (problems.length > 0 || family === undefined) {
    return `validating: ${problems.join('; ')}.`;
  }
  body.family = family;
  return undefined;
}

/**
 * The body of POST federation_resolvers as the original reads it (api.Parse, no further prefix):
 * decoding problems as `decoding: …` (no body at all: `decoding: EOF`), the first one only; then
 * the fields' problems as ozzo-validation words a struct, `validating: ipAddress: cannot be blank;
 * typeId: cannot be blank.` A missing or null field is its zero value. The address's family is read
 * with it.
 */
@GoStruct<FederationResolverBodyType>('FederationResolver', {
  failure: 'decoding: ',
  withCause: true,
  eofWhenNoBody: true,
  notAnObject: 'decoding: the request body must be a JSON object',
  check: validating,
})
export class FederationResolverBodyType {
  @GoField.decoded(
    (value) => {
      if (typeof value !== 'string') {
        throw new GoDecodeError('ipAddress must be a string');
      }
      return value;
    },
    { type: 'string', description: 'an IPv4 or IPv6 address or network (CIDR)' },
    { required: true },
  )
  ipAddress = '';

  @GoField.decoded(
    (value) => {
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
        throw new GoDecodeError('typeId must be a non-negative integer');
      }
      const problem = intProblem(value, INT32);
      if (problem !== undefined) {
        throw new GoDecodeError(`typeId ${problem}`);
      }
      return value;
    },
    { type: 'integer', description: 'a RESOLVE4 or RESOLVE6 type matching the address' },
    { required: true },
  )
  typeId = 0;

  /** Read from ipAddress once it is valid. */
  family: IpFamily = 4;
}

/** POST federation_resolvers, as read. */
export type FederationResolverBody = FederationResolverBodyType;
