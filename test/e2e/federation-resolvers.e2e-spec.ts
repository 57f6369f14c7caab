import { responseOf } from 'test/e2e/support/api';
import { createRole, createUser } from 'test/e2e/support/accounts';
import { expectError, expectErrors, expectMalformedJson, expectSuccessAlert } from 'test/e2e/support/alerts';
import { expectApiHeaders, expectOk } from 'test/e2e/support/headers';
import { CUSTOM_TIME } from 'test/e2e/support/times';
import { countRows, createFederation, uniqueIpv4, uniqueIpv6 } from 'test/e2e/support/fixtures/federations';
import type { FederationResponse } from 'test/e2e/support/fixtures/federations';
import { typeIdOf } from 'test/e2e/support/fixtures/cachegroups';
import { createCdn } from 'test/e2e/support/fixtures/profiles';
import { useApp } from 'test/e2e/support/suite';

interface Resolver {
  id: number;
  ipAddress: string;
  lastUpdated?: string;
  type: string;
  typeId?: number;
}

describe('federation_resolvers', () => {
  const { app, admin, readOnly } = useApp({ users: { readOnly: 'read-only' } });
  let resolve4: number, resolve6: number;
  let cdn: { id: number; name: string };

  const create = async (
    ipAddress: string,
    type = ipAddress.includes(':') ? resolve6 : resolve4,
  ): Promise<Resolver> => {
    const res = await admin.post('federation_resolvers', { ipAddress, typeId: type });
    expect(res.status).toBe(200);
    return responseOf<Resolver>(res);
  };
  const stored = (ip: string) => countRows(app, 'federation_resolver', 'ip_address = ?', [ip]);

  beforeAll(async () => {
    resolve4 = await typeIdOf(admin, 'RESOLVE4');
    resolve6 = await typeIdOf(admin, 'RESOLVE6');
    cdn = await createCdn(admin);
  });

  describe('POST', () => {
    it('creates IPv4 and IPv6 resolvers and subnets on every version', async () => {
      for (const [version, ip, type, name] of [
        ['3.0', uniqueIpv4(), resolve4, 'RESOLVE4'],
        ['4.0', `${uniqueIpv4()}/32`, resolve4, 'RESOLVE4'],
        ['5.0', uniqueIpv6(), resolve6, 'RESOLVE6'],
        ['4.1', `${uniqueIpv6()}/128`, resolve6, 'RESOLVE6'],
      ] as const) {
        const res = expectOk(
          await admin.at(version).post('federation_resolvers', { ipAddress: ip, typeId: type }),
        );
        const created = responseOf<Resolver>(res);
        // Answered as stored: `/32` and `/128` left out (the original's inet).
        const stored = ip.replace(/\/(32|128)$/, '');
        expect(created).toEqual({ id: expect.any(Number), ipAddress: stored, type: name, typeId: type });
        expect(res.body.alerts).toEqual([
          { text: `Federation Resolver created [ IP = ${stored} ] with id: ${created.id}`, level: 'success' },
        ]);
      }
    });

    it('answers 400 for a duplicate address, writing nothing more', async () => {
      const ip = uniqueIpv4();
      await create(ip);
      expectError(
        await admin.post('federation_resolvers', { ipAddress: ip, typeId: resolve4 }),
        400,
        `federation_resolver ip_address '${ip}' already exists.`,
      );
      expect(await stored(ip)).toBe(1);
    });

    it('answers 400 for bad addresses, types that do not fit and bad bodies; 404 for an unknown type', async () => {
      const ip = uniqueIpv4();
      const cases: [unknown, number, string][] = [
        [
          { ipAddress: ip, typeId: resolve6 },
          400,
          'validating: typeId: must be the RESOLVE4 type for an IPv4 address or subnet.',
        ],
        [
          { ipAddress: '::1', typeId: resolve4 },
          400,
          'validating: typeId: must be the RESOLVE6 type for an IPv6 address or subnet.',
        ],
        [
          { ipAddress: ip, typeId: await typeIdOf(admin, 'HTTP') },
          400,
          'validating: typeId: must be the RESOLVE4 type for an IPv4 address or subnet.',
        ],
        [{ ipAddress: ip, typeId: 999999999 }, 404, 'type not found'],
        [
          { ipAddress: 'not-an-ip', typeId: resolve4 },
          400,
          'validating: ipAddress: invalid network IP or CIDR-notation subnet.',
        ],
        [
          { ipAddress: `${ip}/33`, typeId: resolve4 },
          400,
          'validating: ipAddress: invalid network IP or CIDR-notation subnet.',
        ],
        [{}, 400, 'validating: ipAddress: cannot be blank; typeId: cannot be blank.'],
        [{ ipAddress: ip }, 400, 'validating: typeId: cannot be blank.'],
        [{ ipAddress: 5, typeId: resolve4 }, 400, 'decoding: ipAddress must be a string'],
        [{ ipAddress: ip, typeId: 'x' }, 400, 'decoding: typeId must be a non-negative integer'],
        [[], 400, 'decoding: the request body must be a JSON object'],
      ];
      for (const [body, status, text] of cases) {
        expectError(await admin.post('federation_resolvers', body), status, text);
      }
      expect(await stored(ip)).toBe(0);
      const malformed = await admin.raw('post', 'federation_resolvers', '{"ipAddress": ');
      expectMalformedJson(malformed);
    });

    it('names, on 4.0+, the permissions the user lacks; 3.x does not check them', async () => {
      const body = { ipAddress: uniqueIpv4(), typeId: resolve4 };
      const role = await createRole(admin, ['TYPE:READ']);
      const limited = await createUser(app, admin, role);
      expectError(
        await limited.client.post('federation_resolvers', body),
        403,
        'missing required Permissions: FEDERATION-RESOLVER:CREATE',
      );
      expect(await stored(body.ipAddress)).toBe(0);
      expect((await limited.client.at('3.0').post('federation_resolvers', body)).status).toBe(200);
    });
  });

  describe('GET', () => {
    it('lists resolvers with filters id, ipAddress and type, ordered and paged', async () => {
      const v4 = await create(uniqueIpv4());
      const v6 = await create(uniqueIpv6());
      const res = expectOk(await readOnly.client.get(`federation_resolvers?id=${v4.id}`));
      expect(responseOf(res)).toEqual([
        {
          id: v4.id,
          ipAddress: v4.ipAddress,
          lastUpdated: expect.stringMatching(CUSTOM_TIME),
          type: 'RESOLVE4',
        },
      ]);
      const get = async (q: string) => responseOf<Resolver[]>(await admin.get(`federation_resolvers${q}`));
      expect((await get(`?ipAddress=${encodeURIComponent(v6.ipAddress)}`)).map((r) => r.id)).toEqual([v6.id]);
      expect((await get('?type=RESOLVE6')).every((r) => r.type === 'RESOLVE6')).toBe(true);
      const all = await get('');
      expect(all.map((r) => r.id)).toEqual(all.map((r) => r.id).sort((a, b) => a - b));
      expect((await get('?sortOrder=desc')).map((r) => r.id)).toEqual(all.map((r) => r.id).reverse());
      expect(await get('?limit=1&offset=1')).toEqual(all.slice(1, 2));
      expect(await get('?limit=1&page=2')).toEqual(all.slice(1, 2));
      await expectErrors([
        [admin.get('federation_resolvers?limit=x'), 400, 'limit parameter must be bigger than -1'],
        [admin.get('federation_resolvers?id=x'), 400, 'id cannot parse to integer'],
      ]);
      const role = await createRole(admin, ['TYPE:READ']);
      const limited = await createUser(app, admin, role);
      expectError(
        await limited.client.get('federation_resolvers'),
        403,
        'missing required Permissions: FEDERATION-RESOLVER:READ',
      );
    });
    it('answers If-Modified-Since: 304 until a resolver is created or deleted', async () => {
      const resolver = await create(uniqueIpv4());
      const future = new Date(Date.now() + 86_400_000).toUTCString();
      const notModified = await readOnly.client.get('federation_resolvers').set('If-Modified-Since', future);
      expect([notModified.status, notModified.text]).toEqual([304, '']);
      expect(new Date(notModified.headers['last-modified']).getTime()).toBeLessThanOrEqual(Date.now());
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const seen = new Date().toUTCString();
      expect((await admin.get('federation_resolvers').set('If-Modified-Since', seen)).status).toBe(304);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      expect((await admin.delete(`federation_resolvers?id=${resolver.id}`)).status).toBe(200);
      const changed = await admin.get('federation_resolvers').set('If-Modified-Since', seen);
      expect(changed.status).toBe(200);
      expect(changed.headers['last-modified']).toEqual(expect.any(String));
      await create(uniqueIpv4());
      const past = new Date(Date.now() - 86_400_000).toUTCString();
      expect((await admin.get('federation_resolvers').set('If-Modified-Since', past)).status).toBe(200);
    });
  });

  describe('DELETE', () => {
    it('deletes a resolver and its links', async () => {
      const resolver = await create(uniqueIpv4());
      const federation = await createFederation(admin, cdn.name);
      await admin.post(`federations/${federation.id}/federation_resolvers`, {
        fedResolverIds: [resolver.id],
      });
      const res = await admin.delete(`federation_resolvers?id=${resolver.id}`);
      expectSuccessAlert(
        res,
        `Federation resolver deleted [ IP = ${resolver.ipAddress} ] with id: ${resolver.id}`,
      );
      expectApiHeaders(res);
      expect(responseOf(res)).toEqual({ id: resolver.id, ipAddress: resolver.ipAddress, type: 'RESOLVE4' });
      expect(await stored(resolver.ipAddress)).toBe(0);
      expect(responseOf(await admin.get(`federations/${federation.id}/federation_resolvers`))).toEqual([]);
    });

    it('answers the original 4xx texts', async () => {
      const resolver = await create(uniqueIpv4());
      await expectErrors([
        [admin.delete('federation_resolvers?id=999999999'), 404, 'No federation resolver by ID 999999999'],
        [
          admin.delete('federation_resolvers'),
          400,
          'required parameters missing: missing required parameters: id',
        ],
        [
          admin.delete('federation_resolvers?id=x'),
          400,
          "getting integer parameters: parameter 'id' not an integer",
        ],
      ]);
      expect(await stored(resolver.ipAddress)).toBe(1);
    });
  });

  describe('federations/{id}/federation_resolvers', () => {
    let federation: FederationResponse;
    let resolvers: Resolver[];

    const linked = async (id = federation.id) =>
      responseOf<Resolver[]>(await admin.get(`federations/${id}/federation_resolvers`)).map((r) => r.id);

    beforeEach(async () => {
      federation = await createFederation(admin, cdn.name);
      resolvers = [await create(uniqueIpv4()), await create(uniqueIpv6()), await create(uniqueIpv4())];
    });

    it('assigns resolvers on every version and lists them', async () => {
      for (const version of ['3.0', '4.0', '5.0']) {
        const res = await admin.at(version).post(`federations/${federation.id}/federation_resolvers`, {
          fedResolverIds: [resolvers[0].id, resolvers[1].id],
          replace: true,
        });
        expectOk(res, `2 resolver(s) were assigned to the ${federation.cname} federation`);
        expect(responseOf(res)).toEqual({
          replace: true,
          fedResolverIds: [resolvers[0].id, resolvers[1].id],
        });
      }
      const res = expectOk(await readOnly.client.get(`federations/${federation.id}/federation_resolvers`));
      expect(responseOf(res)).toEqual([
        { id: resolvers[0].id, ipAddress: resolvers[0].ipAddress, type: 'RESOLVE4' },
        { id: resolvers[1].id, ipAddress: resolvers[1].ipAddress, type: 'RESOLVE6' },
      ]);
    });

    it('keeps existing links without replace and drops the others with it', async () => {
      const path = `federations/${federation.id}/federation_resolvers`;
      await admin.post(path, { fedResolverIds: [resolvers[0].id] });
      const res = await admin.post(path, { fedResolverIds: [resolvers[0].id, resolvers[1].id] });
      expect(responseOf(res)).toEqual({ replace: false, fedResolverIds: [resolvers[0].id, resolvers[1].id] });
      expect(await linked()).toEqual([resolvers[0].id, resolvers[1].id]);
      await admin.post(path, { fedResolverIds: [resolvers[2].id], replace: true });
      expect(await linked()).toEqual([resolvers[2].id]);
    });

    it('answers the original 4xx texts, writing nothing', async () => {
      const path = `federations/${federation.id}/federation_resolvers`;
      await admin.post(path, { fedResolverIds: [resolvers[0].id] });
      await expectErrors([
        [
          admin.post(path, { fedResolverIds: [resolvers[1].id, 999999999], replace: true }),
          404,
          'federation_resolver not found',
        ],
        [
          admin.post('federations/999999999/federation_resolvers', { fedResolverIds: [resolvers[1].id] }),
          404,
          "'999999999': no such Federation",
        ],
        [
          admin.post(path, { fedResolverIds: 'x' }),
          400,
          'malformed JSON: fedResolverIds must be an array of integers',
        ],
        [
          admin.post(path, { fedResolverIds: [1], replace: 1 }),
          400,
          'malformed JSON: replace must be a boolean',
        ],
        [
          admin.post('federations/x/federation_resolvers', {}),
          400,
          "getting integer parameters: parameter 'id' not an integer",
        ],
      ]);
      expect(await linked()).toEqual([resolvers[0].id]);
      expect(await linked(999999999)).toEqual([]);
    });

    it('names, on 4.0+, the permissions the user lacks', async () => {
      const path = `federations/${federation.id}/federation_resolvers`;
      const body = { fedResolverIds: [resolvers[0].id] };
      const role = await createRole(admin, ['FEDERATION:READ']);
      const limited = await createUser(app, admin, role);
      await expectErrors([
        [limited.client.get(path), 403, 'missing required Permissions: FEDERATION-RESOLVER:READ'],
        [
          limited.client.post(path, body),
          403,
          'missing required Permissions: FEDERATION:UPDATE, FEDERATION-RESOLVER:READ',
        ],
      ]);
      expect(await linked()).toEqual([]);
    });
  });
});
