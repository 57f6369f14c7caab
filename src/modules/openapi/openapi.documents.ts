import { Injectable, type INestApplication, type Type } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { PermissionsMetadata, Public, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { routesOfModule } from 'src/common/routes/route-inventory';
import type { ListSpecFor } from 'src/common/list-query/list-query';
import { declaredInputs, ruleFor } from 'src/common/request-input/request-input';
import { BODY_DECLARATION, type BodyDeclaration, bodyTypeFor } from 'src/common/validation/valid-body';
import { ApiVersion, SERVED_VERSIONS } from 'src/common/versioning/api-version';
import { requestBodySchema } from 'src/common/validation/json-schema';
import { routeBodySchema, wireSchemas } from 'src/common/wire/schemas/wire-schemas';
import { WireCompatService } from 'src/common/wire/wire-compat.service';
import type { WireCompat } from 'src/common/wire/wire-compat';
import { dateFormatFor, WireTimes } from 'src/common/wire/wire-times';
import { formatRfc3339 } from 'src/common/time/timestamps';
import { type OpenApiSchema, ResponseSchemas } from './openapi.responses';

type Operation = Record<string, unknown>;

const VERSIONED_PREFIX = '/api/{version}/';

const LIST_TYPES = { int: 'integer', bigint: 'integer', bool: 'boolean', string: 'string' } as const;

/** The query parameters of a list route in one version: its filters, then the paging conventions. */
function listParameters(specFor: ListSpecFor, version: ApiVersion): Record<string, unknown>[] {
  const spec = specFor(version);
  const known = Object.entries(spec.fields).filter(
    ([, field]) => !field.since || version.atLeast(field.since),
  );
  const query = (name: string, schema: Record<string, unknown>, description: string) => ({
    name,
    in: 'query',
    required: false,
    schema,
    description,
  });
  return [
    ...known
      .filter(([, field]) => field.filter !== false)
      .map(([name, field]) =>
        query(
          name,
          { type: LIST_TYPES[field.type ?? 'string'], ...(field.oneOf ? { enum: field.oneOf } : {}) },
          `only items whose ${name} is this`,
        ),
      ),
    query(
      'orderby',
      { type: 'string', enum: known.map(([name]) => name) },
      `field to order by (default ${spec.defaultOrder})`,
    ),
    query('sortOrder', { type: 'string', enum: ['asc', 'desc'] }, 'order direction (default asc)'),
    query('limit', { type: 'integer', minimum: -1 }, 'most items to answer (-1: all)'),
    query('offset', { type: 'integer', minimum: 1 }, 'items to skip (with limit)'),
    query(
      'page',
      { type: 'integer', minimum: 1 },
      'page of `limit` items, from 1 (with limit, without offset)',
    ),
  ];
}

/**
 * The path and query parameters a handler declares (src/common/request-input/request-input.ts) in
 * one version: each with its rule's type, a list's filters and paging conventions; a key declared
 * twice (a list key its handler also reads) once. The `version` path parameter is fixed in each
 * document's paths.
 */
function declaredParameters(handler: object, version: ApiVersion): Record<string, unknown>[] {
  const parameters: Record<string, unknown>[] = [];
  const seen = new Set<string>();
  const add = (parameter: Record<string, unknown>) => {
    const key = `${String(parameter.in)} ${String(parameter.name)}`;
    if (!seen.has(key)) {
      seen.add(key);
      parameters.push(parameter);
    }
  };
  for (const input of declaredInputs(handler)) {
    if ('list' in input) {
      listParameters(input.list, version).forEach(add);
      continue;
    }
    const rule = ruleFor(input.rule, version);
    if (!rule || rule.unread) {
      continue;
    }
    add({
      name: input.name,
      in: input.in,
      required: input.in === 'path' || rule.required,
      schema: { type: rule.type, ...(rule.values ? { enum: rule.values } : {}) },
    });
  }
  return parameters;
}

/** The operation with the handler's declared parameters instead of those @nestjs/swagger guessed. */
function withParameters(operation: Operation, parameters: Record<string, unknown>[]): Operation {
  const { parameters: _guessed, ...rest } = operation;
  return parameters.length > 0 ? { ...rest, parameters } : rest;
}

/**
 * An operation's answer: its success status with the body's schema from the wire types
 * (src/common/wire/schemas), or no content where the route answers no body.
 */
function withResponse(operation: Operation, body: OpenApiSchema | null, description: string): Operation {
  const responses = (operation.responses ?? {}) as Record<string, Record<string, unknown>>;
  const status = Object.keys(responses).find((code) => code.startsWith('2')) ?? '200';
  return {
    ...operation,
    responses: {
      ...responses,
      [status]: {
        ...responses[status],
        description,
        ...(body ? { content: { 'application/json': { schema: body } } } : {}),
      },
    },
  };
}

/**
 * The OpenAPI 3 documents of the API, one per served version, generated from the code: routes and
 * DTOs by @nestjs/swagger, then each operation annotated from our own decorators — whether it needs a
 * session, its minimum privilege level and (4.0+) the permissions it requires — and its response
 * from the wire types. Built on first use.
 */
@Injectable()
export class OpenApiDocuments {
  private build?: () => Map<string, OpenAPIObject>;
  private documents?: Map<string, OpenAPIObject>;

  constructor(private readonly wire: WireCompatService) {}

  /** Called by configureApp with the application the documents describe and its root module. */
  describe(app: INestApplication, rootModule: Type): void {
    this.build = () => buildDocuments(app, rootModule, this.wire.mode);
  }

  forVersion(version: string): OpenAPIObject | undefined {
    this.documents ??= this.build?.();
    return this.documents?.get(version);
  }
}

function buildDocuments(
  app: INestApplication,
  rootModule: Type,
  compat: WireCompat,
): Map<string, OpenAPIObject> {
  const config = new DocumentBuilder()
    .setTitle('CDN control plane')
    .setDescription('Traffic Ops compatible CDN configuration management API')
    .setVersion('0.1')
    .addCookieAuth('mojolicious', { type: 'apiKey', in: 'cookie', name: 'mojolicious' }, 'session')
    .build();
  const all = SwaggerModule.createDocument(app, config, {
    operationIdFactory: (controller: string, method: string) => `${controller}.${method}`,
    // Tags come from each controller's @ApiTags, never from its class name.
    autoTagControllers: false,
  });
  const reflector = new Reflector();
  const routes = new Map(routesOfModule(rootModule).map((route) => [route.name, route]));
  const documents = new Map<string, OpenAPIObject>();
  for (const served of SERVED_VERSIONS) {
    const version = ApiVersion.parse(served)!;
    const paths: OpenAPIObject['paths'] = {};
    const responses = new ResponseSchemas(wireSchemas());
    for (const [path, item] of Object.entries(all.paths)) {
      // Routes are declared once as /api/{version}/…; each document holds those of its version.
      const versioned = path.startsWith(VERSIONED_PREFIX);
      const annotated: Record<string, unknown> = {};
      for (const [method, value] of Object.entries(item)) {
        const operation = value as Operation;
        const route = routes.get(String(operation.operationId));
        if (!route) {
          annotated[method] = operation;
          continue;
        }
        if (versioned && !route.versions.includes(served)) {
          continue;
        }
        const targets = [route.handler, route.controller];
        const open = reflector.getAllAndOverride(Public, targets) === true;
        const permissions = reflector.getAllAndOverride(PermissionsMetadata, targets) ?? [];
        const body = Reflect.getMetadata(BODY_DECLARATION, route.handler) as BodyDeclaration | undefined;
        const bodyType = body && bodyTypeFor(body.types, version);
        const wireBody = routeBodySchema(route.name, version);
        if (wireBody === undefined) {
          throw new Error(`no wire schema for ${route.name}: run npm run wire-schemas`);
        }
        const rfc3339 =
          dateFormatFor(reflector.getAllAndOverride(WireTimes, targets), version, compat) === formatRfc3339;
        const described = withResponse(
          withParameters(operation, declaredParameters(route.handler, version)),
          wireBody && responses.body(wireBody, rfc3339),
          wireBody ? 'success' : 'success, with no body',
        );
        annotated[method] = {
          ...described,
          ...(body && bodyType
            ? {
                requestBody: {
                  required: body.options.required ?? false,
                  content: { 'application/json': { schema: requestBodySchema(body, bodyType) } },
                },
              }
            : {}),
          ...(open
            ? {}
            : {
                security: [{ session: [] }],
                'x-min-privilege-level': reflector.getAllAndOverride(RequirePrivLevel, targets),
                ...(version.atLeast('4.0') && permissions.length > 0 ? { 'x-permissions': permissions } : {}),
              }),
        };
      }
      if (Object.keys(annotated).length > 0) {
        paths[versioned ? `/api/${served}/${path.slice(VERSIONED_PREFIX.length)}` : path] = annotated;
      }
    }
    documents.set(served, {
      ...all,
      info: { ...all.info, version: served },
      paths,
      components: { ...all.components, schemas: { ...all.components?.schemas, ...responses.components } },
    });
  }
  return documents;
}
