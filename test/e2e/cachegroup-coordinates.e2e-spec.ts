import { expectError } from 'test/e2e/support/alerts';
import { responseOf, uniqueName } from 'test/e2e/support/api';
import { typeIdOf } from 'test/e2e/support/fixtures/cachegroups';
import { createDeliveryService } from 'test/e2e/support/fixtures/delivery-services-api';
import { createCdn } from 'test/e2e/support/fixtures/profiles';
import { useApp } from 'test/e2e/support/suite';

interface Coordinate {
  id: number;
  name: string;
  latitude: number;
  longitude: number;
}

interface Cachegroup {
  id: number;
  name: string;
  shortName: string;
  latitude: number;
  longitude: number;
  typeId: number;
}

/** A cache group's own coordinate, `from_cachegroup_<name>`, follows it (docs/decisions.md#d217). */
describe('cache groups: their own coordinates', () => {
  const { admin } = useApp();
  let edgeLoc = 0;

  beforeAll(async () => {
    edgeLoc = await typeIdOf(admin, 'EDGE_LOC');
  });

  const body = (name: string, place: Partial<Cachegroup> = {}) => ({
    name,
    shortName: name,
    typeId: edgeLoc,
    latitude: 38.9,
    longitude: -77.25,
    ...place,
  });
  const createCachegroup = async (place: Partial<Cachegroup> = {}): Promise<Cachegroup> => {
    const res = await admin.post('cachegroups', body(uniqueName('cgc'), place));
    expect(res.status).toBe(200);
    return responseOf<Cachegroup>(res);
  };
  const coordinatesNamed = async (name: string): Promise<Coordinate[]> =>
    responseOf<Coordinate[]>(await admin.get(`coordinates?name=${encodeURIComponent(name)}`));
  const ownCoordinate = (cachegroup: string) => coordinatesNamed(`from_cachegroup_${cachegroup}`);

  it('a new cache group has its coordinate at its place; one without a place at 0, 0', async () => {
    const placed = await createCachegroup();
    expect(await ownCoordinate(placed.name)).toEqual([
      expect.objectContaining({ name: `from_cachegroup_${placed.name}`, latitude: 38.9, longitude: -77.25 }),
    ]);
    const unplaced = await createCachegroup({ latitude: undefined, longitude: undefined });
    expect(await ownCoordinate(unplaced.name)).toEqual([
      expect.objectContaining({ latitude: 0, longitude: 0 }),
    ]);
  });

  it('an update moves and renames it', async () => {
    const cg = await createCachegroup();
    const [before] = await ownCoordinate(cg.name);
    const renamed = uniqueName('cgc');
    const res = await admin.put(`cachegroups/${cg.id}`, body(renamed, { latitude: -10.5, longitude: 120 }));
    expect(res.status).toBe(200);
    expect(await ownCoordinate(cg.name)).toEqual([]);
    expect(await ownCoordinate(renamed)).toEqual([
      expect.objectContaining({ id: before.id, latitude: -10.5, longitude: 120 }),
    ]);
  });

  it('an update makes the coordinate of a cache group that has none', async () => {
    const cg = await createCachegroup();
    const [own] = await ownCoordinate(cg.name);
    expect((await admin.delete(`coordinates?id=${own.id}`)).status).toBe(200);
    const res = await admin.put(`cachegroups/${cg.id}`, body(cg.name, { latitude: 5, longitude: 6 }));
    expect(res.status).toBe(200);
    expect(await ownCoordinate(cg.name)).toEqual([expect.objectContaining({ latitude: 5, longitude: 6 })]);
  });

  it("a rename onto another coordinate's name is refused with the original's text, nothing written", async () => {
    const cg = await createCachegroup();
    const taken = uniqueName('cgc');
    expect(
      (await admin.post('coordinates', { name: `from_cachegroup_${taken}`, latitude: 1, longitude: 2 }))
        .status,
    ).toBe(200);
    const res = await admin.put(`cachegroups/${cg.id}`, body(taken, { latitude: 3, longitude: 4 }));
    expectError(res, 400, 'cachegroup name already exists, please choose a different name');
    const stored = responseOf<Cachegroup[]>(await admin.get(`cachegroups?id=${cg.id}`));
    expect(stored).toEqual([expect.objectContaining({ name: cg.name, latitude: 38.9, longitude: -77.25 })]);
    expect(await ownCoordinate(cg.name)).toEqual([expect.objectContaining({ latitude: 38.9 })]);
    expect(await ownCoordinate(taken)).toEqual([expect.objectContaining({ latitude: 1, longitude: 2 })]);
  });

  it('a new cache group whose coordinate name is taken is refused, nothing written', async () => {
    const name = uniqueName('cgc');
    expect(
      (await admin.post('coordinates', { name: `from_cachegroup_${name}`, latitude: 1, longitude: 2 }))
        .status,
    ).toBe(200);
    const res = await admin.post('cachegroups', body(name));
    expectError(res, 400, `coordinate name 'from_cachegroup_${name}' already exists.`);
    expect(responseOf<Cachegroup[]>(await admin.get(`cachegroups?name=${name}`))).toEqual([]);
    expect(await ownCoordinate(name)).toEqual([expect.objectContaining({ latitude: 1, longitude: 2 })]);
  });

  it('a deleted cache group takes its coordinate along', async () => {
    const cg = await createCachegroup();
    expect((await admin.delete(`cachegroups/${cg.id}`)).status).toBe(200);
    expect(await ownCoordinate(cg.name)).toEqual([]);
  });

  it('a cache group whose coordinate an origin uses is not deleted (400), nothing removed', async () => {
    const cg = await createCachegroup();
    const [own] = await ownCoordinate(cg.name);
    const cdn = await createCdn(admin);
    const ds = await createDeliveryService(admin, cdn.id);
    const origin = await admin.post('origins', {
      name: uniqueName('origin'),
      fqdn: 'origin.example.net',
      protocol: 'http',
      deliveryServiceId: ds.id,
      tenantId: 1,
      coordinateId: own.id,
    });
    expect(origin.status).toBe(200);
    const res = await admin.delete(`cachegroups/${cg.id}`);
    expectError(res, 400, 'cannot delete coordinate because it is being used by an origin');
    expect(responseOf<Cachegroup[]>(await admin.get(`cachegroups?id=${cg.id}`))).toHaveLength(1);
    expect(await ownCoordinate(cg.name)).toHaveLength(1);
  });
});
