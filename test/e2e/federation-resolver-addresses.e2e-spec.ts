import { DataSource } from 'typeorm';
import { createUser } from 'test/e2e/support/accounts';
import { expectError } from 'test/e2e/support/alerts';
import { responseOf } from 'test/e2e/support/api';
import { typeIdOf } from 'test/e2e/support/fixtures/cachegroups';
import { insertDeliveryService } from 'test/e2e/support/fixtures/delivery-services';
import {
  assignFederationDeliveryServices,
  assignFederationUsers,
  countRows,
  createFederation,
} from 'test/e2e/support/fixtures/federations';
import { createCdn } from 'test/e2e/support/fixtures/profiles';
import { runMigration } from 'test/e2e/support/migrations';
import { useApp } from 'test/e2e/support/suite';

interface Resolver {
  id: number;
  ipAddress: string;
}

/**
 * Federation resolvers' addresses as the original's `inet` column keeps them (docs/decisions.md#d221):
 * written in any form, stored and answered in one, so one address is one resolver.
 */
describe('federation resolvers: one text per address', () => {
  const { app, admin } = useApp();
  let resolve4 = 0;
  let resolve6 = 0;
  let block = 0;

  beforeAll(async () => {
    resolve4 = await typeIdOf(admin, 'RESOLVE4');
    resolve6 = await typeIdOf(admin, 'RESOLVE6');
  });

  /** Addresses no other test of the run uses: three groups of their own per test. */
  const base = () => `fd00:${(0x5a00 + (process.pid % 0x100)).toString(16)}:${block}`;
  const ipv6 = (last: string) => `${base()}::${last}`;
  beforeEach(() => {
    block += 1;
  });

  const create = (ipAddress: string, typeId: number) =>
    admin.post('federation_resolvers', { ipAddress, typeId });

  it.each([
    [
      'an IPv6 address with its zeros written out, in upper case',
      () => `${base()}:0:0:0:0:A1`.toUpperCase(),
      () => ipv6('a1'),
    ],
    ['an IPv6 address with a /128 prefix', () => `${ipv6('a1')}/128`, () => ipv6('a1')],
    ['an IPv6 network', () => `${base()}:0:0:0:0:0/64`, () => `${base()}::/64`],
  ])('stores and answers %s in canonical form', async (_what, written, canonical) => {
    const res = await create(written(), resolve6);
    expect(res.status).toBe(200);
    const answered = responseOf<Resolver>(res);
    expect(answered.ipAddress).toBe(canonical());
    const listed = responseOf<Resolver[]>(await admin.get(`federation_resolvers?id=${answered.id}`));
    expect(listed.map((r) => r.ipAddress)).toEqual([canonical()]);
  });

  it('an IPv4 address with a /32 prefix is the address', async () => {
    const address = `198.51.${100 + (process.pid % 100)}.${block}`;
    const res = await create(`${address}/32`, resolve4);
    expect(res.status).toBe(200);
    expect(responseOf<Resolver>(res).ipAddress).toBe(address);
  });

  it('the same address in another form is a duplicate (400, canonical text), nothing written', async () => {
    const address = ipv6('b2');
    expect((await create(address, resolve6)).status).toBe(200);
    const res = await create(`${base()}:0:0:0:0:b2`, resolve6);
    expectError(res, 400, `federation_resolver ip_address '${address}' already exists.`);
    expect(await countRows(app, 'federation_resolver', 'ip_address LIKE ?', [`${base()}:%`])).toBe(1);
  });

  it("a federation user's mappings store their addresses in canonical form, one resolver per address", async () => {
    const cdn = await createCdn(admin);
    const ds = await insertDeliveryService(app, cdn.id);
    const federation = await createFederation(admin, cdn.name, { ttl: 60 });
    await assignFederationDeliveryServices(admin, federation.id, [ds.id]);
    const user = await createUser(app, admin, 'federation');
    await assignFederationUsers(admin, federation.id, [user.id]);
    const address = ipv6('c3');
    const res = await user.client.post('federations', [
      { deliveryService: ds.xmlId, mappings: { resolve4: [], resolve6: [`${base()}:0:0:0:0:C3`] } },
    ]);
    expect(res.status).toBe(200);
    const linked = responseOf<Resolver[]>(
      await admin.get(`federations/${federation.id}/federation_resolvers`),
    );
    expect(linked.map((r) => r.ipAddress)).toEqual([address]);
    expect((await create(address, resolve6)).status).toBe(400);
  });

  it('a migration gives earlier resolvers their canonical address; a second form of one joins it', async () => {
    const cdn = await createCdn(admin);
    const [a, b] = [await createFederation(admin, cdn.name), await createFederation(admin, cdn.name)];
    const dataSource = app.get(DataSource);
    const insert = async (ipAddress: string): Promise<number> => {
      await dataSource.query('INSERT INTO federation_resolver (ip_address, type) VALUES (?, ?)', [
        ipAddress,
        resolve6,
      ]);
      const [row] = await dataSource.query<{ id: number | string }[]>(
        'SELECT id FROM federation_resolver WHERE ip_address = ?',
        [ipAddress],
      );
      return Number(row.id);
    };
    const canonical = await insert(ipv6('d4'));
    const second = await insert(`${base()}:0:0:0:0:d4`);
    const alone = await insert(`${base()}:0:0:0:0:e5/128`);
    for (const [federation, resolver] of [
      [a.id, canonical],
      [a.id, second],
      [b.id, second],
    ]) {
      await dataSource.query(
        'INSERT INTO federation_federation_resolver (federation, federation_resolver) VALUES (?, ?)',
        [federation, resolver],
      );
    }
    await runMigration(dataSource, 'CanonicalResolverAddresses1764950000001');
    const rows = await dataSource.query<{ id: number | string; ip: string }[]>(
      'SELECT id, ip_address AS ip FROM federation_resolver WHERE ip_address LIKE ? ORDER BY id',
      [`${base()}:%`],
    );
    expect(rows.map((r) => [Number(r.id), r.ip])).toEqual([
      [canonical, ipv6('d4')],
      [alone, ipv6('e5')],
    ]);
    const linked = async (federation: number) =>
      responseOf<Resolver[]>(await admin.get(`federations/${federation}/federation_resolvers`)).map(
        (r) => r.id,
      );
    expect(await linked(a.id)).toEqual([canonical]);
    expect(await linked(b.id)).toEqual([canonical]);
  });
});
