import type { DeliveryServiceMappings } from 'src/modules/federations/mappings/federations.service';
import { responseOf } from 'test/e2e/support/api';
import { type CreatedUser, createRole, createTenant, createUser } from 'test/e2e/support/accounts';
import { expectError, expectErrors, expectMalformedJson } from 'test/e2e/support/alerts';
import { expectOk } from 'test/e2e/support/headers';
import { insertDeliveryService } from 'test/e2e/support/fixtures/delivery-services';
import type { InsertedDeliveryService } from 'test/e2e/support/fixtures/delivery-services';
import {
  assignFederationDeliveryServices,
  assignFederationUsers,
  countRows,
  createFederation,
  uniqueIpv4,
  uniqueIpv6,
} from 'test/e2e/support/fixtures/federations';
import { typeIdOf } from 'test/e2e/support/fixtures/cachegroups';
import { createCdn } from 'test/e2e/support/fixtures/profiles';
import { useApp } from 'test/e2e/support/suite';

describe('federations (the signed-in user)', () => {
  const { app, admin } = useApp();
  let cdn: { id: number; name: string };
  let childTenant: { id: number; name: string };
  let ds1: InsertedDeliveryService;
  let ds2: InsertedDeliveryService, dsChild: InsertedDeliveryService, dsNone: InsertedDeliveryService;

  const stored = (ip: string) => countRows(app, 'federation_resolver', 'ip_address = ?', [ip]);
  const linkedIps = async (federationId: number) =>
    responseOf<{ ipAddress: string }[]>(await admin.get(`federations/${federationId}/federation_resolvers`))
      .map((r) => r.ipAddress)
      .sort();
  const mappingsOf = async (user: CreatedUser): Promise<DeliveryServiceMappings[]> => {
    const res = await user.client.get('federations');
    expect(res.status).toBe(200);
    return responseOf<DeliveryServiceMappings[]>(res);
  };
  const item = (ds: InsertedDeliveryService, resolve4: string[] = [], resolve6: string[] = []) => ({
    deliveryService: ds.xmlId,
    mappings: { resolve4, resolve6 },
  });

  /** A federation-role user with federations a (on ds1) and b (on ds1 and ds2). */
  const setUp = async (role = 'federation', tenantId = 1) => {
    const user = await createUser(app, admin, role, tenantId);
    const a = await createFederation(admin, cdn.name, { ttl: 61 });
    const b = await createFederation(admin, cdn.name, { ttl: 62 });
    await assignFederationDeliveryServices(admin, a.id, [ds1.id]);
    await assignFederationDeliveryServices(admin, b.id, [ds1.id, ds2.id]);
    await assignFederationUsers(admin, a.id, [user.id]);
    await assignFederationUsers(admin, b.id, [user.id]);
    return { user, a, b };
  };

  beforeAll(async () => {
    cdn = await createCdn(admin);
    childTenant = await createTenant(admin);
    ds1 = await insertDeliveryService(app, cdn.id, { xmlId: `a-${Date.now()}-fed1` });
    ds2 = await insertDeliveryService(app, cdn.id, { xmlId: `b-${Date.now()}-fed2` });
    dsChild = await insertDeliveryService(app, cdn.id, { tenantId: childTenant.id });
    dsNone = await insertDeliveryService(app, cdn.id);
  });

  describe('GET', () => {
    it('answers [] for a user without federations', async () => {
      const user = await createUser(app, admin, 'steering');
      const res = expectOk(await user.client.get('federations'));
      expect(res.body).toEqual({ response: [] });
    });

    it('lists the user mappings per delivery service, omitting empty resolver lists', async () => {
      const { user, a, b } = await setUp();
      expect(await mappingsOf(user)).toEqual([
        {
          mappings: [
            { ttl: 61, cname: a.cname },
            { ttl: 62, cname: b.cname },
          ],
          deliveryService: ds1.xmlId,
        },
        { mappings: [{ ttl: 62, cname: b.cname }], deliveryService: ds2.xmlId },
      ]);
    });
  });

  describe('POST', () => {
    it('creates resolvers for the user federations on every version (array and legacy bodies)', async () => {
      const { user, a, b } = await setUp();
      const [ip1, ip2, ip3] = [uniqueIpv4(), `${uniqueIpv4()}/28`, uniqueIpv4()];
      const ip6 = uniqueIpv6();
      const res = await user.client.post('federations', [item(ds1, [ip1, ip2], [ip6]), item(ds2, [ip3])]);
      const message = `${user.username} successfully created federation resolvers.`;
      expectOk(res);
      expect(res.body).toEqual({ alerts: [{ text: message, level: 'success' }], response: message });
      expect(await linkedIps(a.id)).toEqual([ip1, ip2, ip6].sort());
      expect(await linkedIps(b.id)).toEqual([ip1, ip2, ip3, ip6].sort());
      const listed = await mappingsOf(user);
      expect(listed[0]).toEqual({
        mappings: [
          { ttl: 61, cname: a.cname, resolve4: [ip1, ip2], resolve6: [ip6] },
          { ttl: 62, cname: b.cname, resolve4: [ip1, ip2, ip3], resolve6: [ip6] },
        ],
        deliveryService: ds1.xmlId,
      });
      for (const version of ['3.0', '5.0']) {
        const ip = uniqueIpv4();
        const legacy = await user.client.at(version).post('federations', { federations: [item(ds2, [ip])] });
        expect(legacy.status).toBe(200);
        expect(await linkedIps(b.id)).toContain(ip);
      }
    });

    it('reuses an existing resolver and keeps links idempotent', async () => {
      const { user, a } = await setUp();
      const ip = uniqueIpv4();
      const created = await admin.post('federation_resolvers', {
        ipAddress: ip,
        typeId: await typeIdOf(admin, 'RESOLVE4'),
      });
      expect(created.status).toBe(200);
      expect((await user.client.post('federations', [item(ds1, [ip, ip])])).status).toBe(200);
      expect((await user.client.post('federations', [item(ds1, [ip])])).status).toBe(200);
      expect(await stored(ip)).toBe(1);
      const [resolver] = responseOf<{ id: number }[]>(
        await admin.get(`federations/${a.id}/federation_resolvers`),
      );
      expect(resolver.id).toBe(responseOf<{ id: number }>(created).id);
      expect(await countRows(app, 'federation_federation_resolver', 'federation = ?', [a.id])).toBe(1);
    });

    it('answers 409 per mapping in order, and a conflict on a later mapping writes nothing', async () => {
      const { user } = await setUp();
      const [ip1, ip2, ip3] = [uniqueIpv4(), uniqueIpv4(), uniqueIpv4()];
      await expectErrors([
        [
          user.client.post('federations', [
            item(ds1, [ip1]),
            item(ds2, [ip2]),
            item({ id: 0, xmlId: 'no-such-ds' }, [ip3]),
          ]),
          409,
          "'no-such-ds' - no such Delivery Service",
        ],
        [
          user.client.post('federations', [item(ds1, [ip1]), item(ds2, [ip2]), item(dsNone, [ip3])]),
          409,
          `No federation(s) found for user ${user.username} on delivery service '${dsNone.xmlId}'.`,
        ],
      ]);
      for (const ip of [ip1, ip2, ip3]) {
        expect(await stored(ip)).toBe(0);
      }
      expect(await mappingsOf(user)).toEqual([
        expect.objectContaining({
          deliveryService: ds1.xmlId,
          mappings: [expect.not.objectContaining({ resolve4: expect.anything() }), expect.anything()],
        }),
        expect.anything(),
      ]);
    });

    it('hides delivery services outside the user tenancy behind the same 409', async () => {
      const { user } = await setUp('federation', childTenant.id);
      const ip = uniqueIpv4();
      await expectErrors([
        [
          user.client.post('federations', [item(ds1, [ip])]),
          409,
          `'${ds1.xmlId}' - no such Delivery Service`,
        ],
        [
          user.client.post('federations', [item(dsChild, [ip])]),
          409,
          `No federation(s) found for user ${user.username} on delivery service '${dsChild.xmlId}'.`,
        ],
      ]);
      expect(await stored(ip)).toBe(0);
    });

    it('never touches another user federations', async () => {
      const mine = await setUp();
      const theirs = await setUp('steering');
      const ip = uniqueIpv4();
      expect((await mine.user.client.post('federations', [item(ds1, [ip])])).status).toBe(200);
      expect(await linkedIps(mine.a.id)).toEqual([ip]);
      expect(await linkedIps(theirs.a.id)).toEqual([]);
      expect(await linkedIps(theirs.b.id)).toEqual([]);
      expect(await mappingsOf(theirs.user)).toEqual([
        {
          mappings: [
            { ttl: 61, cname: theirs.a.cname },
            { ttl: 62, cname: theirs.b.cname },
          ],
          deliveryService: ds1.xmlId,
        },
        { mappings: [{ ttl: 62, cname: theirs.b.cname }], deliveryService: ds2.xmlId },
      ]);
    });

    it('answers 400 for bad bodies and addresses, writing nothing', async () => {
      const { user } = await setUp();
      const good = uniqueIpv4();
      const cases: [unknown, string][] = [
        [[], 'validating request: must specify at least one Delivery Service/Federation Resolver(s) mapping'],
        [
          { federations: [] },
          'validating request: must specify at least one Delivery Service/Federation Resolver(s) mapping',
        ],
        [
          [item(ds1, [good, '::1', 'nope'], ['1.2.3.4', '::1/129'])],
          'validating request: [ ::1 ] is not a valid ip address., [ nope ] is not a valid ip address., ' +
            '[ 1.2.3.4 ] is not a valid ip address., [ ::1/129 ] is not a valid ip address.',
        ],
        [[{ deliveryService: 5 }], 'parsing request: [0].deliveryService must be a string'],
        [
          [{ deliveryService: ds1.xmlId, mappings: { resolve4: good } }],
          'parsing request: [0].mappings.resolve4 must be an array of strings',
        ],
        [{ federations: 'x' }, 'parsing request: federations must be an array'],
      ];
      for (const [body, text] of cases) {
        expectError(await user.client.post('federations', body), 400, text);
      }
      expect(await stored(good)).toBe(0);
      const malformed = await user.client.raw('post', 'federations', '[{"deliveryService": ');
      expectMalformedJson(malformed);
    });
  });

  describe('PUT', () => {
    it('replaces all the user resolvers (two alerts; the create message as response)', async () => {
      const { user, a, b } = await setUp();
      const [old1, old2, fresh] = [uniqueIpv4(), uniqueIpv6(), uniqueIpv4()];
      await user.client.post('federations', [item(ds1, [old1], [old2])]);
      const res = await user.client.put('federations', [item(ds2, [fresh])]);
      const created = `${user.username} successfully created federation resolvers.`;
      expectOk(res);
      expect(res.body).toEqual({
        alerts: [
          {
            text: `${user.username} successfully deleted all federation resolvers: [ ${old1}, ${old2} ]`,
            level: 'success',
          },
          { text: created, level: 'success' },
        ],
        response: created,
      });
      expect(await linkedIps(a.id)).toEqual([]);
      expect(await linkedIps(b.id)).toEqual([fresh]);
      expect(await stored(old1)).toBe(0);
    });

    it('renders an empty deletion list as [  ] and never answers 409 for it', async () => {
      const { user } = await setUp('portal');
      const res = await user.client.at('3.0').put('federations', [item(ds1, [uniqueIpv4()])]);
      expect(res.status).toBe(200);
      expect(res.body.alerts[0]).toEqual({
        text: `${user.username} successfully deleted all federation resolvers: [  ]`,
        level: 'success',
      });
    });

    it('changes nothing when the new mappings fail', async () => {
      const { user, a } = await setUp();
      const old = uniqueIpv4();
      await user.client.post('federations', [item(ds1, [old])]);
      await expectErrors([
        [
          user.client.put('federations', [item(dsNone, [uniqueIpv4()])]),
          409,
          `No federation(s) found for user ${user.username} on delivery service '${dsNone.xmlId}'.`,
        ],
        [
          user.client.put('federations', []),
          400,
          'validating request: must specify at least one Delivery Service/Federation Resolver(s) mapping',
        ],
      ]);
      expect(await linkedIps(a.id)).toEqual([old]);
    });
  });

  describe('DELETE', () => {
    it('deletes every resolver of the user federations, then answers 409', async () => {
      const { user, a, b } = await setUp();
      const [ip1, ip2] = [uniqueIpv4(), uniqueIpv6()];
      await user.client.post('federations', [item(ds1, [ip1], [ip2])]);
      const res = await user.client.delete('federations');
      const message = `${user.username} successfully deleted all federation resolvers: [ ${ip1}, ${ip2} ]`;
      expectOk(res);
      expect(res.body).toEqual({ alerts: [{ text: message, level: 'success' }], response: message });
      expect(await linkedIps(a.id)).toEqual([]);
      expect(await linkedIps(b.id)).toEqual([]);
      expect(await stored(ip1)).toBe(0);
      expectError(
        await user.client.delete('federations'),
        409,
        `No federation resolvers to delete for user ${user.username}`,
      );
    });

    it('leaves a resolver another user federation still uses', async () => {
      const mine = await setUp();
      const theirs = await setUp('steering');
      const shared = uniqueIpv4();
      await mine.user.client.post('federations', [item(ds1, [shared])]);
      await theirs.user.client.post('federations', [item(ds2, [shared])]);
      expect((await mine.user.client.delete('federations')).status).toBe(200);
      expect(await linkedIps(mine.a.id)).toEqual([]);
      expect(await linkedIps(theirs.b.id)).toEqual([shared]);
      expect(await stored(shared)).toBe(1);
    });
  });

  describe('authorization', () => {
    it('lets the federation, steering, portal, operations and admin roles in', async () => {
      for (const role of ['federation', 'steering', 'portal', 'operations', 'admin']) {
        const user = await createUser(app, admin, role);
        expect((await user.client.get('federations')).status).toBe(200);
      }
    });

    it('checks the permissions on 4.0+ only', async () => {
      const role = await createRole(admin, ['DELIVERY-SERVICE:READ']);
      const limited = await createUser(app, admin, role);
      const ip = uniqueIpv4();
      await expectErrors([
        [limited.client.get('federations'), 403, 'missing required Permissions: FEDERATION-RESOLVER:READ'],
        [
          limited.client.post('federations', [item(ds1, [ip])]),
          403,
          'missing required Permissions: FEDERATION-RESOLVER:CREATE, FEDERATION-RESOLVER:READ',
        ],
        [
          limited.client.put('federations', [item(ds1, [ip])]),
          403,
          'missing required Permissions: FEDERATION-RESOLVER:DELETE, FEDERATION-RESOLVER:CREATE',
        ],
      ]);
      expect((await limited.client.at('3.0').get('federations')).status).toBe(200);
    });
  });
});
