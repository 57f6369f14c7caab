import { DataSource } from 'typeorm';
import { buildTypeOrmOptions } from 'src/database/typeorm-options';
import { TenancyService } from './tenancy.service';
import { TenantsRepository } from './tenants.repository';

/**
 * The tenancy rules (docs/decisions.md#d13) on a real embedded database: the SQL is the unit under test.
 *
 *   root ─┬─ a (active) ─── a1 (INACTIVE) ─── a11 (active)
 *         └─ b (active)
 */
describe('TenancyService', () => {
  let dataSource: DataSource;
  let tenancy: TenancyService;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    dataSource = new DataSource(
      buildTypeOrmOptions({ driver: 'sqlite', path: ':memory:', busyTimeoutMs: 5000 }),
    );
    await dataSource.initialize();
    await dataSource.runMigrations();
    ids.root = 1;
    for (const [name, parent, active] of [
      ['a', 'root', true],
      ['a1', 'a', false],
      ['a11', 'a1', true],
      ['b', 'root', true],
    ] as const) {
      await dataSource.query('INSERT INTO tenant (name, active, parent_id) VALUES (?, ?, ?)', [
        name,
        active ? 1 : 0,
        ids[parent],
      ]);
      const [row] = await dataSource.query<{ id: number }[]>('SELECT id FROM tenant WHERE name = ?', [name]);
      ids[name] = row.id;
    }
    tenancy = new TenancyService(new TenantsRepository(dataSource));
  });

  afterAll(() => dataSource.destroy());

  const reach = async (from: string) => (await tenancy.reachableTenantIds(ids[from])).sort((x, y) => x - y);
  const named = (...names: string[]) => names.map((n) => ids[n]).sort((x, y) => x - y);

  it('reaches a tenant and all its descendants, inactive ones included', async () => {
    expect(await reach('a')).toEqual(named('a', 'a1', 'a11'));
    expect(await reach('root')).toEqual(expect.arrayContaining(named('root', 'a', 'a1', 'a11', 'b')));
  });

  it('does not reach siblings or ancestors', async () => {
    expect(await reach('b')).toEqual(named('b'));
    expect(await tenancy.isWithinReach(ids.a, ids.b)).toBe(false);
    expect(await tenancy.isWithinReach(ids.a, ids.root)).toBe(false);
    expect(await tenancy.isWithinReach(ids.a, ids.a11)).toBe(true);
  });

  it('reaches nothing from a tenant that is inactive or has an inactive ancestor', async () => {
    expect(await reach('a1')).toEqual([]);
    expect(await reach('a11')).toEqual([]);
    expect(await tenancy.isWithinReach(ids.a11, ids.a11)).toBe(false);
  });

  it('answers the 403 of the original when asserting reach', async () => {
    await expect(tenancy.assertWithinReach(ids.b, ids.a)).rejects.toThrow('not authorized on this tenant');
    await expect(tenancy.assertWithinReach(ids.root, ids.a)).resolves.toBeUndefined();
  });

  it('stops on a cyclic tree instead of looping', async () => {
    await dataSource.query('UPDATE tenant SET parent_id = ? WHERE id = ?', [ids.a11, ids.a]);
    expect(await tenancy.isWithinReach(ids.b, ids.a)).toBe(false);
    await dataSource.query('UPDATE tenant SET parent_id = ? WHERE id = ?', [ids.root, ids.a]);
  });
});
