import { GoField } from 'src/common/validation/go-field';
import { type ColumnRead, GoStruct } from 'src/common/validation/go-struct';

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

export interface ImportedParameter {
  configFile: string;
  name: string;
  value: string;
}

const TEXT_LIMITS: Record<string, number> = { name: 255, description: 65535, cdn: 255, type: 32 };
const PARAMETER_LIMITS: Record<string, number> = { config_file: 1024, name: 1024, value: 65535 };

/** The problems of a part of the body, each as its full text, joined as all are (`, `). */
function readOrList(problems: string[], value: unknown): ColumnRead {
  return problems.length > 0 ? { problem: problems.join(', ') } : { value };
}

/** A JSON string of at most `limit` characters, or its problem (`'<field>' must be a string`). */
function textProblem(value: unknown, field: string, limit: number): string | undefined {
  if (value === undefined || value === null) {
    return undefined;
  }
  if (typeof value !== 'string') {
    return `'${field}' must be a string`;
  }
  return value.length > limit ? `'${field}' the length must be no more than ${limit}` : undefined;
}

function readProfile(value: unknown): ColumnRead {
  if (value === null) {
    return { value: {} };
  }
  if (!isPlainObject(value)) {
    return { problem: "'profile' must be a JSON object" };
  }
  const problems = Object.entries(TEXT_LIMITS)
    .map(([field, limit]) => textProblem(value[field], field, limit))
    .filter((problem) => problem !== undefined);
  return readOrList(problems, value);
}

function readParameters(value: unknown): ColumnRead {
  if (value === null) {
    return { value: [] };
  }
  if (!Array.isArray(value)) {
    return { problem: "'parameters' must be an array" };
  }
  const problems: string[] = [];
  (value as unknown[]).forEach((p, i) => {
    if (!isPlainObject(p)) {
      problems.push(`parameter ${i}: must be a JSON object`);
      return;
    }
    for (const [field, limit] of Object.entries(PARAMETER_LIMITS)) {
      const problem = textProblem(p[field], field, limit);
      if (problem !== undefined) {
        problems.push(`parameter ${i}: ${problem}`);
      }
    }
  });
  return readOrList(problems, value);
}

/** The fields' rules, in the original's words and order, kept for the service to answer (see above). */
function readRules(body: ProfileImportBody): undefined {
  const text = (field: string): string => {
    const value = body.profile[field];
    return typeof value === 'string' ? value : '';
  };
  body.name = text('name');
  body.description = text('description');
  body.cdn = text('cdn');
  body.type = text('type');
  if (body.name === '') {
    body.problems.push("'name' required and cannot be blank");
  } else if (body.name.includes(' ')) {
    body.problems.push("'name' cannot contain spaces");
  }
  for (const [field, label] of [
    ['description', 'description'],
    ['cdn', 'cdnName'],
    ['type', 'type'],
  ]) {
    if (text(field) === '') {
      body.problems.push(`'${label}' cannot be blank`);
    }
  }
  body.parameters = body.parameterRecords.map((p) => ({
    configFile: (p.config_file as string | null | undefined) ?? '',
    name: (p.name as string | null | undefined) ?? '',
    value: p.value as string,
  }));
  body.parameterRecords.forEach((p, i) => {
    const missing: string[] = [];
    if (!p.config_file) {
      missing.push('configFile');
    }
    if (!p.name) {
      missing.push('name');
    }
    if (p.value === undefined || p.value === null) {
      missing.push('value');
    }
    if (missing.length > 0) {
      body.parameterProblems.push(`parameter ${i}: required fields missing: ${missing.join(', ')}`);
    }
  });
  return undefined;
}

const TEXT = { type: 'string' };

/**
 * Body of POST /profiles/import (docs/original-behaviour.md#profile-import): the profile as the
 * export writes it (`profile: {name, description, cdn, type}`, `parameters: [{config_file, name,
 * value}]`). Wrong JSON types answer `decoding: …`, every problem listed; the fields' rules
 * (`validating: …`, in the original's words and order) are kept in `problems` and
 * `parameterProblems`: the service answers them with its own (the CDN's and the name's existence)
 * between them, as the original lists them.
 */
@GoStruct<ProfileImportBody>('ProfileExportImportNullable', {
  failure: 'decoding: ',
  withCause: true,
  eofWhenNoBody: true,
  notAnObject: 'decoding: the request body must be a JSON object',
  check: readRules,
})
export class ProfileImportBody {
  @GoField.collected(
    readProfile,
    {
      type: 'object',
      properties: { name: TEXT, description: TEXT, cdn: TEXT, type: TEXT },
      required: ['name', 'description', 'cdn', 'type'],
    },
    { key: 'profile', required: true },
  )
  profile: Record<string, unknown> = {};

  @GoField.collected(
    readParameters,
    {
      type: 'array',
      items: {
        type: 'object',
        properties: { config_file: TEXT, name: TEXT, value: TEXT },
        required: ['config_file', 'name', 'value'],
      },
    },
    { key: 'parameters' },
  )
  parameterRecords: Record<string, unknown>[] = [];

  name = '';
  description = '';
  cdn = '';
  type = '';
  parameters: ImportedParameter[] = [];
  problems: string[] = [];
  parameterProblems: string[] = [];
}
