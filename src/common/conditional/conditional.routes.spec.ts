import { Reflector } from '@nestjs/core';
import { AppModule } from 'src/app.module';
import {
  ConditionalOn,
  type ConditionalSpec,
  conditionalSpec,
} from 'src/common/conditional/conditional.decorator';
import { routesOfModule } from 'src/common/routes/route-inventory';

/**
 * Which row each PUT and DELETE checks its preconditions against, read from the routes' metadata:
 * a route that changes one row must name it, so that If-Match / If-Unmodified-Since are never
 * silently ignored (as they once were on PUT /roles?name=).
 */
describe('conditional writes: the row of every PUT and DELETE', () => {
  const reflector = new Reflector();
  const routes = routesOfModule(AppModule);
  const writes = routes.filter((r) => r.method === 'PUT' || r.method === 'DELETE');
  const declared = (route: (typeof routes)[number]): ConditionalSpec | undefined => {
    const value = reflector.getAllAndOverride(ConditionalOn, [route.handler, route.controller]);
    return value === undefined ? undefined : conditionalSpec(value);
  };
  const keyed = (how: 'own key' | 'path id' | 'query id') =>
    writes
      .filter((route) => {
        const spec = declared(route);
        if (!spec) {
          return false;
        }
        const named = spec.row ? 'own key' : /(^|\/):id(\/|$)/.test(route.path) ? 'path id' : 'query id';
        return named === how;
      })
      .map((route) => `${route.method} ${route.path}`)
      .sort();

  it('reads the id of the query string only where the id is the query form', () => {
    expect(keyed('query id')).toEqual(
      [
        'DELETE asns',
        'DELETE cdn_notifications',
        'DELETE coordinates',
        'DELETE deliveryservice_request_comments',
        'DELETE deliveryservice_requests',
        'DELETE federation_resolvers',
        'DELETE jobs',
        'DELETE origins',
        'DELETE staticdnsentries',
        'PUT asns',
        'PUT coordinates',
        'PUT deliveryservice_request_comments',
        'PUT deliveryservice_requests',
        'PUT jobs',
        'PUT origins',
        'PUT staticdnsentries',
      ].sort(),
    );
  });

  it('declares the key of every route that names its row otherwise', () => {
    expect(keyed('own key')).toEqual(
      [
        'DELETE deliveryservices/:dsid/regexes/:regexid',
        'DELETE deliveryservices/:xmlID/urisignkeys',
        'DELETE deliveryservices/xmlId/:xmlid/sslkeys',
        'DELETE deliveryservices_required_capabilities',
        'DELETE deliveryserviceserver/:dsId/:serverId',
        'DELETE federations/:id/deliveryservices/:dsID',
        'DELETE federations/:id/users/:userID',
        'DELETE profileparameters/:profileId/:parameterId',
        'DELETE regions',
        'DELETE roles',
        'DELETE server_capabilities',
        'DELETE server_server_capabilities',
        'DELETE service_categories/:name',
        'DELETE steering/:deliveryservice/targets/:target',
        'DELETE topologies',
        'PUT deliveryservices/:dsid/regexes/:regexid',
        'PUT deliveryservices/:xmlID/urisignkeys',
        'PUT roles',
        'PUT server_capabilities',
        'PUT service_categories/:name',
        'PUT snapshot',
        'PUT steering/:deliveryservice/targets/:target',
        'PUT topologies',
        'PUT user/current',
      ].sort(),
    );
  });

  // The current user's federation mappings and bulk capability removals address no single row; a CDN's
  // lock is named by the CDN's name, which is not a key of its table; a CDN's DNSSEC keys are a group of
  // key store entries, and their refresh addresses every CDN's; a uCDN's configuration PUTs queue a new
  // request.
  it('leaves out only writes that address no single row by a key of their table', () => {
    const unconditional = writes
      .filter((route) => !declared(route))
      .map((route) => `${route.method} ${route.path}`)
      .sort();
    expect(unconditional).toEqual([
      'DELETE cdn_locks',
      'DELETE cdns/name/:name/dnsseckeys',
      'DELETE federations',
      'DELETE multiple_servers_capabilities',
      'PUT OC/CI/configuration',
      'PUT OC/CI/configuration/:host',
      'PUT cdns/dnsseckeys/refresh',
      'PUT federations',
    ]);
  });

  // A GET built from several tables names them all; a write must name the one table of its row.
  it('names several tables only on GETs', () => {
    const several = routes
      .filter((route) => (declared(route)?.tables.length ?? 0) > 1)
      .map((route) => `${route.method} ${route.path}: ${declared(route)!.tables.join(', ')}`)
      .sort();
    expect(several).toEqual([
      'GET deliveryservices_regexes: deliveryservice, deliveryservice_regex, regex, type',
      'GET federations/all: federation, federation_deliveryservice, federation_federation_resolver, deliveryservice, cdn',
      'GET profiles/:id/parameters: profile, parameter, profile_parameter',
      'GET profiles/name/:name/parameters: profile, parameter, profile_parameter',
    ]);
  });
});
