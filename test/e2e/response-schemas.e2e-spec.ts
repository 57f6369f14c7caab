import { AppModule } from 'src/app.module';
import { routesOfModule } from 'src/common/routes/route-inventory';
import { ApiVersion, SERVED_VERSIONS } from 'src/common/versioning/api-version';
import { routeBodySchema } from 'src/common/wire/schemas/wire-schemas';
import { createDeliveryService } from 'test/e2e/support/fixtures/delivery-services-api';
import { createSnapshotWorld, type SnapshotWorld } from 'test/e2e/support/fixtures/snapshots';
import { type OpenApiSchema, schemaErrors } from 'test/e2e/support/openapi-schema';
import { useApp } from 'test/e2e/support/suite';

interface Document {
  paths: Record<
    string,
    Record<string, { responses?: Record<string, { content?: Record<string, { schema: OpenApiSchema }> }> }>
  >;
  components: { schemas: Record<string, OpenApiSchema> };
}

/**
 * The OpenAPI documents' response schemas (generated from the wire types, src/common/wire/schemas)
 * checked against what the server answers: every GET route of every version that answers 200
 * without a parameter, and those with one below, on a CDN with servers of each kind and delivery
 * services. A field the server writes that the document does not list, of another type, or missing
 * when required, fails.
 */
