import { DataSource } from 'typeorm';
import { responseOf, uniqueName } from 'test/e2e/support/api';
import { type CreatedUser, createTenant, createUser } from 'test/e2e/support/accounts';
import { expectError, expectErrors, expectMalformedJson } from 'test/e2e/support/alerts';
import { expectOk } from 'test/e2e/support/headers';
import { CUSTOM_TIME } from 'test/e2e/support/times';
import { setTopology } from 'test/e2e/support/fixtures/delivery-service-servers';
import { insertDeliveryService } from 'test/e2e/support/fixtures/delivery-services';
import { countRows } from 'test/e2e/support/fixtures/federations';
import { createCdn } from 'test/e2e/support/fixtures/profiles';
import { deliveryServiceBody } from 'test/e2e/support/fixtures/delivery-services-api';
import { typeIdOf } from 'test/e2e/support/fixtures/cachegroups';
import { createServer } from 'test/e2e/support/fixtures/servers';
import type { DeliveryServicesRequiredCapabilityV3 } from 'src/modules/server-capabilities/dto/required-capability.response';
import { useApp } from 'test/e2e/support/suite';

const DEPRECATED = {
  text: 'This endpoint is deprecated, please use the deliveryservices endpoint instead',
  level: 'warning',
};
const PATH = 'deliveryservices_required_capabilities';
const capabilityName = () => uniqueName('cap').replace(/-/g, '_');

