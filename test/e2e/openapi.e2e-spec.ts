import request from 'supertest';
import type { App } from 'supertest/types';
import { AppModule } from 'src/app.module';
import { isListRoute, routesOfModule } from 'src/common/routes/route-inventory';
import { BODY_DECLARATION } from 'src/common/validation/valid-body';
import { SERVED_VERSIONS } from 'src/common/versioning/api-version';
import type { JsonSchema } from 'src/common/validation/json-schema';
import { useApp } from 'test/e2e/support/suite';

interface Document {
  openapi: string;
  info: { version: string };
  paths: Record<
    string,
    Record<
      string,
      {
        operationId?: string;
        summary?: string;
        tags?: string[];
        security?: unknown;
        'x-permissions'?: string[];
        requestBody?: { content: Record<string, { schema: JsonSchema }> };
        parameters?: { name: string; in: string; required?: boolean; schema: JsonSchema }[];
      }
    >
  >;
}

/** `:id` in a route path is `{id}` in an OpenAPI path. */
const openApiPath = (version: string, path: string) =>
  `/api/${version}/${path.replace(/^\//, '').replace(/:(\w+)/g, '{$1}')}`.replace(/\/$/, '');

describe('API document (OpenAPI 3)', () => {
  const { app } = useApp();
  let server: App;
  const documents = new Map<string, Document>();

  beforeAll(async () => {
    server = app.getHttpServer() as App;
    for (const version of SERVED_VERSIONS) {
      const res = await request(server).get(`/api/${version}/openapi.json`);
      expect(res.status).toBe(200);
      documents.set(version, res.body as Document);
    }
  });

  it('is served per version without a session', () => {
    for (const [version, document] of documents) {
      expect(document.openapi).toMatch(/^3\./);
      expect(document.info.version).toBe(version);
      expect(
        Object.keys(document.paths).every((p) => !p.startsWith('/api/') || p.startsWith(`/api/${version}/`)),
      ).toBe(true);
    }
  });

  it('lists every route of the code in the version it exists in', () => {
    const missing: string[] = [];
    for (const route of routesOfModule(AppModule)) {
      for (const version of route.versions) {
        if (version === 'neutral') {
          continue;
        }
        const operation =
          documents.get(version)?.paths[openApiPath(version, route.path)]?.[route.method.toLowerCase()];
        if (!operation) {
          missing.push(`${route.method} ${openApiPath(version, route.path)} (${route.name})`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it("describes the body of every operation that takes one, in each version, from the body's class", () => {
    const undescribed: string[] = [];
    for (const route of routesOfModule(AppModule)) {
      if (!Reflect.hasMetadata(BODY_DECLARATION, route.handler)) {
        continue;
      }
      for (const version of route.versions) {
        const path = openApiPath(version, route.path);
        const body = documents.get(version)?.paths[path]?.[route.method.toLowerCase()]?.requestBody;
        const schema = body?.content['application/json']?.schema;
        const object = schema?.oneOf?.[0] ?? schema;
        // An object (an array of objects, a map of objects) names its properties (its items', its
        // values'); an array of scalars, its items' type.
        const scalarItems =
          object?.type === 'array' && object.items?.type !== undefined && !object.items.properties;
        const properties =
          object?.properties ?? object?.items?.properties ?? object?.additionalProperties?.properties ?? {};
        if (!object || (!scalarItems && Object.keys(properties).length === 0)) {
          undescribed.push(`${route.method} ${path}`);
        }
      }
    }
    expect(undescribed).toEqual([]);
    const bodyOf = (path: string, method = 'post') =>
      documents.get('4.0')!.paths[`/api/4.0/${path}`][method].requestBody!.content['application/json'].schema;
    // The collection bodies (ArrayOf, MapOf): an array of the item's schema, a map of the value's.
    expect(bodyOf('servers/{id}/deliveryservices')).toEqual({
      type: 'array',
      description: 'delivery service ids, at most 10000',
      items: { type: 'integer' },
    });
    expect(bodyOf('federations', 'put')).toEqual(
      expect.objectContaining({
        type: 'array',
        items: expect.objectContaining({
          type: 'object',
          properties: expect.objectContaining({ mappings: expect.objectContaining({ type: 'object' }) }),
          required: ['deliveryService'],
        }),
      }),
    );
    expect(bodyOf('deliveryservices/{xmlID}/urisignkeys')).toEqual(
      expect.objectContaining({
        type: 'object',
        additionalProperties: expect.objectContaining({
          properties: expect.objectContaining({ keys: expect.objectContaining({ type: 'array' }) }),
        }),
      }),
    );
    const create = documents.get('4.0')!.paths['/api/4.0/cdns'].post.requestBody!;
    expect(create.content['application/json'].schema).toEqual({
      type: 'object',
      properties: expect.objectContaining({
        name: expect.objectContaining({ type: 'string' }),
        dnssecEnabled: expect.objectContaining({ type: 'boolean' }),
      }),
      required: ['name', 'domainName'],
    });
  });

  it('lists the query parameters of every list operation, per version', () => {
    const incomplete: string[] = [];
    for (const route of routesOfModule(AppModule).filter(isListRoute)) {
      for (const version of route.versions) {
        const path = openApiPath(version, route.path);
        const names = (documents.get(version)?.paths[path]?.get?.parameters ?? [])
          .filter((p) => p.in === 'query')
          .map((p) => p.name);
        if (!['orderby', 'sortOrder', 'limit', 'offset', 'page'].every((name) => names.includes(name))) {
          incomplete.push(`GET ${path}`);
        }
      }
    }
    expect(incomplete).toEqual([]);
    const query = (version: string) =>
      documents.get(version)!.paths[`/api/${version}/cdns`].get.parameters!.map((p) => p.name);
    expect(query('4.1')).toEqual(expect.arrayContaining(['name', 'domainName', 'ttlOverride']));
    expect(query('4.0')).not.toContain('ttlOverride');
  });

  it("lists every path parameter of every operation, and the handlers' query parameters", () => {
    const undeclared: string[] = [];
    for (const route of routesOfModule(AppModule)) {
      for (const version of route.versions.filter((v) => v !== 'neutral')) {
        const path = openApiPath(version, route.path);
        const parameters =
          documents.get(version)?.paths[path]?.[route.method.toLowerCase()]?.parameters ?? [];
        for (const name of [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1])) {
          if (!parameters.some((p) => p.in === 'path' && p.name === name && p.required === true)) {
            undeclared.push(`${route.method} ${path}: {${name}}`);
          }
        }
      }
    }
    expect(undeclared).toEqual([]);
    const parameters = (version: string, path: string, method: string) =>
      documents
        .get(version)!
        .paths[`/api/${version}/${path}`][method].parameters!.map(
          ({ name, in: where, required, schema }) => ({ name, in: where, required, schema }),
        );
    expect(parameters('4.0', 'cdns/{id}', 'put')).toEqual([
      { name: 'id', in: 'path', required: true, schema: { type: 'integer' } },
    ]);
    expect(parameters('5.0', 'coordinates', 'delete')).toEqual([
      { name: 'id', in: 'query', required: true, schema: { type: 'integer' } },
    ]);
    expect(parameters('4.0', 'server_server_capabilities', 'delete')).toEqual([
      { name: 'serverId', in: 'query', required: true, schema: { type: 'integer' } },
      { name: 'serverCapability', in: 'query', required: true, schema: { type: 'string' } },
    ]);
    expect(parameters('5.0', 'cdns/{name}/federations/{id}', 'put')).toEqual([
      { name: 'name', in: 'path', required: true, schema: { type: 'string' } },
      { name: 'id', in: 'path', required: true, schema: { type: 'integer' } },
    ]);
    expect(parameters('4.0', 'user/logout', 'post')).toEqual([
      { name: 'all', in: 'query', required: false, schema: { type: 'boolean' } },
    ]);
    // Each version documents the keys its handler reads: the failure flags from 5.0, apply times from 4.0.
    const update = (version: string) =>
      parameters(version, 'servers/{idOrName}/update', 'post').map((p) => `${p.name} ${p.schema.type}`);
    expect(update('3.1')).toEqual(['idOrName string', 'updated boolean', 'reval_updated boolean']);
    expect(update('4.0')).toEqual([
      'idOrName string',
      'updated boolean',
      'reval_updated boolean',
      'config_apply_time string',
      'revalidate_apply_time string',
    ]);
    expect(update('5.0')).toEqual([
      ...update('4.0'),
      'config_update_failed boolean',
      'revalidate_update_failed boolean',
    ]);
    expect(parameters('3.1', 'roles', 'delete')).toEqual([
      { name: 'id', in: 'query', required: true, schema: { type: 'integer' } },
    ]);
    expect(parameters('4.0', 'roles', 'delete')).toEqual([
      { name: 'name', in: 'query', required: true, schema: { type: 'string' } },
    ]);
    expect(parameters('4.0', 'cache_stats', 'get')).toContainEqual(
      expect.objectContaining({ name: 'limit', schema: { type: 'integer' } }),
    );
    expect(parameters('5.0', 'deliveryservices', 'get')).toContainEqual({
      name: 'active',
      in: 'query',
      required: false,
      schema: { type: 'string', enum: ['ACTIVE', 'INACTIVE', 'PRIMED'] },
    });
    expect(parameters('4.0', 'deliveryservices', 'get')).toContainEqual(
      expect.objectContaining({ name: 'active', schema: { type: 'boolean' } }),
    );
  });

  it('gives every operation of every version a summary and a tag', () => {
    const methods = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']);
    const undocumented: string[] = [];
    let operations = 0;
    for (const [version, document] of documents) {
      for (const [path, item] of Object.entries(document.paths)) {
        if (!path.startsWith(`/api/${version}/`)) {
          continue;
        }
        for (const [method, operation] of Object.entries(item)) {
          if (!methods.has(method)) {
            continue;
          }
          operations += 1;
          if (typeof operation.summary !== 'string' || operation.summary.trim() === '') {
            undocumented.push(`${method.toUpperCase()} ${path}: no summary`);
          }
          if (!Array.isArray(operation.tags) || operation.tags.length === 0) {
            undocumented.push(`${method.toUpperCase()} ${path}: no tags`);
          }
        }
      }
    }
    expect(operations).toBeGreaterThan(SERVED_VERSIONS.length * 100);
    expect(undocumented).toEqual([]);
    const list = documents.get('5.0')!.paths['/api/5.0/cdns'].get;
    expect(list.summary).toBe('List the CDNs');
    expect(list.tags).toEqual(['cdns']);
  });

  it('says which operations need a session and which permissions (4.0 and later)', () => {
    const list = documents.get('4.0')!.paths['/api/4.0/cdns'].get;
    expect(list.security).toEqual([{ session: [] }]);
    expect(list['x-permissions']).toEqual(['CDN:READ']);
    expect(documents.get('3.0')!.paths['/api/3.0/cdns'].get['x-permissions']).toBeUndefined();
    expect(documents.get('4.0')!.paths['/api/4.0/user/login'].post.security).toBeUndefined();
  });

  it('is browsable, opening on the newest version', async () => {
    const res = await request(server).get('/api/docs/');
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/swagger-ui/i);
    const init = await request(server).get('/api/docs/swagger-ui-init.js');
    expect(init.text).toContain('"urls.primaryName": "API 5.0"');
    expect(init.text.indexOf('/api/5.0/openapi.json')).toBeLessThan(
      init.text.indexOf('/api/3.0/openapi.json'),
    );
  });
});
