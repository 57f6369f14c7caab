import {
  BadRequestException,
  type ExecutionContext,
  Injectable,
  type PipeTransform,
  type Type,
} from '@nestjs/common';
import type { Request } from 'express';
import { isAuthorized } from 'src/common/guards/authorization.guard';
import {
  hasRequestBody,
  type ObjectOrArray,
  validateObjectOrArray,
} from 'src/common/validation/request-body';
import { collectionOf, readCollection } from 'src/common/validation/body-collections';
import { decodeGoStruct, isGoStruct } from 'src/common/validation/go-struct';
import { validateBody } from 'src/common/validation/versioned-body';
import {
  type ApiVersion,
  type ApiVersionString,
  requestedVersion,
  SERVED_VERSIONS,
} from 'src/common/versioning/api-version';
import { handlerArgument } from 'src/common/request-input/handler-argument';

/**
 * The one way a handler receives a body: `@ValidBody(Dto)`, or one class per version
 * (`@ValidBody({ '3.0': RoleV3Dto, '4.0': RoleV4Dto })`, each from its version on). The class
 * is validated by the same rules and texts as every body (class-validator, fields in schema order,
 * docs/decisions.md#d7); a body the original decodes as a Go struct, stopping at the first bad field
 * in Go's words, is a @GoStruct class (src/common/validation/go-struct.ts, docs/decisions.md#d218),
 * decoded field by field from its GoField decorators. A body that is a bare JSON array of items, or an
 * object keyed by free names, is declared `ArrayOf(Item, options)` / `MapOf(Value, options)`
 * (src/common/validation/body-collections.ts, docs/decisions.md#d229): each item read by the same engine,
 * its texts naming the item (`[0].name`). The few classes left with a hand static
 * `parse(raw, context)` are listed in src/app.hand-parsers.spec.ts. The handler's signature names the
 * class, and the OpenAPI documents read each version's request schema from it.
 */
export interface BodyContext {
  version: ApiVersion;
  /** Whether the request carried a body at all (the JSON parser turns none into `{}`). */
  present: boolean;
}

/** A body class; with a static `parse` (an allow-listed few), it validates itself. */
export type BodyType<T extends object = object> = Type<T> & {
  parse?: (raw: unknown, context: BodyContext) => unknown;
};

export type VersionedBodyTypes = Partial<Record<ApiVersionString, BodyType>>;

export interface BodyOptions {
  /** One object or an array of objects, each validated in order (ObjectOrArray). */
  many?: boolean;
  /** A request without any body → 400 `no request body supplied`, as the original's multi-creates. */
  required?: boolean;
  /**
   * The handler gets a DeferredBody and reads it when the original does: after the lookups that
   * answer first (e.g. the federation's 404 before the body's 400).
   */
  deferred?: boolean;
}

/** A body validated when the handler reads it (`@ValidBody(Type, { deferred: true })`). */
export class DeferredBody<T> {
  constructor(private readonly validate: () => Promise<unknown>) {}

  async read(): Promise<T> {
    return (await this.validate()) as T;
  }
}

export interface BodyDeclaration {
  types: VersionedBodyTypes;
  options: BodyOptions;
}

/** Metadata on a handler: its body declaration (read by the OpenAPI documents). */
export const BODY_DECLARATION = 'cdn:body-declaration';

export const NO_REQUEST_BODY = 'no request body supplied';

/** The class of `version`: the one declared for the newest version not above it. */
export function bodyTypeFor(types: VersionedBodyTypes, version: ApiVersion): BodyType | undefined {
  let chosen: BodyType | undefined;
  for (const served of SERVED_VERSIONS) {
    if (version.atLeast(served)) {
      chosen = types[served] ?? chosen;
    }
  }
  return chosen;
}

interface RawBody {
  raw: unknown;
  context: BodyContext;
}

const RawBody = handlerArgument((_data: unknown, ctx: ExecutionContext): RawBody => {
  const req = ctx.switchToHttp().getRequest<Request>();
  // Guards run before parameters in Nest; this keeps it so for every body, whatever changes around
  // it: whoever may not call the route never learns what its body should be (docs/decisions.md#d116).
  if (!isAuthorized(req)) {
    throw new Error('a request body was read before the route authorized the request');
  }
  return {
    raw: req.body as unknown,
    context: { version: requestedVersion(req), present: hasRequestBody(req) },
  };
});

@Injectable()
class BodyPipe implements PipeTransform<RawBody, Promise<unknown>> {
  constructor(private readonly declaration: BodyDeclaration) {}

  transform(body: RawBody): Promise<unknown> {
    return this.declaration.options.deferred
      ? Promise.resolve(new DeferredBody(() => this.validate(body)))
      : this.validate(body);
  }

  private async validate({ raw, context }: RawBody): Promise<unknown> {
    const { types, options } = this.declaration;
    const type = bodyTypeFor(types, context.version);
    if (!type) {
      throw new Error(`no body class declared for API ${context.version.toString()}`);
    }
    if (options.required && !context.present) {
      throw new BadRequestException(NO_REQUEST_BODY);
    }
    if (options.many) {
      return validateObjectOrArray(raw, type);
    }
    const collection = collectionOf(type);
    if (collection) {
      return readCollection(raw, collection, context);
    }
    if (isGoStruct(type)) {
      return decodeGoStruct(raw, type, context);
    }
    return type.parse ? type.parse(raw, context) : validateBody(raw, type);
  }
}

export function ValidBody(
  types: BodyType | VersionedBodyTypes,
  options: BodyOptions = {},
): ParameterDecorator {
  const declaration: BodyDeclaration = {
    types: typeof types === 'function' ? { '3.0': types } : types,
    options,
  };
  return (target, key, index) => {
    if (key !== undefined) {
      Reflect.defineMetadata(BODY_DECLARATION, declaration, (target as Record<string | symbol, object>)[key]);
    }
    RawBody(undefined, new BodyPipe(declaration))(target, key, index);
  };
}

export type { ObjectOrArray };
