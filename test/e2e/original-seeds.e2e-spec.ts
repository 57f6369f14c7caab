import type { ParameterWire } from 'src/modules/parameters/dto/parameter.response';
import type { ProfileWire } from 'src/modules/profiles/dto/profile.response';
import type { RoleV3 } from 'src/modules/roles/dto/role.response';
import type { StatusWire } from 'src/modules/statuses/dto/status.response';
import type { TenantWire } from 'src/modules/tenants/dto/tenant.response';
import type { TypeWire } from 'src/modules/types/dto/type.response';
import { DataSource } from 'typeorm';
import { responseOf, uniqueName, type Wire } from 'test/e2e/support/api';
import {
  ORIGINAL_PARAMETERS,
  ORIGINAL_PROFILES,
  ORIGINAL_ROLES,
  ORIGINAL_STATUSES,
  ORIGINAL_TENANTS,
  ORIGINAL_TYPES,
} from 'test/e2e/support/fixtures/original-seeds';
import { useApp } from 'test/e2e/support/suite';

const byName = <T extends { name: string }>(rows: T[]): T[] =>
  [...rows].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

/** The rows named as `expected`'s are (other suites may share the database and add their own). */
const builtIn = <T extends { name: string }>(rows: T[], expected: { name: string }[]): T[] =>
  byName(rows.filter((r) => expected.some((e) => e.name === r.name)));

/** A new database's built-in rows equal the original's seeds (and the migrations that change them). */
describe('the original seeds on a new database', () => {
  const { app, admin } = useApp();

  it('has the original roles with their descriptions, levels and permissions', async () => {
    const roles = responseOf<Wire<RoleV3>[]>(await admin.at('3.0').get('roles'));
    expect(
      builtIn(roles, ORIGINAL_ROLES).map(({ name, description, privLevel, capabilities }) => ({
        name,
        description,
        // D130: the portal role keeps level 15 (D12).
        privLevel: name === 'portal' ? 2 : privLevel,
        permissions: [...capabilities].sort(),
      })),
    ).toEqual(byName(ORIGINAL_ROLES).map((r) => ({ ...r, permissions: [...r.permissions].sort() })));
    expect(roles.find((r) => r.name === 'operations')?.capabilities).toHaveLength(130);
  });

  it('has the original types and statuses with their descriptions', async () => {
    const types = responseOf<Wire<TypeWire>[]>(await admin.get('types'));
    expect(
      builtIn(
        types.map(({ name, description, useInTable }) => ({ name, description, useInTable })),
        ORIGINAL_TYPES,
      ),
    ).toEqual(byName(ORIGINAL_TYPES));
    const statuses = responseOf<Wire<StatusWire>[]>(await admin.get('statuses'));
    expect(
      builtIn(
        statuses.map(({ name, description }) => ({ name, description })),
        ORIGINAL_STATUSES,
      ),
    ).toEqual(byName(ORIGINAL_STATUSES));
  });

  it('has the original tenants, profiles and parameters', async () => {
    const tenants = responseOf<Wire<TenantWire>[]>(await admin.get('tenants'));
    expect(
      builtIn(
        tenants.map(({ name, active, parentName }) => ({ name, active, parentName })),
        ORIGINAL_TENANTS,
      ),
    ).toEqual(byName(ORIGINAL_TENANTS));
    const profiles = responseOf<Wire<ProfileWire>[]>(await admin.get('profiles'));
    expect(
      builtIn(
        profiles.map(({ name, description, type, cdnName }) => ({ name, description, type, cdnName })),
        ORIGINAL_PROFILES,
      ),
    ).toEqual(byName(ORIGINAL_PROFILES.map((p) => ({ ...p, cdnName: 'ALL' }))));
    const parameters = responseOf<Wire<ParameterWire>[]>(await admin.get('parameters'));
    const key = (p: { name: string; configFile: string; value: string }) =>
      `${p.name}|${p.configFile}|${p.value}`;
    expect(
      parameters
        .filter((p) => ORIGINAL_PARAMETERS.some((o) => key(o) === key(p)))
        .map((p) => ({ key: key(p), profiles: p.profiles }))
        .sort((a, b) => a.key.localeCompare(b.key)),
    ).toEqual(
      ORIGINAL_PARAMETERS.map((p) => ({ key: key(p), profiles: p.profile === null ? [] : [p.profile] })).sort(
        (a, b) => a.key.localeCompare(b.key),
      ),
    );
  });

  it('corrects an existing database without touching what users made or changed', async () => {
    const dataSource = app.get(DataSource);
    const migration = dataSource.migrations.find(
      (m) => (m.name ?? m.constructor.name) === 'OriginalSeedRows1764300000000',
    );
    if (migration?.down === undefined) {
      throw new Error('the migration OriginalSeedRows1764300000000 is not loaded');
    }
    const runner = dataSource.createQueryRunner();
    const userRole = uniqueName('role');
    try {
      // The rows as the earlier seeds left them, then a user's own role and a user's own text.
      await migration.down(runner);
      const old = responseOf<Wire<RoleV3>[]>(await admin.at('3.0').get('roles?name=operations'));
      expect(old[0]).toMatchObject({ description: 'block all access' });
      expect(old[0].capabilities).toContain('USER:DELETE');
      expect(
        (
          await admin.post('roles', {
            name: userRole,
            description: 'block all access',
            permissions: ['USER:DELETE'],
          })
        ).status,
      ).toBe(200);
      await runner.query("UPDATE status SET description = 'ours' WHERE name = 'ADMIN_DOWN'");
      await runner.query("UPDATE type SET description = 'our edges' WHERE name = 'EDGE'");
      await migration.up(runner);
    } finally {
      await runner.release();
    }
    const roles = responseOf<Wire<RoleV3>[]>(await admin.at('3.0').get('roles'));
    const operations = roles.find((r) => r.name === 'operations');
    expect(operations?.description).toBe('Has all reads and most write capabilities');
    expect([...(operations?.capabilities ?? [])].sort()).toEqual(
      [...(ORIGINAL_ROLES.find((r) => r.name === 'operations')?.permissions ?? [])].sort(),
    );
    expect(roles.find((r) => r.name === userRole)).toMatchObject({
      description: 'block all access',
      capabilities: ['USER:DELETE'],
    });
    const statuses = responseOf<Wire<StatusWire>[]>(await admin.get('statuses'));
    expect(statuses.find((s) => s.name === 'ADMIN_DOWN')?.description).toBe('ours');
    expect(statuses.find((s) => s.name === 'OFFLINE')?.description).toBe(
      'Server is Offline. Not active in any configuration.',
    );
    const types = responseOf<Wire<TypeWire>[]>(await admin.get('types'));
    expect(types.find((t) => t.name === 'EDGE')?.description).toBe('our edges');
    expect(types.find((t) => t.name === 'MID')?.description).toBe('Mid Tier Cache');
    // Other suites may share the database: the seeded texts back.
    await dataSource.query("UPDATE status SET description = ? WHERE name = 'ADMIN_DOWN'", [
      ORIGINAL_STATUSES.find((s) => s.name === 'ADMIN_DOWN')?.description,
    ]);
    await dataSource.query("UPDATE type SET description = 'Edge Cache' WHERE name = 'EDGE'");
  });
});
