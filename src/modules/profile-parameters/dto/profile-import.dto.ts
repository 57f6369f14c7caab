import { BadRequestException } from '@nestjs/common';
import type { JsonSchema } from 'src/common/validation/json-schema';
import type { BodyContext } from 'src/common/validation/valid-body';

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

export interface ImportedParameter {
  configFile: string;
  name: string;
  value: string;
}

const TEXT_LIMITS: Record<string, number> = { name: 255, description: 65535, cdn: 255, type: 32 };
const PARAMETER_LIMITS: Record<string, number> = { config_file: 1024, name: 1024, value: 65535 };

/**
 * Body of POST /profiles/import (docs/original-behaviour.md#profile-import): the profile as the
 * export writes it (`profile: {name, description, cdn, type}`, `parameters: [{config_file, name,
 * value}]`). Wrong JSON types answer `decoding: …`; the fields' rules `validating: …` in the
 * original's words and order (the CDN's and the name's existence are the service's, in the same
 * list).
 */
export class ProfileImportBody {
  name!: string;
  description!: string;
  cdn!: string;
  type!: string;
  parameters!: ImportedParameter[];
  /**
   * The problems of the profile's fields and of the parameters; the service answers them with its
   * own (the CDN's and the name's existence) between them, as the original lists them.
   */
  problems!: string[];
  parameterProblems!: string[];

  static readonly schema: JsonSchema = {
    type: 'object',
    properties: {
      profile: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          description: { type: 'string' },
          cdn: { type: 'string' },
          type: { type: 'string' },
        },
        required: ['name', 'description', 'cdn', 'type'],
      },
      parameters: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            config_file: { type: 'string' },
            name: { type: 'string' },
            value: { type: 'string' },
          },
          required: ['config_file', 'name', 'value'],
        },
      },
    },
    required: ['profile'],
  };

  static readonly parse = (raw: unknown, { present }: BodyContext): ProfileImportBody => {
    if (!present) {
      throw new BadRequestException('decoding: EOF');
    }
    if (!isPlainObject(raw)) {
      throw new BadRequestException('decoding: the request body must be a JSON object');
    }
    const decoding: string[] = [];
    const profile = raw.profile ?? {};
    if (!isPlainObject(profile)) {
      decoding.push("'profile' must be a JSON object");
    }
    const fields = isPlainObject(profile) ? profile : {};
    for (const [field, limit] of Object.entries(TEXT_LIMITS)) {
      const value = fields[field];
      if (value !== undefined && value !== null) {
        if (typeof value !== 'string') {
          decoding.push(`'${field}' must be a string`);
        } else if (value.length > limit) {
          decoding.push(`'${field}' the length must be no more than ${limit}`);
        }
      }
    }
    const rawParameters = raw.parameters ?? [];
    if (!Array.isArray(rawParameters)) {
      decoding.push("'parameters' must be an array");
    }
    const parameters = (Array.isArray(rawParameters) ? rawParameters : []) as unknown[];
    parameters.forEach((p, i) => {
      if (!isPlainObject(p)) {
        decoding.push(`parameter ${i}: must be a JSON object`);
        return;
      }
      for (const [field, limit] of Object.entries(PARAMETER_LIMITS)) {
        const value = p[field];
        if (value !== undefined && value !== null) {
          if (typeof value !== 'string') {
            decoding.push(`parameter ${i}: '${field}' must be a string`);
          } else if (value.length > limit) {
            decoding.push(`parameter ${i}: '${field}' the length must be no more than ${limit}`);
          }
        }
      }
    });
    if (decoding.length > 0) {
      throw new BadRequestException(`decoding: ${decoding.join(', ')}`);
    }
    const text = (field: string): string => (typeof fields[field] === 'string' ? fields[field] : '');
    const problems: string[] = [];
    const name = text('name');
    if (name === '') {
      problems.push("'name' required and cannot be blank");
    } else if (name.includes(' ')) {
      problems.push("'name' cannot contain spaces");
    }
    for (const [field, label] of [
      ['description', 'description'],
      ['cdn', 'cdnName'],
      ['type', 'type'],
    ]) {
      if (text(field) === '') {
        problems.push(`'${label}' cannot be blank`);
      }
    }
    const body = new ProfileImportBody();
    body.name = name;
    body.description = text('description');
    body.cdn = text('cdn');
    body.type = text('type');
    body.problems = problems;
    body.parameterProblems = [];
    body.parameters = (parameters as Record<string, unknown>[]).map((p) => ({
      configFile: (p.config_file as string | null | undefined) ?? '',
      name: (p.name as string | null | undefined) ?? '',
      value: p.value as string,
    }));
    (parameters as Record<string, unknown>[]).forEach((p, i) => {
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
    return body;
  };
}
