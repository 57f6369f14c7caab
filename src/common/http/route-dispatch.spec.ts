import express, { type Request, type Response } from 'express';
import request from 'supertest';
import { dispatchByFirstSegment, segmentOfPath } from 'src/common/http/route-dispatch';

/** An app whose routes answer with their own name, so a test sees which route answered. */
function app(register: (app: express.Express) => void): express.Express {
  const instance = express();
  register(instance);
  return instance;
}

const answer = (name: string) => (_req: Request, res: Response) => {
  res.send(name);
};

function routes(instance: express.Express): void {
  instance.use((_req, res, next) => {
    res.setHeader('X-Before', 'yes');
    next();
  });
  instance.get('/api/docs', answer('docs'));
  instance.get('/api/:version/cdns', answer('cdns'));
  // A route whose first segment is a parameter could answer any segment: it keeps its place.
  instance.get('/api/:version/:anything/details', answer('details'));
  instance.get('/api/:version/cdns/:id', answer('cdn'));
  instance.get('/health/live', answer('health'));
  instance.get('/api/:version/servers', answer('servers'));
  instance.get('/api/:version/cdns/:id/details', answer('cdn details'));
  instance.get('/api/:version/OC/CI', answer('oc'));
  instance.use((_req, res) => {
    res.status(404).send('not found');
  });
}

describe('dispatchByFirstSegment', () => {
  const plain = app(routes);
  const grouped = app(routes);
  const segments = dispatchByFirstSegment((grouped as unknown as { router: { stack: [] } }).router);

  it('groups the routes of each literal first segment', () => {
    expect(segments).toBe(3); // cdns, servers, oc
    const stack = (grouped as unknown as { router: { stack: unknown[] } }).router.stack;
    // the middleware, docs, the dispatch, the 404 handler
    expect(stack).toHaveLength(4);
  });

  it.each([
    ['/api/4.0/cdns', 200, 'cdns'],
    ['/api/4.0/cdns/', 200, 'cdns'],
    ['/api/4.0/CDNS', 200, 'cdns'],
    ['/api/4.0/cdns?limit=2', 200, 'cdns'],
    ['/api/4.0/cdns/7', 200, 'cdn'],
    ['/api/5.0/servers', 200, 'servers'],
    ['/api/4.0/cdns/details', 200, 'details'],
    ['/api/4.0/cdns/7/details', 200, 'cdn details'],
    ['/api/4.0/types/details', 200, 'details'],
    ['/api/4.0/oc/ci', 200, 'oc'],
    ['/api/4.0/%63dns', 404, 'not found'],
    ['/api/4.0//cdns', 404, 'not found'],
    ['/api/4.0/types', 404, 'not found'],
    ['/api/docs', 200, 'docs'],
    ['/health/live', 200, 'health'],
    ['/api', 404, 'not found'],
    ['/elsewhere', 404, 'not found'],
  ])('%s answers as without the grouping (%i %s)', async (path, status, text) => {
    const expected = await request(plain).get(path);
    const actual = await request(grouped).get(path);
    expect([expected.status, expected.text]).toEqual([status, text]);
    expect([actual.status, actual.text, actual.headers['x-before']]).toEqual([status, text, 'yes']);
  });

  it('reads the segment after the version, without the query string', () => {
    expect(segmentOfPath('/api/4.0/Cdns/1')).toBe('cdns');
    expect(segmentOfPath('/api/4.0/cdns')).toBe('cdns');
    expect(segmentOfPath('/api/4.0')).toBeUndefined();
    expect(segmentOfPath('/health/live')).toBeUndefined();
  });
});
