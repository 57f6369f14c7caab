import { responseOf } from 'test/e2e/support/api';
import { createRole, createUser } from 'test/e2e/support/accounts';
import { expectError, expectErrors, expectMalformedJson } from 'test/e2e/support/alerts';
import { expectOk } from 'test/e2e/support/headers';
import { CUSTOM_TIME, RFC3339_FRACTIONAL_TIME } from 'test/e2e/support/times';
import { createDeliveryService } from 'test/e2e/support/fixtures/delivery-services-api';
import type { DeliveryServiceResponse } from 'test/e2e/support/fixtures/delivery-services-api';
import { createCdn } from 'test/e2e/support/fixtures/profiles';
import { useApp } from 'test/e2e/support/suite';

type Ds = DeliveryServiceResponse;

describe('PUT /deliveryservices/{id}/safe', () => {
  const { app, admin } = useApp();
  let cdn: { id: number; name: string };

  const fetch = async (id: number, version = '4.0'): Promise<Ds> =>
    responseOf<Ds[]>(await admin.at(version).get(`deliveryservices?id=${id}`))[0];

  beforeAll(async () => {
    cdn = await createCdn(admin);
  });

  it('changes displayName, infoUrl and longDesc and answers an array with the full record', async () => {
    const ds = await createDeliveryService(admin, cdn.id, {
      geoLimit: 1,
      geoLimitCountries: ['US'],
      tlsVersions: ['1.3'],
    });
    const res = await admin.put(`deliveryservices/${ds.id}/safe`, {
      displayName: 'safe name',
      infoUrl: 'https://info.example.net',
      longDesc: 'safe desc',
    });
    expectOk(res);
    expect((res.body as { alerts: unknown }).alerts).toEqual([
      { text: 'Delivery Service safe update successful.', level: 'success' },
    ]);
    const [record] = responseOf<Ds[]>(res);
    expect(record).toMatchObject({
      id: ds.id,
      xmlId: ds.xmlId,
      displayName: 'safe name',
      infoUrl: 'https://info.example.net',
      longDesc: 'safe desc',
      cdnName: cdn.name,
      tenant: 'root',
      type: 'HTTP',
      tlsVersions: ['1.3'],
      geoLimitCountries: ['US'],
      exampleURLs: ds.exampleURLs,
      matchList: [{ pattern: `.*\\.${ds.xmlId}\\..*`, setNumber: 0, type: 'HOST_REGEXP' }],
      profileName: null,
      profileDescription: null,
      lastUpdated: expect.stringMatching(CUSTOM_TIME),
    });
    expect(await fetch(ds.id)).toEqual(record);
  });

  it('clears infoUrl and longDesc when null or absent', async () => {
    const ds = await createDeliveryService(admin, cdn.id, { infoUrl: 'https://x.example.net' });
    const res = await admin.put(`deliveryservices/${ds.id}/safe`, { displayName: 'd', longDesc: null });
    expect(res.status).toBe(200);
    expect(await fetch(ds.id)).toMatchObject({ infoUrl: null, longDesc: '' });
  });

  it('answers an array with RFC 3339 timestamps and the state name on 5.0 (D4, D6)', async () => {
    const ds = await createDeliveryService(admin, cdn.id);
    const res = await admin.at('5.0').put(`deliveryservices/${ds.id}/safe`, { displayName: 'five' });
    expect(res.status).toBe(200);
    const response = responseOf<Ds[]>(res);
    expect(Array.isArray(response)).toBe(true);
    expect(response[0]).toMatchObject({
      displayName: 'five',
      active: 'ACTIVE',
      lastUpdated: expect.stringMatching(RFC3339_FRACTIONAL_TIME),
    });
  });

  it('writes longDesc1 on 3.x and refuses it from 4.0', async () => {
    const ds = await createDeliveryService(admin, cdn.id);
    const v3 = await admin
      .at('3.0')
      .put(`deliveryservices/${ds.id}/safe`, { displayName: 'three', longDesc1: 'first' });
    expect(v3.status).toBe(200);
    expect(responseOf<Ds[]>(v3)[0]).toMatchObject({
      displayName: 'three',
      longDesc1: 'first',
      geoLimitCountries: '',
    });
    for (const version of ['4.0', '5.0']) {
      expectError(
        await admin
          .at(version)
          .put(`deliveryservices/${ds.id}/safe`, { displayName: 'four', longDesc1: 'x' }),
        400,
        'the longDesc1 field is no longer supported in API 4.0 onwards',
      );
    }
    expect((await fetch(ds.id)).displayName).toBe('three');
    const cleared = await admin
      .at('4.0')
      .put(`deliveryservices/${ds.id}/safe`, { displayName: 'four', longDesc1: null });
    expect(cleared.status).toBe(200);
    expect(await fetch(ds.id)).toMatchObject({ displayName: 'four' });
    const v3Again = await admin.at('3.0').get(`deliveryservices?id=${ds.id}`);
    expect(responseOf<Ds[]>(v3Again)[0]).toMatchObject({ longDesc1: 'first' });
  });

  it('requires displayName', async () => {
    const ds = await createDeliveryService(admin, cdn.id);
    await expectErrors([
      [
        admin.put(`deliveryservices/${ds.id}/safe`, { infoUrl: 'x' }),
        400,
        'decoding: validating: displayName: cannot be null/missing',
      ],
      [
        admin.put(`deliveryservices/${ds.id}/safe`, { displayName: 5 }),
        400,
        'decoding: validating: displayName: must be a string',
      ],
      [
        admin.put(`deliveryservices/${ds.id}/safe`, { infoUrl: 3 }),
        400,
        'decoding: validating: infoUrl: must be a string',
      ],
      [
        admin.put(`deliveryservices/${ds.id}/safe`, { displayName: 'x', longDesc: 3, infoUrl: true }),
        400,
        'decoding: validating: infoUrl: must be a string',
      ],
      [
        admin.put(`deliveryservices/${ds.id}/safe`, { displayName: 'x', longDesc: [] }),
        400,
        'decoding: validating: longDesc: must be a string',
      ],
      [
        admin.put(`deliveryservices/${ds.id}/safe`, { displayName: null }),
        400,
        'decoding: validating: displayName: cannot be null/missing',
      ],
      [
        admin.put(`deliveryservices/${ds.id}/safe`, { displayName: 'x'.repeat(49) }),
        400,
        'decoding: validating: displayName: the length must be between 1 and 48',
      ],
      [
        admin.at('4.0').put(`deliveryservices/${ds.id}/safe`, { displayName: 'x', longDesc1: 3 }),
        400,
        'decoding: validating: longDesc1: must be a string',
      ],
      [
        admin.at('4.0').put(`deliveryservices/${ds.id}/safe`, { longDesc1: 'x' }),
        400,
        'decoding: validating: displayName: cannot be null/missing',
      ],
      [
        admin
          .at('5.0')
          .put(`deliveryservices/${ds.id}/safe`, { displayName: 'x'.repeat(49), longDesc1: 'x' }),
        400,
        'decoding: validating: displayName: the length must be between 1 and 48',
      ],
      [
        admin.raw('put', `deliveryservices/${ds.id}/safe`, '[]'),
        400,
        'decoding: the request body must be a JSON object',
      ],
      [
        admin.raw('put', `deliveryservices/${ds.id}/safe`, 'null'),
        400,
        'decoding: the request body must be a JSON object',
      ],
    ]);
    expect((await fetch(ds.id)).displayName).toBe(ds.displayName);
    const res = await admin.raw('put', `deliveryservices/${ds.id}/safe`, '{');
    expectMalformedJson(res);
  });

  it('answers 404 for a missing delivery service and 400 for a bad id', async () => {
    await expectErrors([
      [
        admin.put('deliveryservices/99999999/safe', { displayName: 'x' }),
        404,
        "no Delivery Service exists by ID '99999999'",
      ],
      [
        admin.put('deliveryservices/x/safe', { displayName: 'x' }),
        400,
        "getting integer parameters: parameter 'id' not an integer",
      ],
    ]);
  });

  it('lets any signed-in user with the permissions in', async () => {
    const ds = await createDeliveryService(admin, cdn.id);
    const readOnly = await createUser(app, admin, 'read-only');
    const res = await readOnly.client.put(`deliveryservices/${ds.id}/safe`, { displayName: 'by read-only' });
    expect(res.status).toBe(200);
    const lacking = await createUser(app, admin, await createRole(admin, ['DELIVERY-SERVICE:READ']));
    expectError(
      await lacking.client.put(`deliveryservices/${ds.id}/safe`, { displayName: 'x' }),
      403,
      'missing required Permissions: DELIVERY-SERVICE-SAFE:UPDATE, TYPE:READ',
    );
    expect(
      (await lacking.client.at('3.0').put(`deliveryservices/${ds.id}/safe`, { displayName: 'v3' })).status,
    ).toBe(200);
    const disallowed = await createUser(app, admin, 'disallowed').catch(() => undefined);
    if (disallowed) {
      expectError(
        await disallowed.client.put(`deliveryservices/${ds.id}/safe`, { displayName: 'x' }),
        403,
        'Forbidden.',
      );
    }
  });
});
