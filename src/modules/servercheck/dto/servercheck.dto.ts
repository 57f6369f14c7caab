import { GoField } from 'src/common/validation/go-field';
import { GoStruct } from 'src/common/validation/go-struct';
import { BODY_NOT_AN_OBJECT } from 'src/common/validation/validation.options';

/**
 * The servercheck bodies, decoded as the original's Go structs (`*string` / `*int` fields: null or
 * absent is undefined), stopping at the first field of a wrong JSON type in Go's words; an int
 * beyond its 32-bit column is `'<field>' must be no greater than …` (docs/decisions.md#d225).
 */
const DECODED = { failure: '', withCause: true, notAnObject: BODY_NOT_AN_OBJECT };

const INT = { goType: 'int' };

/** POST servercheck: the server by `id` or `host_name`, the check by `servercheck_short_name`, its `value`. */
export interface ServercheckRequest {
  id?: number;
  hostName?: string;
  shortName: string;
  value: number | null;
}

/** The original's presence rule of POST servercheck: `required fields missing: …`. */
function missingServercheckFields(body: ServercheckBody): string | undefined {
  const missing: string[] = [];
  if (body.id === undefined && body.hostName === undefined) {
    missing.push('id or host_name');
  }
  if (!body.shortName) {
    missing.push('servercheck_short_name');
  }
  return missing.length > 0 ? `required fields missing: ${missing.join(', ')}` : undefined;
}

@GoStruct<ServercheckBody>('ServercheckRequestNullable', { ...DECODED, check: missingServercheckFields })
export class ServercheckBody implements ServercheckRequest {
  @GoField.string({ key: 'servercheck_short_name', required: true, schema: { description: 'the check' } })
  shortName = '';

  @GoField.int({ ...INT, schema: { description: 'the server by id (this or host_name)' } })
  id?: number;

  @GoField.int({ ...INT, schema: { description: 'the check result' } })
  value: number | null = null;

  @GoField.string({ key: 'host_name', schema: { description: 'the server by host name' } })
  hostName?: string;
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

/** The original's rules: each required field present, the type `CHECK_EXTENSION_…`, isactive 0 or 1, no id. */
function extensionProblems(body: ExtensionBody): string | undefined {
  const problems: string[] = [];
  const required: [string, unknown][] = [
    ['name', body.name],
    ['version', body.version],
    ['info_url', body.infoUrl],
    ['script_file', body.scriptFile],
  ];
  for (const [name, value] of required) {
    if (value === undefined) {
      problems.push(`'${name}' is required`);
    }
  }
  if (body.type === undefined) {
    problems.push("'type' is required");
  } else if (!/^CHECK_EXTENSION_/.test(body.type)) {
    problems.push("'type' must be in a valid format");
  }
  if (body.isActive === undefined) {
    problems.push("'isactive' is required");
  }
  if (body.id !== undefined) {
    problems.push('ServerCheckExtension update not supported; delete and re-add.');
  }
  if (body.isActive !== undefined && body.isActive !== 0 && body.isActive !== 1) {
    problems.push('isactive can only be 0 or 1.');
  }
  return problems.length > 0 ? problems.join(', ') : undefined;
}

@GoStruct<ExtensionBody>('ServerCheckExtensionNullable', { ...DECODED, check: extensionProblems })
export class ExtensionBody implements ExtensionRequest {
  /** Refused when given: an extension is never updated. */
  @GoField.int({ ...INT, schema: { description: 'refused: an extension is deleted and re-added' } })
  id?: number;

  @GoField.string({ required: true })
  name!: string;

  @GoField.string({ required: true })
  version!: string;

  @GoField.string({ key: 'info_url', required: true })
  infoUrl!: string;

  @GoField.string({ key: 'script_file', required: true })
  scriptFile!: string;

  @GoField.int({ ...INT, key: 'isactive', required: true, schema: { description: '0 or 1' } })
  isActive!: number;

  @GoField.string({ key: 'additional_config_json' })
  additionalConfigJson: string | null = null;

  @GoField.string()
  description: string | null = null;

  @GoField.string({ key: 'servercheck_short_name' })
  shortName: string | null = null;

  @GoField.string({
    required: true,
    schema: { description: 'CHECK_EXTENSION_BOOL or CHECK_EXTENSION_NUM' },
  })
  type!: string;
}