describe('response schemas: the server answers as its OpenAPI documents say', () => {
  const { app, admin } = useApp();
  let world: SnapshotWorld;
  const documents = new Map<string, Document>();

  beforeAll(async () => {
    world = await createSnapshotWorld(app, admin);
    await createDeliveryService(admin, world.cdn.id);
    await admin.put(`snapshot?cdn=${world.cdn.name}`).expect(200);
    for (const version of SERVED_VERSIONS) {
      documents.set(version, (await admin.at(version).get('openapi.json').expect(200)).body as Document);
    }
  });

  /** Route path → the request path with the world's values for its parameters. */
  const withParameters = (path: string): string | undefined => {
    const values: Record<string, string> = {
      'servers/:id/deliveryservices': `servers/${world.edge.id}/deliveryservices`,
      'deliveryservices/:id': `deliveryservices/${world.http.id}`,
      'deliveryservices/:id/servers': `deliveryservices/${world.http.id}/servers`,
      'deliveryservices/:id/servers/eligible': `deliveryservices/${world.http.id}/servers/eligible`,
      'deliveryservices/:id/regexes': `deliveryservices/${world.http.id}/regexes`,
      'cdns/:name/snapshot': `cdns/${world.cdn.name}/snapshot`,
      'cdns/:name/snapshot/new': `cdns/${world.cdn.name}/snapshot/new`,
      'cdns/:name/configs/monitoring': `cdns/${world.cdn.name}/configs/monitoring`,
      'cdns/:name/health': `cdns/${world.cdn.name}/health`,
      'servers/:hostname/update_status': `servers/${world.edge.hostName}/update_status`,
      'profiles/:id/parameters': `profiles/${world.edgeProfile.id}/parameters`,
      'cachegroups/:id/parameters': `cachegroups/${world.edgeGroup.id}/parameters`,
    };
    return path.includes(':') ? values[path] : path;
  };

  it('in every version, for every GET route it can call', async () => {
    const errors: string[] = [];
    const checked = new Set<string>();
    const routes = routesOfModule(AppModule).filter((route) => route.method === 'GET');
    for (const version of SERVED_VERSIONS) {
      const document = documents.get(version)!;
      for (const route of routes.filter((candidate) => candidate.versions.includes(version))) {
        const path = withParameters(route.path.replace(/^\//, ''));
        if (path === undefined || path === 'openapi.json') {
          continue;
        }
        const res = await admin.at(version).get(path);
        if (res.status !== 200 || !/json/.test(String(res.headers['content-type']))) {
          continue;
        }
        const documented = `/api/${version}/${route.path.replace(/^\//, '').replace(/:(\w+)/g, '{$1}')}`;
        const schema =
          document.paths[documented]?.get?.responses?.['200']?.content?.['application/json']?.schema;
        if (!schema) {
          errors.push(`GET ${documented}: no response schema`);
          continue;
        }
        checked.add(`${version} ${route.path.replace(/^\//, '')}`);
        errors.push(
          ...schemaErrors(res.body, schema, document.components.schemas).map(
            (error) => `GET ${path} ${version} ${error}`,
          ),
        );
      }
    }
    expect(errors).toEqual([]);
    // What the check must have covered: the big lists, the snapshot and each version.
    for (const version of SERVED_VERSIONS) {
      for (const path of ['servers', 'deliveryservices', 'cdns', 'types', 'users', 'cdns/:name/snapshot']) {
        expect(checked).toContain(`${version} ${path}`);
      }
    }
    expect(checked.size).toBeGreaterThan(SERVED_VERSIONS.length * 40);
  });

  it('declare a response for every operation of every version: its schema, or that it has no body', () => {
    const undeclared: string[] = [];
    for (const route of routesOfModule(AppModule)) {
      for (const version of route.versions.filter((served) => served !== 'neutral')) {
        const documented =
          `/api/${version}/${route.path.replace(/^\//, '').replace(/:(\w+)/g, '{$1}')}`.replace(/\/$/, '');
        const responses =
          documents.get(version)!.paths[documented]?.[route.method.toLowerCase()]?.responses ?? {};
        const success = Object.entries(responses).find(([status]) => status.startsWith('2'))?.[1];
        const bodyless = routeBodySchema(route.name, ApiVersion.parse(version)!) === null;
        if (!success || (!success.content?.['application/json']?.schema && !bodyless)) {
          undeclared.push(`${route.method} ${documented}`);
        }
      }
    }
    expect(undeclared).toEqual([]);
  });

  /** The schema of a list route's items in a version's document. */
  const itemsOf = (version: string, path: string): OpenApiSchema => {
    const document = documents.get(version)!;
    const schema =
      document.paths[`/api/${version}/${path}`].get.responses!['200'].content!['application/json'].schema;
    const ref = schema.properties!.response.items!.$ref!;
    return document.components.schemas[ref.replace('#/components/schemas/', '')];
  };

  it("gives times the route's format in each version: Traffic Ops' own, or RFC 3339", async () => {
    // Servers write RFC 3339 from 5.0; CDNs keep the specification's form on every version.
    expect(itemsOf('4.0', 'servers').properties!.lastUpdated).toEqual(
      expect.objectContaining({ pattern: expect.any(String) }),
    );
    expect(itemsOf('5.0', 'servers').properties!.lastUpdated).toEqual({
      type: 'string',
      format: 'date-time',
    });
    expect(itemsOf('5.0', 'cdns').properties!.lastUpdated).toEqual(
      expect.objectContaining({ pattern: expect.any(String) }),
    );
    const [server] = (await admin.at('5.0').get('servers').expect(200)).body.response as {
      lastUpdated: string;
    }[];
    expect(schemaErrors(server.lastUpdated, itemsOf('5.0', 'servers').properties!.lastUpdated, {})).toEqual(
      [],
    );
    expect(
      schemaErrors(server.lastUpdated, itemsOf('4.0', 'servers').properties!.lastUpdated, {}),
    ).not.toEqual([]);
  });

  it('refuses a body that strays from the schema: an unlisted field, a wrong type, a missing field', async () => {
    const document = documents.get('4.0')!;
    const cdn = itemsOf('4.0', 'cdns');
    const [first] = (await admin.get('cdns').expect(200)).body.response as Record<string, unknown>[];
    const components = document.components.schemas;
    expect(schemaErrors(first, cdn, components)).toEqual([]);
    expect(schemaErrors({ ...first, extra: 1 }, cdn, components)).toEqual(['$.extra: not in the schema']);
    expect(schemaErrors({ ...first, id: String(first.id) }, cdn, components)).toEqual([
      `$.id: "${String(first.id)}" is not a number`,
    ]);
    const { name: _name, ...nameless } = first;
    expect(schemaErrors(nameless, cdn, components)).toEqual(['$: no name']);
  });
});
