import { responseOf } from 'test/e2e/support/api';
import { expectError, expectSuccessAlert } from 'test/e2e/support/alerts';
import { type Cachegroup, createCachegroup, typeIdOf } from 'test/e2e/support/fixtures/cachegroups';
import { insertTopology } from 'test/e2e/support/fixtures/snapshots';
import { useApp } from 'test/e2e/support/suite';

/**
 * A cache group that a topology names keeps its type (the original's ValidateTypeInTopology): an
 * update that changes it answers 400 and changes nothing; other changes, and a type change of a
 * cache group no topology names, pass.
 */
describe('cachegroups: the type of a cache group in a topology', () => {
  const { app, admin } = useApp();
  let midLoc: number, edgeLoc: number;

  beforeAll(async () => {
    midLoc = await typeIdOf(admin, 'MID_LOC');
    edgeLoc = await typeIdOf(admin, 'EDGE_LOC');
  });

  const bodyOf = (cg: Cachegroup, typeId: number) => ({
    name: cg.name,
    shortName: cg.shortName,
    typeId,
    latitude: 0,
    longitude: 0,
  });
  const current = async (cg: Cachegroup): Promise<Cachegroup> =>
    responseOf<Cachegroup[]>(await admin.get(`cachegroups?id=${cg.id}`))[0];

  it.each(['4.0', '5.0'])('refuses a type change on %s, and writes nothing', async (version) => {
    const cg = await createCachegroup(admin, { typeName: 'EDGE_LOC' });
    await insertTopology(app, [cg.name]);
    const before = await current(cg);
    expectError(
      await admin.at(version).put(`cachegroups/${cg.id}`, { ...bodyOf(cg, midLoc), shortName: 'changed' }),
      400,
      `'type' cannot change type of cachegroup ${cg.name} from EDGE_LOC to MID_LOC because it is in use by a topology`,
    );
    expect(await current(cg)).toEqual(before);
  });

  it('accepts an update that keeps the type', async () => {
    const cg = await createCachegroup(admin, { typeName: 'EDGE_LOC' });
    await insertTopology(app, [cg.name]);
    const res = await admin.put(`cachegroups/${cg.id}`, { ...bodyOf(cg, edgeLoc), shortName: 'kept' });
    expectSuccessAlert(res, 'cachegroup was updated.');
    expect(responseOf<Cachegroup>(res)).toMatchObject({ shortName: 'kept', typeId: edgeLoc });
  });

  it('accepts a type change of a cache group no topology names', async () => {
    const cg = await createCachegroup(admin, { typeName: 'EDGE_LOC' });
    const res = await admin.put(`cachegroups/${cg.id}`, bodyOf(cg, midLoc));
    expectSuccessAlert(res, 'cachegroup was updated.');
    expect(responseOf<Cachegroup>(res)).toMatchObject({ typeName: 'MID_LOC', typeId: midLoc });
  });

  it('answers 404 for a cache group that does not exist, whatever the type', async () => {
    const cg = await createCachegroup(admin, { typeName: 'EDGE_LOC' });
    expectError(
      await admin.put('cachegroups/2147483000', bodyOf(cg, midLoc)),
      404,
      'no cachegroup with id 2147483000 found',
    );
  });
});
