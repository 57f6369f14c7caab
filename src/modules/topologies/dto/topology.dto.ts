import { BadRequestException } from '@nestjs/common';
import type { JsonSchema } from 'src/common/validation/json-schema';
import { intProblem } from 'src/common/validation/integers';
import { BODY_NOT_AN_OBJECT } from 'src/common/validation/validation.options';

/** A node of a topology body: a cache group by name and the indexes of its parents in `nodes`. */
export interface TopologyNodeInput {
  cachegroup: string;
  parents: number[];
}

export interface TopologyInput {
  name: string;
  description: string;
  nodes: TopologyNodeInput[];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A string field; absent or null reads as empty, as the original's decoder leaves it. */
function text(value: unknown, field: string): string {
  if (value === undefined || value === null) {
    return '';
  }
  if (typeof value !== 'string') {
    throw new BadRequestException(`'${field}' must be a string`);
  }
  return value;
}

/** An array field; absent or null reads as empty. */
function list(value: unknown, field: string): unknown[] {
  if (value === undefined || value === null) {
    return [];
  }
  if (!Array.isArray(value)) {
    throw new BadRequestException(`'${field}' must be an array`);
  }
  return value;
}

function node(raw: unknown, index: number): TopologyNodeInput {
  const field = `nodes[${index}]`;
  if (!isObject(raw)) {
    throw new BadRequestException(`'${field}' must be an object`);
  }
  const parents = list(raw.parents, `${field}.parents`).map((parent, p) => {
    const problem = intProblem(parent);
    if (problem !== undefined) {
      throw new BadRequestException(`'${field}.parents[${p}]' ${problem}`);
    }
    return parent as number;
  });
  return { cachegroup: text(raw.cachegroup, `${field}.cachegroup`), parents };
}

/**
 * The JSON types of a topology body (`{name, description, nodes: [{cachegroup, parents}]}`); the
 * topology's rules need the database and are TopologyChecks's (topology-checks.ts). A parent
 * is an index into `nodes`, within the 32-bit range (docs/decisions.md#d46).
 */
export function parseTopology(raw: unknown): TopologyInput {
  if (!isObject(raw)) {
    throw new BadRequestException(BODY_NOT_AN_OBJECT);
  }
  return {
    name: text(raw.name, 'name'),
    description: text(raw.description, 'description'),
    nodes: list(raw.nodes, 'nodes').map(node),
  };
}

/** The body class of POST and PUT topologies, read by parseTopology. */
export class TopologyBody {
  static readonly schema: JsonSchema = {
    type: 'object',
    properties: {
      name: { type: 'string', description: 'letters, digits, underscores and dashes' },
      description: { type: 'string' },
      nodes: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            cachegroup: { type: 'string', description: 'a cache group, by name' },
            parents: {
              type: 'array',
              items: { type: 'integer' },
              description: 'indexes in nodes: the primary parent, then the secondary one',
            },
          },
        },
      },
    },
    required: ['name', 'nodes'],
  };
  static readonly parse = (raw: unknown): TopologyInput => parseTopology(raw);
}

/** The body of POST topologies/{name}/queue_update. */
export interface TopologyQueueUpdateInput {
  action: string;
  cdnId: number;
}

/**
 * `action` and `cdnId` by JSON type only: an unknown action and a missing CDN are reported with the
 * topology's existence, in one alert (TopologiesService.queueUpdates). A missing `cdnId` reads as 0.
 */
export function parseTopologyQueueUpdate(raw: unknown): TopologyQueueUpdateInput {
  if (!isObject(raw)) {
    throw new BadRequestException(BODY_NOT_AN_OBJECT);
  }
  let cdnId = 0;
  if (raw.cdnId !== undefined && raw.cdnId !== null) {
    const problem = intProblem(raw.cdnId);
    if (problem !== undefined) {
      throw new BadRequestException(`'cdnId' ${problem}`);
    }
    cdnId = raw.cdnId as number;
  }
  return { action: text(raw.action, 'action'), cdnId };
}

/** The body class of POST topologies/{name}/queue_update, read by parseTopologyQueueUpdate. */
export class TopologyQueueUpdateBody {
  static readonly schema: JsonSchema = {
    type: 'object',
    properties: {
      action: { type: 'string', enum: ['queue', 'dequeue'] },
      cdnId: { type: 'integer', description: 'the CDN whose servers in the topology are queued' },
    },
    required: ['action', 'cdnId'],
  };
  static readonly parse = (raw: unknown): TopologyQueueUpdateInput => parseTopologyQueueUpdate(raw);
}
