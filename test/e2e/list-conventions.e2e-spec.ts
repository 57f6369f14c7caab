import { probePath } from 'test/e2e/support/route-probe';
import { AppModule } from 'src/app.module';
import { isListRoute, routesOfModule } from 'src/common/routes/route-inventory';
import { responseOf } from 'test/e2e/support/api';
import { expectError } from 'test/e2e/support/alerts';
import { INVALID_PAGING } from 'test/e2e/support/list-params';
import { useApp } from 'test/e2e/support/suite';

/**
 * The list conventions every collection GET shares, driven by the routes that take a list query:
 * invalid paging answers 400 with the shared texts on every version, and on lists without path
 * parameters an unknown `orderby` is ignored while `limit` bounds the page. Each resource's suite
 * tests its own filters and orderable fields.
 */

const lists = routesOfModule(AppModule).filter((route) => route.method === 'GET' && isListRoute(route));
describe('list conventions (every list route, every version)', () => {
  const { admin } = useApp();

  it('finds the list routes', () => {
    expect(lists.length).toBeGreaterThan(20);
  });

  it.each(lists.map((route) => [route.path, route] as const))('GET %s', async (_name, route) => {
    const path = probePath(route);
    for (const version of route.versions) {
      const client = admin.at(version);
      for (const [query, text] of INVALID_PAGING) {
        expectError(await client.get(`${path}?${query}`), 400, text);
      }
      if (!route.path.includes(':')) {
        const res = await client.get(`${path}?orderby=noSuchField&limit=1`);
        expect([res.status, Array.isArray(responseOf(res))]).toEqual([200, true]);
        expect(responseOf<unknown[]>(res).length).toBeLessThanOrEqual(1);
      }
    }
  });
});
