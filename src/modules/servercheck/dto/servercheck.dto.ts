import { BadRequestException } from '@nestjs/common';
import type { JsonSchema } from 'src/common/validation/json-schema';
import { intProblem } from 'src/common/validation/integers';
import { BODY_NOT_AN_OBJECT } from 'src/common/validation/validation.options';

function objectBody(raw: unknown): Record<string, unknown> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new BadRequestException(BODY_NOT_AN_OBJECT);
  }
  return raw as Record<string, unknown>;
}

/** A field read as the original's Go decoder reads it into `*string` / `*int` (null or absent: undefined). */
function field(body: Record<string, unknown>, struct: string, name: string, kind: 'string' | 'int') {
  const value = body[name];
  if (value === undefined || value === null) {
    return undefined;
  }
  const ok =
    kind === 'string' ? typeof value === 'string' : typeof value === 'number' && Number.isInteger(value);
  if (!ok) {
    const json = Array.isArray(value) ? 'array' : typeof value === 'boolean' ? 'bool' : typeof value;
    throw new BadRequestException(
      `json: cannot unmarshal ${json} into Go struct field ${struct}.${name} of type ${kind}`,
    );
  }
  if (kind === 'int') {
    const problem = intProblem(value);
    if (problem !== undefined) {
      throw new BadRequestException(`'${name}' ${problem}`);
    }
  }
  return value as never;
}

/** POST servercheck: the server by `id` or `host_name`, the check by `servercheck_short_name`, its `value`. */
export interface ServercheckRequest {
  id?: number;
  hostName?: string;
  shortName: string;
  value: number | null;
}

export class ServercheckBody {
  static readonly schema: JsonSchema = {
    type: 'object',
    properties: {
      id: { type: 'integer', description: 'the server by id (this or host_name)' },
      host_name: { type: 'string', description: 'the server by host name' },
      servercheck_short_name: { type: 'string', description: 'the check' },
      value: { type: 'integer', description: 'the check result' },
    },
    required: ['servercheck_short_name'],
  };

  static readonly parse = (raw: unknown): ServercheckRequest => {
    const body = objectBody(raw);
    const struct = 'ServercheckRequestNullable';
    const shortName = field(body, struct, 'servercheck_short_name', 'string') as string | undefined;
    const id = field(body, struct, 'id', 'int') as number | undefined;
    const value = field(body, struct, 'value', 'int') as number | undefined;
    const hostName = field(body, struct, 'host_name', 'string') as string | undefined;
    const missing: string[] = [];
    if (id === undefined && hostName === undefined) {
      missing.push('id or host_name');
    }
    if (!shortName) {
      missing.push('servercheck_short_name');
    }
    if (missing.length > 0) {
      throw new BadRequestException(`required fields missing: ${missing.join(', ')}`);
    }
    return { id, hostName, shortName: shortName!, value: value ?? null };
  };
}

/** POST servercheck/extensions: a check extension to load into an open slot. */
export interface ExtensionRequest {
  name: string;
  version: string;
  infoUrl: string;
  scriptFile: string;
  isActive: number;
  additionalConfigJson: string | null;
  description: string | null;
  shortName: string | null;
  type: string;
}

export class ExtensionBody {
  static readonly schema: JsonSchema = {
    type: 'object',
    properties: {
      name: { type: 'string' },
      version: { type: 'string' },
      info_url: { type: 'string' },
      script_file: { type: 'string' },
      isactive: { type: 'integer', description: '0 or 1' },
      additional_config_json: { type: 'string' },
      description: { type: 'string' },
      servercheck_short_name: { type: 'string' },
      type: { type: 'string', description: 'CHECK_EXTENSION_BOOL or CHECK_EXTENSION_NUM' },
    },
    required: ['name', 'version', 'info_url', 'script_file', 'isactive', 'type'],
  };

  /** The original's rules: each required field present, the type `CHECK_EXTENSION_…`, isactive 0 or 1, no id. */
  static readonly parse = (raw: unknown): ExtensionRequest => {
    const body = objectBody(raw);
    const struct = 'ServerCheckExtensionNullable';
    const text = (name: string) => field(body, struct, name, 'string') as string | undefined;
    const id = field(body, struct, 'id', 'int') as number | undefined;
    const request = {
      name: text('name'),
      version: text('version'),
      infoUrl: text('info_url'),
      scriptFile: text('script_file'),
      isActive: field(body, struct, 'isactive', 'int') as number | undefined,
      additionalConfigJson: text('additional_config_json') ?? null,
      description: text('description') ?? null,
      shortName: text('servercheck_short_name') ?? null,
      type: text('type'),
    };
    const problems: string[] = [];
    const required: [string, unknown][] = [
      ['name', request.name],
      ['version', request.version],
      ['info_url', request.infoUrl],
      ['script_file', request.scriptFile],
    ];
    for (const [name, value] of required) {
      if (value === undefined) {
        problems.push(`'${name}' is required`);
      }
    }
    if (request.type === undefined) {
      problems.push("'type' is required");
    } else if (!/^CHECK_EXTENSION_/.test(request.type)) {
      problems.push("'type' must be in a valid format");
    }
    if (request.isActive === undefined) {
      problems.push("'isactive' is required");
    }
    if (id !== undefined) {
      problems.push('ServerCheckExtension update not supported; delete and re-add.');
    }
    if (request.isActive !== undefined && request.isActive !== 0 && request.isActive !== 1) {
      problems.push('isactive can only be 0 or 1.');
    }
    if (problems.length > 0) {
      throw new BadRequestException(problems.join(', '));
    }
    return request as ExtensionRequest;
  };
}
