import type { JsonSchema } from 'src/common/validation/json-schema';
import type { BodyContext } from 'src/common/validation/valid-body';
import { BadRequestException } from '@nestjs/common';
import { INT32, intProblem } from 'src/common/validation/integers';
import { type IpFamily, ipFamily } from 'src/modules/federations/ip';

export interface FederationResolverBody {
  ipAddress: string;
  typeId: number;
  family: IpFamily;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * The body of POST federation_resolvers as the original reads it (api.Parse, no further prefix):
 * decoding problems as `decoding: …`, then the fields' problems as ozzo-validation words a struct,
 * `validating: ipAddress: cannot be blank; typeId: cannot be blank.`
 */
export function parseFederationResolverBody(body: unknown, hasBody: boolean): FederationResolverBody {
  const decoding = (problem: string) => new BadRequestException(`decoding: ${problem}`);
  if (!hasBody) {
    throw decoding('EOF');
  }
  if (!isObject(body)) {
    throw decoding('the request body must be a JSON object');
  }
  const { ipAddress, typeId } = body;
  if (ipAddress !== undefined && ipAddress !== null && typeof ipAddress !== 'string') {
    throw decoding('ipAddress must be a string');
  }
  if (
    typeId !== undefined &&
    typeId !== null &&
    (typeof typeId !== 'number' || !Number.isInteger(typeId) || typeId < 0)
  ) {
    throw decoding('typeId must be a non-negative integer');
  }
  const typeIdProblem = typeId === undefined || typeId === null ? undefined : intProblem(typeId, INT32);
  if (typeIdProblem !== undefined) {
    throw decoding(`typeId ${typeIdProblem}`);
  }
  const problems: string[] = [];
  const family = ipFamily(ipAddress);
  if (typeof ipAddress !== 'string' || ipAddress === '') {
    problems.push('ipAddress: cannot be blank');
  } else if (family === undefined) {
    problems.push('ipAddress: invalid network IP or CIDR-notation subnet');
  }
  if (typeof typeId !== 'number' || typeId === 0) {
    problems.push('typeId: cannot be blank');
  }
  if (problems.length > 0 || family === undefined) {
    throw new BadRequestException(`validating: ${problems.join('; ')}.`);
  }
  return { ipAddress: ipAddress as string, typeId: typeId as number, family };
}

/** The body class of POST federation_resolvers, read by parseFederationResolverBody. */
export class FederationResolverBodyType {
  static readonly schema: JsonSchema = {
    type: 'object',
    properties: {
      ipAddress: { type: 'string', description: 'an IPv4 or IPv6 address or network (CIDR)' },
      typeId: { type: 'integer', description: 'a RESOLVE4 or RESOLVE6 type matching the address' },
    },
    required: ['ipAddress', 'typeId'],
  };
  static readonly parse = (raw: unknown, { present }: BodyContext): FederationResolverBody =>
    parseFederationResolverBody(raw, present);
}
