import { responseOf, uniqueName, type Wire } from 'test/e2e/support/api';
import { type CreatedUser, createTenant, createUser } from 'test/e2e/support/accounts';
import { expectError, expectErrors, expectMalformedJson, expectSuccessAlert } from 'test/e2e/support/alerts';
import { expectOk } from 'test/e2e/support/headers';
import { CUSTOM_TIME, RFC3339_TIME } from 'test/e2e/support/times';
import { createCachegroup } from 'test/e2e/support/fixtures/cachegroups';
import { createDeliveryService } from 'test/e2e/support/fixtures/delivery-services-api';
import type { DeliveryServiceResponse } from 'test/e2e/support/fixtures/delivery-services-api';
import { createCdn, createProfile } from 'test/e2e/support/fixtures/profiles';
import type { OriginV3, OriginV5 } from 'src/modules/delivery-services/origins/origin.response';
import { useApp } from 'test/e2e/support/suite';

type Origin = Wire<OriginV3>;

describe('origins', () => {
  const { app, admin } = useApp();
  let cdn: { id: number; name: string };
  let ds: DeliveryServiceResponse;

  const all = async (): Promise<Origin[]> => responseOf<Origin[]>(await admin.get('origins'));
  const body = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
    name: uniqueName('origin'),
    fqdn: 'origin.example.net',
    protocol: 'http',
    deliveryServiceId: ds.id,
    tenantId: 1,
    ...overrides,
  });
  const create = async (overrides: Record<string, unknown> = {}): Promise<Origin> => {
    const res = await admin.post('origins', body(overrides));
    expect(res.status).toBe(200);
    return responseOf<Origin>(res);
  };

  beforeAll(async () => {
    cdn = await createCdn(admin);
    ds = await createDeliveryService(admin, cdn.id, { orgServerFqdn: 'https://primary.example.net:8443' });
  });

  it('lists the primary origin the delivery service wrote, with every field', async () => {
    const res = expectOk(await admin.get(`origins?deliveryservice=${ds.id}&primary=true`));
    expect(responseOf(res)).toEqual([
      {
        cachegroup: null,
        cachegroupId: null,
        coordinate: null,
        coordinateId: null,
        deliveryService: ds.xmlId,
        deliveryServiceId: ds.id,
        fqdn: 'primary.example.net',
        id: expect.any(Number),
        ip6Address: null,
        ipAddress: null,
        isPrimary: true,
        lastUpdated: expect.stringMatching(CUSTOM_TIME),
        name: ds.xmlId,
        port: 8443,
        profile: null,
        profileId: null,
        protocol: 'https',
        tenant: 'root',
        tenantId: 1,
      },
    ]);
  });

  it.each(['3.0', '4.0', '4.1'])('creates, updates and deletes with references on %s', async (version) => {
    const client = admin.at(version);
    const cg = await createCachegroup(admin);
    const profile = await createProfile(admin, cdn.id);
    const coord = responseOf<{ id: number; name: string }>(
      await admin.post('coordinates', { name: uniqueName('coord'), latitude: 1, longitude: 2 }),
    );
    const name = uniqueName('origin');
    const created = await client.post(
      'origins',
      body({
        name,
        cachegroupId: cg.id,
        coordinateId: coord.id,
        profileId: profile.id,
        port: 80,
        ipAddress: '192.0.2.1',
        ip6Address: '2001:db8::1',
      }),
    );
    expectOk(created);
    expectSuccessAlert(created, 'origin was created.');
    const o = responseOf<Origin>(created);
    expect(o).toEqual({
      cachegroup: cg.name,
      cachegroupId: cg.id,
      coordinate: coord.name,
      coordinateId: coord.id,
      deliveryService: ds.xmlId,
      deliveryServiceId: ds.id,
      fqdn: 'origin.example.net',
      id: expect.any(Number),
      ip6Address: '2001:db8::1',
      ipAddress: '192.0.2.1',
      isPrimary: false,
      lastUpdated: expect.stringMatching(CUSTOM_TIME),
      name,
      port: 80,
      profile: profile.name,
      profileId: profile.id,
      protocol: 'http',
      tenant: 'root',
      tenantId: 1,
    });
    expect(responseOf(await client.get(`origins?id=${o.id}`))).toEqual([o]);
    expectError(
      await admin.delete(`coordinates?id=${coord.id}`),
      400,
      'cannot delete coordinate because it is being used by an origin',
    );
    const updated = await client.put(
      `origins?id=${o.id}`,
      body({ name, protocol: 'https', fqdn: 'other.example.net' }),
    );
    expect(updated.status).toBe(200);
    expectSuccessAlert(updated, 'origin was updated.');
    expect(responseOf(updated)).toEqual({
      ...o,
      cachegroup: null,
      cachegroupId: null,
      coordinate: null,
      coordinateId: null,
      profile: null,
      profileId: null,
      port: null,
      ipAddress: null,
      ip6Address: null,
      protocol: 'https',
      fqdn: 'other.example.net',
      lastUpdated: expect.stringMatching(CUSTOM_TIME),
    });
    const deleted = await client.delete(`origins?id=${o.id}`);
    expect(deleted.body).toEqual({ alerts: [{ level: 'success', text: 'origin was deleted.' }] });
    expect(responseOf(await client.get(`origins?id=${o.id}`))).toEqual([]);
  });

  it('answers 5.0 with RFC 3339 timestamps and its own texts', async () => {
    const v5 = admin.at('5.0');
    const created = await v5.post('origins', body());
    expect(created.status).toBe(200);
    const o = responseOf<OriginV5>(created);
    expect(o.lastUpdated).toMatch(RFC3339_TIME);
    expect(responseOf<OriginV5[]>(await v5.get(`origins?id=${o.id}`))).toEqual([o]);
    await expectErrors([
      [v5.put('origins?id=99999999', body()), 404, 'no origin exists by id: 99999999'],
      [v5.delete('origins?id=99999999'), 404, 'no origin exists by id: 99999999'],
      [v5.delete('origins'), 400, 'required parameters missing: missing required parameters: id'],
      [
        v5.post('origins', body({ deliveryServiceId: 0, tenantId: undefined })),
        400,
        "'deliveryServiceId' cannot be blank, 'tenantId' cannot be blank",
      ],
    ]);
    expectSuccessAlert(await v5.delete(`origins?id=${o.id}`), 'origin was deleted.');
  });

  it('refuses deleting a primary origin or moving it to another delivery service', async () => {
    const [primary] = responseOf<Origin[]>(await admin.get(`origins?deliveryservice=${ds.id}&primary=true`));
    const other = await createDeliveryService(admin, cdn.id);
    await expectErrors([
      [admin.delete(`origins?id=${primary.id}`), 400, 'cannot delete a primary origin'],
      [admin.at('5.0').delete(`origins?id=${primary.id}`), 400, 'cannot delete a primary origin'],
      [
        admin.put(
          `origins?id=${primary.id}`,
          body({
            name: primary.name,
            deliveryServiceId: other.id,
            fqdn: primary.fqdn,
            protocol: primary.protocol,
          }),
        ),
        400,
        'cannot update the delivery service of a primary origin',
      ],
    ]);
    expect((await all()).find((x) => x.id === primary.id)).toEqual(primary);
  });

  it('refuses bad bodies and unknown references, writing nothing', async () => {
    const o = await create();
    const before = await all();
    expectError(
      await admin.post(
        'origins',
        body({
          cachegroupId: 0,
          fqdn: 'bad fqdn',
          ipAddress: '::1',
          name: 'a b',
          port: 70000,
          protocol: 'ftp',
        }),
      ),
      400,
      "'cachegroupId' must be no less than 1, 'fqdn' must be a valid DNS name, 'ipAddress' must be a valid IPv4 address, 'name' cannot contain spaces, 'port' must be a valid integer between 1 and 65535, 'protocol' must be http or https",
    );
    await expectErrors([
      [admin.post('origins', body({ deliveryServiceId: undefined })), 400, "'deliveryServiceId' is required"],
      [admin.post('origins', body({ port: 'x' })), 400, "'port' must be a valid integer between 1 and 65535"],
      [
        admin.post('origins', body({ protocol: 'HTTP' })),
        400,
        'invalid enum value HTTP for field origin_protocol.',
      ],
      [admin.post('origins', body({ cachegroupId: 99999999 })), 404, 'cachegroup not found'],
      [admin.post('origins', body({ profileId: 99999999 })), 404, 'profile not found'],
      [admin.post('origins', body({ coordinateId: 99999999 })), 404, 'coordinate not found'],
      [
        admin.post('origins', body({ deliveryServiceId: 99999999 })),
        400,
        'checking tenancy: requested delivery service does not exist',
      ],
      [admin.post('origins', body({ name: o.name })), 400, `origin name '${o.name}' already exists.`],
      [
        admin.post('origins', body({ tenantId: undefined })),
        403,
        'tenancy is enabled but request tenantID is nil',
      ],
    ]);
    expectMalformedJson(await admin.raw('post', 'origins', '{"name"'));
    await expectErrors([
      [admin.put('origins', body()), 400, 'missing key: id'],
      [admin.put('origins?id=x', body()), 400, 'failed to parse key: id'],
      [admin.put('origins?id=99999999', body()), 404, 'origin not found'],
      [admin.delete('origins?id=99999999'), 404, 'origin not found'],
      [admin.get('origins?deliveryservice=x'), 400, 'deliveryservice cannot parse to integer'],
    ]);
    expect(await all()).toEqual(before);
  });

  describe('tenancy', () => {
    let child: { id: number }, sibling: { id: number };
    let ops: CreatedUser;
    let dsOutside: DeliveryServiceResponse;

    beforeAll(async () => {
      child = await createTenant(admin);
      sibling = await createTenant(admin);
      ops = await createUser(app, admin, 'operations', child.id);
      dsOutside = await createDeliveryService(admin, cdn.id, { tenantId: sibling.id });
    });

    it('lists only origins within reach and refuses writes out of reach', async () => {
      const inside = await createDeliveryService(admin, cdn.id, { tenantId: child.id });
      const mine = await create({ deliveryServiceId: inside.id, tenantId: child.id });
      const theirs = await create({ deliveryServiceId: dsOutside.id, tenantId: sibling.id });
      const listed = responseOf<Origin[]>(await ops.client.get('origins')).map((x) => x.id);
      expect(listed).toContain(mine.id);
      expect(listed).not.toContain(theirs.id);
      await expectErrors([
        [
          ops.client.post('origins', body({ deliveryServiceId: inside.id, tenantId: sibling.id })),
          403,
          'user not authorized for requested tenant',
        ],
        [
          ops.client.post('origins', body({ deliveryServiceId: dsOutside.id, tenantId: child.id })),
          403,
          'user not authorized for requested delivery service tenant',
        ],
        [
          ops.client.put(
            `origins?id=${theirs.id}`,
            body({ deliveryServiceId: inside.id, tenantId: child.id }),
          ),
          403,
          'not authorized on this tenant',
        ],
        [ops.client.delete(`origins?id=${theirs.id}`), 403, 'not authorized on this tenant'],
        [
          ops.client.at('5.0').delete(`origins?id=${theirs.id}`),
          403,
          'user not authorized for requested tenant',
        ],
      ]);
      expect((await all()).find((x) => x.id === theirs.id)).toEqual(theirs);
      expectSuccessAlert(await ops.client.delete(`origins?id=${mine.id}`), 'origin was deleted.');
    });
  });

  it('answers If-Modified-Since with 304 and a stale If-Unmodified-Since with 412 (D33)', async () => {
    const o = await create();
    const future = new Date(Date.now() + 60_000).toUTCString();
    expect((await admin.get('origins').set('If-Modified-Since', future)).status).toBe(304);
    const past = new Date(Date.now() - 3_600_000).toUTCString();
    expectError(
      await admin.delete(`origins?id=${o.id}`).set('If-Unmodified-Since', past),
      412,
      'resource was modified since the time specified by the request headers',
    );
  });
});