describe('deliveryservices_required_capabilities', () => {
  const { app, admin } = useApp();
  let cdnId: number, tenantId: number;
  let outsider: CreatedUser;

  const capability = async (): Promise<string> => {
    const name = capabilityName();
    expect((await admin.post('server_capabilities', { name })).status).toBe(200);
    return name;
  };
  const required = (dsId: number) =>
    countRows(app, 'deliveryservices_required_capability', 'deliveryservice_id = ?', [dsId]);
  const query = (sql: string, params: unknown[]) => app.get(DataSource).query(sql, params);
  const assign = (dsId: number, serverId: number) =>
    query('INSERT INTO deliveryservice_server (deliveryservice, server) VALUES (?, ?)', [dsId, serverId]);
  const give = (serverId: number, name: string) =>
    query('INSERT INTO server_server_capability (server, server_capability) VALUES (?, ?)', [serverId, name]);

  beforeAll(async () => {
    cdnId = (await createCdn(admin)).id;
    tenantId = (await createTenant(admin)).id;
    outsider = await createUser(app, admin, 'operations', (await createTenant(admin)).id);
  });

  it('is served on 3.0 through 4.1 only', async () => {
    expect((await admin.at('5.0').get(PATH)).status).toBe(404);
    expect((await admin.at('3.1').get(PATH)).status).toBe(200);
  });

  it('makes a capability required, on 3.x without and on 4.x with the deprecation warning', async () => {
    const name = await capability();
    const ds = await insertDeliveryService(app, cdnId);
    const res = expectOk(
      await admin.at('3.0').post(PATH, { deliveryServiceID: ds.id, requiredCapability: name }),
    );
    expect(res.body).toEqual({
      alerts: [{ text: 'deliveryservice.RequiredCapability was created.', level: 'success' }],
      response: {
        deliveryServiceID: ds.id,
        lastUpdated: expect.stringMatching(CUSTOM_TIME),
        requiredCapability: name,
      },
    });

    const other = await capability();
    const v4 = await admin.at('4.1').post(PATH, { deliveryServiceID: ds.id, requiredCapability: other });
    expect(v4.body).toEqual({
      alerts: [DEPRECATED, { text: 'deliveryservice.RequiredCapability was created.', level: 'success' }],
      response: {
        deliveryServiceID: ds.id,
        lastUpdated: expect.stringMatching(CUSTOM_TIME),
        requiredCapability: other,
      },
    });
    expect(await required(ds.id)).toBe(2);
  });

  it('lists the requirements within the user tenancy, filtered by delivery service, xmlID and capability', async () => {
    const name = await capability();
    const mine = await insertDeliveryService(app, cdnId);
    const theirs = await insertDeliveryService(app, cdnId, { tenantId });
    for (const ds of [mine, theirs]) {
      expect((await admin.post(PATH, { deliveryServiceID: ds.id, requiredCapability: name })).status).toBe(
        200,
      );
    }
    const v3 = expectOk(await admin.at('3.0').get(`${PATH}?requiredCapability=${name}`));
    const row = (ds: { id: number; xmlId: string }): DeliveryServicesRequiredCapabilityV3 => ({
      deliveryServiceID: ds.id,
      lastUpdated: expect.stringMatching(CUSTOM_TIME),
      requiredCapability: name,
      xmlID: ds.xmlId,
    });
    expect(v3.body).toEqual({ response: [row(mine), row(theirs)] });
    const v4 = await admin.at('4.0').get(`${PATH}?xmlID=${theirs.xmlId}`);
    expect(v4.body).toEqual({ alerts: [DEPRECATED], response: [row(theirs)] });
    expect(responseOf(await admin.get(`${PATH}?deliveryServiceID=${mine.id}`))).toEqual([row(mine)]);
    expect(responseOf(await outsider.client.get(`${PATH}?requiredCapability=${name}`))).toEqual([]);
    const inTenant = await createUser(app, admin, 'read-only', tenantId);
    expect(responseOf(await inTenant.client.get(`${PATH}?requiredCapability=${name}`))).toEqual([
      row(theirs),
    ]);
    expectError(
      await admin.at('3.0').get(`${PATH}?deliveryServiceID=x`),
      400,
      'deliveryServiceID cannot parse to integer',
    );
  });

  it('requires every non-origin server of the delivery service to have the capability', async () => {
    const name = await capability();
    const ds = await insertDeliveryService(app, cdnId);
    const [with_, without, other] = [
      await createServer(admin, cdnId),
      await createServer(admin, cdnId),
      await createServer(admin, cdnId),
    ];
    const origin = await createServer(admin, cdnId);
    await query('UPDATE server SET type = (SELECT id FROM type WHERE name = ?) WHERE id = ?', [
      'ORG',
      origin.id,
    ]);
    for (const server of [with_, without, other, origin]) {
      await assign(ds.id, server.id);
    }
    await give(with_.id, name);
    const lacking = [without.id, other.id].sort((a, b) => a - b).join(',');
    expectError(
      await admin.at('3.0').post(PATH, { deliveryServiceID: ds.id, requiredCapability: name }),
      400,
      `capability ${name} cannot be made required on the delivery service ${ds.id} as it has the associated servers ${lacking} that do not have the capability assigned`,
    );
    await give(without.id, name);
    await give(other.id, name);
    expect((await admin.post(PATH, { deliveryServiceID: ds.id, requiredCapability: name })).status).toBe(200);
  });

  it('refuses to assign an EDGE server lacking a required capability to the delivery service', async () => {
    const [a, b] = [await capability(), await capability()];
    const ds = await insertDeliveryService(app, cdnId, { active: 'INACTIVE' });
    for (const name of [b, a]) {
      expect((await admin.post(PATH, { deliveryServiceID: ds.id, requiredCapability: name })).status).toBe(
        200,
      );
    }
    const [edge, mid] = [await createServer(admin, cdnId), await createServer(admin, cdnId)];
    await query('UPDATE server SET type = (SELECT id FROM type WHERE name = ?) WHERE id = ?', [
      'MID',
      mid.id,
    ]);
    await give(edge.id, a);
    const assign = () =>
      admin.post('deliveryserviceserver', { dsId: ds.id, servers: [mid.id, edge.id], replace: false });
    expectError(
      await assign(),
      400,
      `the cache ${edge.hostName} cannot be assigned to this delivery service without having the required delivery service capabilities: [${[a, b].sort().join(' ')}]`,
    );
    expect(await countRows(app, 'deliveryservice_server', 'deliveryservice = ?', [ds.id])).toBe(0);
    await give(edge.id, b);
    expect((await assign()).status).toBe(200);
    expect(await countRows(app, 'deliveryservice_server', 'deliveryservice = ?', [ds.id])).toBe(2);
  });

  it('checks the servers of the topology of a topology-based delivery service, not its assignments', async () => {
    const name = await capability();
    const ds = await insertDeliveryService(app, cdnId);
    const topology = `topology-${ds.id}`;
    await setTopology(app, ds.id, topology);
    expectError(
      await admin.post(PATH, { deliveryServiceID: ds.id, requiredCapability: name }),
      400,
      `cannot add required capability: topology ${topology} contains no servers in this delivery service's ` +
        "CDN; therefore, this delivery service's required capabilities cannot be satisfied",
    );
    expect(
      await countRows(app, 'deliveryservices_required_capability', 'deliveryservice_id = ?', [ds.id]),
    ).toBe(0);
  });

  it('refuses delivery services out of reach, unknown or of another type, unknown capabilities and repeats', async () => {
    const name = await capability();
    const theirs = await insertDeliveryService(app, cdnId, { tenantId });
    await expectErrors([
      [
        outsider.client.at('3.0').post(PATH, { deliveryServiceID: theirs.id, requiredCapability: name }),
        403,
        'not authorized on this tenant',
      ],
      [
        admin.at('3.0').post(PATH, { deliveryServiceID: 2_000_000_000, requiredCapability: name }),
        404,
        "a deliveryservice with id '2000000000' was not found",
      ],
    ]);
    const steering = await insertDeliveryService(app, cdnId, { typeName: 'STEERING' });
    expectError(
      await admin.at('3.0').post(PATH, { deliveryServiceID: steering.id, requiredCapability: name }),
      400,
      'invalid DS type. Only DNS and HTTP delivery services can have required capabilities',
    );
    const dns = await insertDeliveryService(app, cdnId, { typeName: 'DNS_LIVE' });
    expectError(
      await admin
        .at('3.0')
        .post(PATH, { deliveryServiceID: dns.id, requiredCapability: 'no_such_capability' }),
      404,
      'server_capability not found',
    );
    expect((await admin.post(PATH, { deliveryServiceID: dns.id, requiredCapability: name })).status).toBe(
      200,
    );
    expectError(
      await admin.at('3.0').post(PATH, { deliveryServiceID: dns.id, requiredCapability: name }),
      400,
      `capability ${name} already exists for delivery service with ID: ${dns.id}`,
    );
    expect(await required(theirs.id)).toBe(0);
    expect(await required(steering.id)).toBe(0);
    expect(await required(dns.id)).toBe(1);
  });

  it('refuses a bad body, writing nothing', async () => {
    for (const [body, text] of [
      [{}, "'deliveryServiceID' cannot be blank, 'requiredCapability' cannot be blank"],
      [
        { deliveryServiceID: 0, requiredCapability: '' },
        "'deliveryServiceID' cannot be blank, 'requiredCapability' cannot be blank",
      ],
      [{ deliveryServiceID: '1', requiredCapability: 'x' }, "'deliveryServiceID' must be an integer"],
      [
        { deliveryServiceID: 2 ** 31, requiredCapability: 'x' },
        "'deliveryServiceID' must be no greater than 2147483647",
      ],
      [{ deliveryServiceID: 1, requiredCapability: ['x'] }, "'requiredCapability' must be a string"],
    ] as const) {
      expectError(await admin.at('3.0').post(PATH, body), 400, text);
    }
    expectMalformedJson(await admin.raw('post', PATH, '{"deliveryServiceID":'));
  });

  it('deletes a requirement, with the deprecation warning on 4.x', async () => {
    const name = await capability();
    const ds = await insertDeliveryService(app, cdnId);
    for (const version of ['3.0', '4.0']) {
      expect((await admin.post(PATH, { deliveryServiceID: ds.id, requiredCapability: name })).status).toBe(
        200,
      );
      const res = await admin
        .at(version)
        .delete(`${PATH}?deliveryServiceID=${ds.id}&requiredCapability=${name}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        alerts: [
          ...(version === '4.0' ? [DEPRECATED] : []),
          { text: 'deliveryservice.RequiredCapability was deleted.', level: 'success' },
        ],
      });
      expect(await required(ds.id)).toBe(0);
    }
  });

  it('answers 412 when the requirement changed after If-Unmodified-Since, deleting nothing', async () => {
    const name = await capability();
    const ds = await insertDeliveryService(app, cdnId);
    expect((await admin.post(PATH, { deliveryServiceID: ds.id, requiredCapability: name })).status).toBe(200);
    const res = await admin
      .delete(`${PATH}?deliveryServiceID=${ds.id}&requiredCapability=${name}`)
      .set('If-Unmodified-Since', new Date(Date.now() - 86_400_000).toUTCString());
    expectError(res, 412, 'resource was modified since the time specified by the request headers');
    expect(await required(ds.id)).toBe(1);
  });

  it('refuses deletes with bad keys, out of reach or of nothing', async () => {
    const name = await capability();
    const theirs = await insertDeliveryService(app, cdnId, { tenantId });
    expect((await admin.post(PATH, { deliveryServiceID: theirs.id, requiredCapability: name })).status).toBe(
      200,
    );
    await expectErrors([
      [admin.delete(`${PATH}?requiredCapability=${name}`), 400, 'missing key: deliveryServiceID'],
      [admin.delete(`${PATH}?deliveryServiceID=${theirs.id}`), 400, 'missing key: requiredCapability'],
      [
        admin.delete(`${PATH}?deliveryServiceID=x&requiredCapability=${name}`),
        400,
        'failed to parse key: deliveryServiceID',
      ],
      [
        outsider.client.delete(`${PATH}?deliveryServiceID=${theirs.id}&requiredCapability=${name}`),
        403,
        'not authorized on this tenant',
      ],
      [
        admin.delete(`${PATH}?deliveryServiceID=${theirs.id}&requiredCapability=other`),
        404,
        'no deliveryservice.RequiredCapability with that key found',
      ],
      [
        admin.delete(`${PATH}?deliveryServiceID=-1&requiredCapability=${name}`),
        404,
        'no deliveryservice.RequiredCapability with that key found',
      ],
    ]);
    expect(await required(theirs.id)).toBe(1);
  });

  it('shows what a delivery service requires in its requiredCapabilities from 4.1 on', async () => {
    const [b, a] = [await capability(), await capability()];
    const ds = await insertDeliveryService(app, cdnId);
    for (const name of [b, a]) {
      expect((await admin.post(PATH, { deliveryServiceID: ds.id, requiredCapability: name })).status).toBe(
        200,
      );
    }
    const shown = async (version: string) =>
      responseOf<Record<string, unknown>[]>(await admin.at(version).get(`deliveryservices?id=${ds.id}`))[0];
    expect((await shown('4.1')).requiredCapabilities).toEqual([a, b].sort());
    expect((await shown('5.0')).requiredCapabilities).toEqual([a, b].sort());
    expect(await shown('4.0')).not.toHaveProperty('requiredCapabilities');
  });

  it('takes requiredCapabilities from a delivery service body from 4.1 on, refusing unknown ones', async () => {
    const [a, b] = [await capability(), await capability()];
    const typeId = await typeIdOf(admin, 'HTTP');
    const body = deliveryServiceBody(cdnId, typeId, {
      requiredCapabilities: [a, 'no_such_cap', 'other_cap'],
    });
    expectError(
      await admin.at('4.1').post('deliveryservices', body),
      400,
      'invalid request: required capabilities: the following capabilities do not exist: no_such_cap,other_cap',
    );
    const created = await admin.at('4.1').post('deliveryservices', { ...body, requiredCapabilities: [b, a] });
    expect(created.status).toBe(200);
    const ds = responseOf<{ id: number; requiredCapabilities: string[] }[]>(created)[0];
    expect(ds.requiredCapabilities).toEqual([a, b].sort());
    const rows = async () =>
      (
        await query(
          'SELECT required_capability AS name FROM deliveryservices_required_capability WHERE deliveryservice_id = ? ORDER BY required_capability',
          [ds.id],
        )
      ).map((row: { name: string }) => row.name);

    expect((await admin.at('4.0').put(`deliveryservices/${ds.id}`, body)).status).toBe(200);
    expect(await rows()).toEqual([a, b].sort());
    expect(
      (await admin.at('4.1').put(`deliveryservices/${ds.id}`, { ...body, requiredCapabilities: [b] })).status,
    ).toBe(200);
    expect(await rows()).toEqual([b]);
    expect(
      (await admin.at('4.1').put(`deliveryservices/${ds.id}`, { ...body, requiredCapabilities: null }))
        .status,
    ).toBe(200);
    expect(await rows()).toEqual([]);

    const current = responseOf<Record<string, unknown>[]>(
      await admin.at('5.0').get(`deliveryservices?id=${ds.id}`),
    )[0];
    const v5 = await admin
      .at('5.0')
      .put(`deliveryservices/${ds.id}`, { ...current, requiredCapabilities: [a] });
    expect(v5.status).toBe(200);
    expect(await rows()).toEqual([a]);
  });

  it('answers 304 to If-Modified-Since when nothing changed since', async () => {
    const res = await admin
      .at('3.0')
      .get(PATH)
      .set('If-Modified-Since', new Date(Date.now() + 60_000).toUTCString());
    expect(res.status).toBe(304);
  });
});
