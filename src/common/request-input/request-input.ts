import type { ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { ListSpec } from 'src/common/list-query/list-query';
import type { ParamRule } from 'src/common/request-input/param-rules';
import {
  type ApiVersion,
  type ApiVersionString,
  requestedVersion,
  SERVED_VERSIONS,
} from 'src/common/versioning/api-version';
import { handlerArgument } from 'src/common/request-input/handler-argument';

/**
 * The one way a handler receives path and query parameters, declared as bodies are (@ValidBody):
 *
 * - `@ValidPath('id', IntKey())`, `@ValidQuery('id', IntParam())`: one parameter's value;
 * - `@ValidQuery({ days: OptionalIntParam(), username: TextParam() })`: several, as a record of the
 *   declared keys only;
 * - a rule per version where the original's handler (and so its wording) changes:
 *   `@ValidQuery('id', { '3.0': IntKey(), '5.0': IntParam() })`, each from its version on;
 * - `NotRead()` as a version's rule: a key read in other versions only (undocumented in this one);
 * - `{ deferred: true }`: the handler gets a DeferredInput and reads it when the original does (after
 *   the body's validation, e.g.);
 * - `@ListParams(spec)` declares the list conventions' keys through the same metadata.
 *
 * A rule reads the parameter's text — a repeated query key by its first value, here and nowhere
 * else — and refuses it with its wording family's texts (param-texts.ts). The declarations are
 * metadata on the handler (INPUT_DECLARATION): the OpenAPI documents list them as the operation's
 * `parameters`, and the route audit (request-input.routes.spec.ts) checks that every `:param` of a
 * path is declared and that no handler reads the request's parameters any other way.
 */
export type VersionedRules = Partial<Record<ApiVersionString, ParamRule>>;
export type RuleSpec = ParamRule | VersionedRules;

export type DeclaredInput =
  | { in: 'path' | 'query'; name: string; rule: RuleSpec }
  | { in: 'query'; list: (version: ApiVersion) => ListSpec };

/** Metadata on a handler: the parameters it declares, in the order of its decorators. */
export const INPUT_DECLARATION = 'cdn:input-declaration';

export interface InputOptions {
  deferred?: boolean;
}

/** A parameter read when the handler asks (`@ValidQuery(name, rule, { deferred: true })`). */
export class DeferredInput<T> {
  constructor(private readonly readValue: () => T) {}

  read(): T {
    return this.readValue();
  }
}

function isRule(spec: RuleSpec): spec is ParamRule {
  return typeof (spec as ParamRule).read === 'function';
}

/** The rule of `version`: the one declared for the newest version not above it. */
export function ruleFor(spec: RuleSpec, version: ApiVersion): ParamRule | undefined {
  if (isRule(spec)) {
    return spec;
  }
  let chosen: ParamRule | undefined;
  for (const served of SERVED_VERSIONS) {
    if (version.atLeast(served)) {
      chosen = spec[served] ?? chosen;
    }
  }
  return chosen;
}

/**
 * A query value as the handlers see it: a repeated key by its first value (the one place this rule
 * is written); '' for a value that is no text, undefined for none.
 */
export function firstValue(raw: unknown): string | undefined {
  const first: unknown = Array.isArray(raw) ? (raw as unknown[])[0] : raw;
  return first === undefined ? undefined : typeof first === 'string' ? first : '';
}

/** The parameter's text: a path segment as routed, a query key's first value. */
export function inputText(req: Request, source: 'path' | 'query', name: string): string | undefined {
  const values = (source === 'path' ? req.params : req.query) as Record<string, unknown>;
  return firstValue(Object.hasOwn(values, name) ? values[name] : undefined);
}

function readInput(req: Request, source: 'path' | 'query', name: string, spec: RuleSpec): unknown {
  const version = requestedVersion(req);
  const rule = ruleFor(spec, version);
  if (!rule) {
    throw new Error(`no rule declared for the ${source} parameter '${name}' in API ${version.toString()}`);
  }
  return rule.read(inputText(req, source, name), name);
}

function readKeys(
  req: Request,
  source: 'path' | 'query',
  keys: [string, RuleSpec][],
): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [name, spec] of keys) {
    const value = readInput(req, source, name, spec);
    if (value !== undefined) {
      values[name] = value;
    }
  }
  return values;
}

/**
 * The query keys of a declaration read as `@ValidQuery(keys)` reads them, for what runs before the
 * handler and must name the same row (a @ConditionalOn's `row`).
 */
export function readQuery(req: Request, keys: Record<string, RuleSpec>): Record<string, unknown> {
  return readKeys(req, 'query', Object.entries(keys));
}

interface InputData {
  source: 'path' | 'query';
  keys: [string, RuleSpec][];
  single: boolean;
  deferred: boolean;
}

const RequestInput = handlerArgument((data: InputData, ctx: ExecutionContext): unknown => {
  const req = ctx.switchToHttp().getRequest<Request>();
  const read = () => {
    if (data.single) {
      const [name, spec] = data.keys[0];
      return readInput(req, data.source, name, spec);
    }
    return readKeys(req, data.source, data.keys);
  };
  return data.deferred ? new DeferredInput(read) : read();
});

/** Adds `inputs` to the handler's declaration (ListParams declares its keys through it too). */
export function declareInputs(
  target: object,
  key: string | symbol | undefined,
  inputs: DeclaredInput[],
): void {
  if (key === undefined) {
    return;
  }
  const handler = (target as Record<string | symbol, object>)[key];
  const declared = (Reflect.getMetadata(INPUT_DECLARATION, handler) ?? []) as DeclaredInput[];
  // Parameter decorators run last parameter first: prepend to keep the signature's order.
  Reflect.defineMetadata(INPUT_DECLARATION, [...inputs, ...declared], handler);
}

/** The parameters a handler declares. */
export function declaredInputs(handler: object): DeclaredInput[] {
  return (Reflect.getMetadata(INPUT_DECLARATION, handler) ?? []) as DeclaredInput[];
}

function input(
  source: 'path' | 'query',
  nameOrKeys: string | Record<string, RuleSpec>,
  rule: RuleSpec | undefined,
  options: InputOptions,
): ParameterDecorator {
  const keys: [string, RuleSpec][] =
    typeof nameOrKeys === 'string' ? [[nameOrKeys, rule!]] : Object.entries(nameOrKeys);
  const data: InputData = {
    source,
    keys,
    single: typeof nameOrKeys === 'string',
    deferred: options.deferred ?? false,
  };
  return (target, key, index) => {
    declareInputs(
      target,
      key,
      keys.map(([name, spec]) => ({ in: source, name, rule: spec })),
    );
    RequestInput(data)(target, key, index);
  };
}

/** A path parameter (`:name` of the route), read by its rule. */
export function ValidPath(name: string, rule: RuleSpec, options: InputOptions = {}): ParameterDecorator {
  return input('path', name, rule, options);
}

/** A query parameter read by its rule, or several as a record of the declared keys. */
export function ValidQuery(name: string, rule: RuleSpec, options?: InputOptions): ParameterDecorator;
export function ValidQuery(keys: Record<string, RuleSpec>, options?: InputOptions): ParameterDecorator;
export function ValidQuery(
  nameOrKeys: string | Record<string, RuleSpec>,
  ruleOrOptions?: RuleSpec | InputOptions,
  options: InputOptions = {},
): ParameterDecorator {
  return typeof nameOrKeys === 'string'
    ? input('query', nameOrKeys, ruleOrOptions as RuleSpec, options)
    : input('query', nameOrKeys, undefined, (ruleOrOptions as InputOptions | undefined) ?? {});
}
