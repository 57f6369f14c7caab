import { ArrayOf } from 'src/common/validation/body-collections';
import { GoField } from 'src/common/validation/go-field';
import { decodeNested, GoDecodeError, type GoFieldAt, GoStruct } from 'src/common/validation/go-struct';
import { ipFamily } from 'src/modules/federations/ip';

/** One item of POST/PUT /federations: the resolvers a delivery service's federations get. */
export interface ResolverMapping {
  deliveryService: string;
  resolve4: string[];
  resolve6: string[];
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** A list of strings, or `<path> must be an array of strings`. */
function stringList(value: unknown, at: GoFieldAt): string[] {
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) {
    throw new GoDecodeError(`${at.path} must be an array of strings`);
  }
  return value as string[];
}

const STRINGS = { type: 'array', items: { type: 'string' } };

/** An item's `mappings`: its resolvers (absent or null lists are empty). */
export class ResolverLists {
  @GoField.decoded(stringList, STRINGS)
  resolve4: string[] = [];

  @GoField.decoded(stringList, STRINGS)
  resolve6: string[] = [];
}

/**
 * One item of the body, in the original's words for a shape problem (`parsing request: [0]
 * must be an object`, `[0].deliveryService must be a string`, …), stopping at the first one.
 */
@GoStruct('ResolverMapping', {
  failure: 'parsing request: ',
  withCause: true,
  notAnObject: (path) => `parsing request: ${path} must be an object`,
})
export class ResolverMappingItem implements ResolverMapping {
  @GoField.decoded(
    (value, at) => {
      if (typeof value !== 'string') {
        throw new GoDecodeError(`${at.path} must be a string`);
      }
      return value;
    },
    { type: 'string', description: 'the xmlId of a delivery service' },
    { required: true },
  )
  deliveryService = '';

  @GoField.decoded(
    (value, at) => {
      if (!isObject(value)) {
        throw new GoDecodeError(`${at.path} must be an object`);
      }
      return decodeNested(ResolverLists, value, at);
    },
    { type: 'object', properties: { resolve4: STRINGS, resolve6: STRINGS } },
  )
  mappings = new ResolverLists();

  get resolve4(): string[] {
    return this.mappings.resolve4;
  }

  get resolve6(): string[] {
    return this.mappings.resolve6;
  }
}

/**
 * Validates the mappings read (`validating request: …`): at least one mapping, every resolve4 entry
 * an IPv4 address or subnet and every resolve6 entry an IPv6 one, each bad entry reported as
 * `[ <value> ] is not a valid ip address.` in request order, joined with `, `.
 */
export function resolverMappingsProblem(mappings: ResolverMapping[]): string | undefined {
  if (mappings.length === 0) {
    return 'validating request: must specify at least one Delivery Service/Federation Resolver(s) mapping';
  }
  const problems: string[] = [];
  for (const mapping of mappings) {
    for (const [values, family] of [
      [mapping.resolve4, 4],
      [mapping.resolve6, 6],
    ] as const) {
      for (const value of values) {
        if (ipFamily(value) !== family) {
          problems.push(`[ ${value} ] is not a valid ip address.`);
        }
      }
    }
  }
  return problems.length > 0 ? `validating request: ${problems.join(', ')}` : undefined;
}

/**
 * The body of POST and PUT /federations (docs/original-behaviour.md#federations): an array of mappings,
 * or the legacy `{"federations": [...]}`. Shape problems answer 400 `parsing request: …`; then the
 * request is validated (resolverMappingsProblem).
 */
export const ResolverMappingsBody = ArrayOf<ResolverMapping>(ResolverMappingItem, {
  invalid: 'parsing request: the body must be an array of mappings or an object with an array of federations',
  noBody: 'parsing request: unexpected end of JSON input',
  nullAsEmpty: true,
  wrappedIn: { key: 'federations', notAnArray: 'parsing request: federations must be an array' },
  check: resolverMappingsProblem,
  description: 'or the legacy form {"federations": [<the same items>]}',
});
