import { readFileSync } from 'node:fs';
import { Reflector } from '@nestjs/core';
import { AppModule } from 'src/app.module';
import { RawResponse } from 'src/common/decorators/raw-response.decorator';
import { routesOfModule } from 'src/common/routes/route-inventory';
import { ApiVersion } from 'src/common/versioning/api-version';
import { generateWireSchemas, WIRE_SCHEMAS_FILE } from 'src/common/wire/schemas/wire-schemas.generate';
import { type JsonSchema, routeBodySchema, wireSchemas } from 'src/common/wire/schemas/wire-schemas';

const v = (text: string) => ApiVersion.parse(text)!;

/** The `response` of an enveloped body, or a raw body itself; for a union, each member's. */
function payloads(body: JsonSchema, raw: boolean): JsonSchema[] {
  if (raw) {
    return [body];
  }
  return (body.anyOf ?? [body]).map((member) => member.properties?.response ?? { 'x-null': true });
}

describe('wire schemas (the runtime form of the wire types)', () => {
  it('are what the wire types generate: run `npm run wire-schemas` after changing a wire type', () => {
    // The compiler reads every controller and what it returns (a few seconds).
    expect(generateWireSchemas()).toBe(readFileSync(WIRE_SCHEMAS_FILE, 'utf8'));
  }, 120_000);

  it('give every route a response schema in each of its versions, never an untyped one', () => {
    const reflector = new Reflector();
    const lacking: string[] = [];
    const routes = routesOfModule(AppModule);
    expect(routes.length).toBeGreaterThan(200);
    for (const route of routes) {
      const raw = reflector.getAllAndOverride(RawResponse, [route.handler, route.controller]) === true;
      for (const served of route.versions.filter((version) => version !== 'neutral')) {
        const body = routeBodySchema(route.name, v(served));
        if (body === undefined) {
          lacking.push(`${route.name} ${served}: no schema`);
        } else if (body !== null && payloads(body, raw).some((payload) => payload['x-untyped'])) {
          lacking.push(`${route.name} ${served}: untyped`);
        }
      }
    }
    expect(lacking).toEqual([]);
  });

  it('name no route the application does not have', () => {
    const names = new Set(routesOfModule(AppModule).map((route) => route.name));
    expect(Object.keys(wireSchemas().routes).filter((name) => !names.has(name))).toEqual([]);
  });

  it("take, for a version, the newest of a union's version-named types not after it", () => {
    const response = (route: string, version: string) =>
      routeBodySchema(route, v(version))?.properties?.response;
    const list = (version: string) => response('DeliveryServicesController.list', version)?.items?.$ref;
    expect(['3.0', '3.1', '4.0', '4.1', '5.0'].map(list)).toEqual([
      'DeliveryServiceV30',
      'DeliveryServiceV31',
      'DeliveryServiceV40',
      'DeliveryServiceV41',
      'DeliveryServiceV50',
    ]);
    expect(response('AuthController.current', '3.1')).toEqual({ $ref: 'CurrentUserV3' });
    expect(response('AuthController.current', '4.0')).toEqual({ $ref: 'UserV4' });
    // ServerCapabilityV3 | ServerCapabilityV41 | ServerCapabilityV5: 4.0 still has the 3.x type.
    expect(response('ServerCapabilitiesController.list', '4.0')?.items).toEqual({
      $ref: 'ServerCapabilityV3',
    });
  });

  it('envelope what handlers return and mark times, null and optional fields', () => {
    expect(routeBodySchema('CdnsController.remove', v('4.0'))).toEqual({
      type: 'object',
      properties: { alerts: { $ref: 'Alerts' } },
      required: ['alerts'],
    });
    const cdn = wireSchemas().types.CdnWire;
    expect(cdn.properties?.lastUpdated).toEqual({ type: 'string', 'x-wire-time': true });
    expect(cdn.required).not.toContain('ttlOverride');
    expect(wireSchemas().types.DeliveryServiceV40.properties?.tlsVersions).toEqual({
      type: 'array',
      items: { type: 'string' },
      nullable: true,
    });
    expect(routeBodySchema('PingController.ping', v('4.0'))).toEqual({
      type: 'object',
      properties: { ping: { type: 'string' } },
      required: ['ping'],
    });
  });
});
