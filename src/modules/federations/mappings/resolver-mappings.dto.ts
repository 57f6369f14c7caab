import type { JsonSchema } from 'src/common/validation/json-schema';
import type { BodyContext } from 'src/common/validation/valid-body';
import { BadRequestException } from '@nestjs/common';
import { ipFamily } from 'src/modules/federations/ip';

/** One item of POST/PUT /federations: the resolvers a delivery service's federations get. */
export interface ResolverMapping {
  deliveryService: string;
  resolve4: string[];
  resolve6: string[];
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const parsing = (problem: string) => new BadRequestException(`parsing request: ${problem}`);

function stringList(value: unknown, path: string): string[] {
  if (value === undefined || value === null) {
    return [];
  }
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) {
    throw parsing(`${path} must be an array of strings`);
  }
  return value as string[];
}

function mappingOf(item: unknown, i: number): ResolverMapping {
  if (!isObject(item)) {
    throw parsing(`[${i}] must be an object`);
  }
  const ds = item.deliveryService;
  if (ds !== undefined && ds !== null && typeof ds !== 'string') {
    throw parsing(`[${i}].deliveryService must be a string`);
  }
  const mappings = item.mappings;
  if (mappings !== undefined && mappings !== null && !isObject(mappings)) {
    throw parsing(`[${i}].mappings must be an object`);
  }
  return {
    deliveryService: typeof ds === 'string' ? ds : '',
    resolve4: stringList(mappings?.resolve4, `[${i}].mappings.resolve4`),
    resolve6: stringList(mappings?.resolve6, `[${i}].mappings.resolve6`),
  };
}

/**
 * The body of POST and PUT /federations (docs/original-behaviour.md#federations): an array of mappings, or
 * the legacy `{"federations": [...]}`. Shape problems answer 400 `parsing request: …`; then the request is
 * validated (`validating request: …`): at least one mapping, every resolve4 entry an IPv4 address
 * or subnet and every resolve6 entry an IPv6 one, each bad entry reported as
 * `[ <value> ] is not a valid ip address.` in request order, joined with `, `.
 */
export function parseResolverMappings(body: unknown, hasBody: boolean): ResolverMapping[] {
  if (!hasBody) {
    throw parsing('unexpected end of JSON input');
  }
  let items: unknown;
  if (Array.isArray(body) || body === null) {
    items = body ?? [];
  } else if (isObject(body)) {
    items = body.federations ?? [];
    if (!Array.isArray(items)) {
      throw parsing('federations must be an array');
    }
  } else {
    throw parsing('the body must be an array of mappings or an object with an array of federations');
  }
  const mappings = (items as unknown[]).map(mappingOf);
  if (mappings.length === 0) {
    throw new BadRequestException(
      'validating request: must specify at least one Delivery Service/Federation Resolver(s) mapping',
    );
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
  if (problems.length > 0) {
    throw new BadRequestException(`validating request: ${problems.join(', ')}`);
  }
  return mappings;
}

/**
 * The body class of POST and PUT /federations, read by parseResolverMappings. Hand-read: the body is
 * a bare JSON array (or the legacy object wrapping one), not an object, which neither class-validator
 * nor @GoStruct decodes.
 */
export class ResolverMappingsBody {
  static readonly schema: JsonSchema = {
    type: 'array',
    description: 'or the legacy form {"federations": [<the same items>]}',
    items: {
      type: 'object',
      properties: {
        deliveryService: { type: 'string', description: 'the xmlId of a delivery service' },
        mappings: {
          type: 'object',
          properties: {
            resolve4: { type: 'array', items: { type: 'string' } },
            resolve6: { type: 'array', items: { type: 'string' } },
          },
        },
      },
      required: ['deliveryService'],
    },
  };
  static readonly parse = (raw: unknown, { present }: BodyContext): ResolverMapping[] =>
    parseResolverMappings(raw, present);
}
