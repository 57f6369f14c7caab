import { responseOf } from 'test/e2e/support/api';
import { type CreatedUser, createTenant, createUser } from 'test/e2e/support/accounts';
import { expectError, expectErrors, expectMalformedJson, expectSuccessAlert } from 'test/e2e/support/alerts';
import { expectOk } from 'test/e2e/support/headers';
import { RFC3339_TIME } from 'test/e2e/support/times';
import { typeIdOf } from 'test/e2e/support/fixtures/cachegroups';
import { createDeliveryService, deliveryServiceBody } from 'test/e2e/support/fixtures/delivery-services-api';
import type { DeliveryServiceResponse } from 'test/e2e/support/fixtures/delivery-services-api';
import { createCdn } from 'test/e2e/support/fixtures/profiles';
import type { DeliveryServiceRequestV4 } from 'src/modules/delivery-service-requests/dto/delivery-service-request.response';
import { useApp } from 'test/e2e/support/suite';

type Dsr = DeliveryServiceRequestV4;

describe('deliveryservice_requests', () => {
  const { app, admin, portal } = useApp({ users: { portal: 'portal' } });
  let cdn: { id: number; name: string };
  let httpType: number;

  const requested = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
    ...deliveryServiceBody(cdn.id, httpType),
    cdnId: cdn.id,
    displayName: 'requested',
    ...overrides,
  });
  const all = async (query = ''): Promise<Dsr[]> =>
    responseOf<Dsr[]>(await admin.get(`deliveryservice_requests${query}`));
  const create = async (body: Record<string, unknown>, client = admin): Promise<Dsr> => {
    const res = await client.post('deliveryservice_requests', body);
    expect(res.status).toBe(200);
    return responseOf<Dsr>(res);
  };

  beforeAll(async () => {
    cdn = await createCdn(admin);
    httpType = await typeIdOf(admin, 'HTTP');
  });

  describe('create', () => {
    it.each(['4.0', '4.1', '5.0'])('creates a create request on %s and lists it', async (version) => {
      const ds = requested(version === '5.0' ? { active: 'ACTIVE' } : {});
      const res = await portal.client.at(version).post('deliveryservice_requests', {
        changeType: 'create',
        status: 'draft',
        requested: ds,
      });
      expectOk(res);
      expectSuccessAlert(res, 'Delivery Service request created');
      const dsr = responseOf<Dsr>(res);
      expect(dsr).toEqual({
        assignee: null,
        author: portal.username,
        changeType: 'create',
        createdAt: expect.stringMatching(RFC3339_TIME),
        id: expect.any(Number),
        lastEditedBy: portal.username,
        lastUpdated: expect.stringMatching(RFC3339_TIME),
        requested: expect.objectContaining({ xmlId: ds.xmlId, tenantId: 1, displayName: 'requested' }),
        status: 'draft',
      });
      expect(await all(`?id=${dsr.id}`)).toEqual([dsr]);
      expect(await all(`?xmlId=${String(ds.xmlId)}`)).toEqual([dsr]);
    });

    it('shows the delivery service an update request would change', async () => {
      const ds = await createDeliveryService(admin, cdn.id);
      const dsr = await create({
        changeType: 'update',
        status: 'submitted',
        assignee: 'admin',
        requested: requested({ id: ds.id, xmlId: ds.xmlId, displayName: 'renamed' }),
      });
      expect(dsr).toMatchObject({
        assignee: 'admin',
        changeType: 'update',
        original: expect.objectContaining({ id: ds.id, xmlId: ds.xmlId, displayName: ds.displayName }),
        requested: expect.objectContaining({ id: ds.id, displayName: 'renamed' }),
      });
      const [listed] = await all(`?id=${dsr.id}`);
      expect(listed.original).toEqual(dsr.original);
    });

    it('refuses what the original refuses, writing nothing', async () => {
      const before = await all();
      const ds = await createDeliveryService(admin, cdn.id);
      await expectErrors([
        [admin.post('deliveryservice_requests', { status: 'draft' }), 400, 'changeType: cannot be blank.'],
        [
          admin.post('deliveryservice_requests', {
            changeType: 'create',
            status: 'complete',
            assignee: 'nobody-here',
          }),
          400,
          "assignee: no such user 'nobody-here'; requested: required for changeType='create'; status: invalid transition from draft to complete.",
        ],
        [
          admin.post('deliveryservice_requests', {
            changeType: 'delete',
            status: 'draft',
            original: { xmlId: ds.xmlId },
          }),
          400,
          'original: must be identified (specify ID).',
        ],
        [
          admin.post('deliveryservice_requests', {
            changeType: 'create',
            status: 'pending',
            requested: requested(),
          }),
          400,
          'status: invalid transition from draft to pending.',
        ],
        [
          admin.post('deliveryservice_requests', {
            changeType: 'create',
            status: 'draft',
            requested: requested({ xmlId: 'a b' }),
          }),
          400,
          "requested: 'xmlId' cannot contain spaces.",
        ],
        [
          admin.post('deliveryservice_requests', { changeType: 'remove', status: 'draft' }),
          400,
          "decoding: invalid Delivery Service Request changeType: 'remove'",
        ],
        [
          admin.post('deliveryservice_requests', { changeType: 'create', status: 'open' }),
          400,
          'decoding: open is not a valid RequestStatus name',
        ],
        [
          admin.post('deliveryservice_requests', {
            changeType: 'create',
            status: 'draft',
            requested: { active: 'yes' },
          }),
          400,
          "decoding: requested: 'active' must be a boolean",
        ],
        [
          admin.post('deliveryservice_requests', {
            changeType: 'update',
            status: 'draft',
            requested: requested({ xmlId: 'no-such-ds' }),
          }),
          400,
          "cannot update non-existent Delivery Service 'no-such-ds'",
        ],
      ]);
      expectMalformedJson(await admin.raw('post', 'deliveryservice_requests', '{"changeType"'));
      expect(await all()).toEqual(before);
    });

    it('refuses a second open request for the same delivery service', async () => {
      const ds = requested();
      await create({ changeType: 'create', status: 'draft', requested: ds });
      expectError(
        await admin.post('deliveryservice_requests', {
          changeType: 'create',
          status: 'submitted',
          requested: ds,
        }),
        400,
        `an open Delivery Service Request for XMLID '${String(ds.xmlId)}' already exists`,
      );
    });
  });

  describe('update and delete', () => {
    it('updates an open request by ?id= and deletes it', async () => {
      const ds = requested();
      const dsr = await create({ changeType: 'create', status: 'draft', requested: ds });
      const res = await admin.put(`deliveryservice_requests?id=${dsr.id}`, {
        changeType: 'create',
        status: 'submitted',
        requested: { ...ds, displayName: 'changed' },
      });
      expect(res.status).toBe(200);
      expectSuccessAlert(res, `Delivery Service Request #${dsr.id} updated`);
      expect(responseOf(res)).toEqual({
        ...dsr,
        lastEditedBy: 'admin',
        status: 'submitted',
        requested: expect.objectContaining({ displayName: 'changed' }),
        lastUpdated: expect.stringMatching(RFC3339_TIME),
      });
      const deleted = await admin.delete(`deliveryservice_requests?id=${dsr.id}`);
      expectSuccessAlert(deleted, `Delivery Service Request #${dsr.id} deleted`);
      expect(responseOf<Dsr>(deleted).id).toBe(dsr.id);
      expect(await all(`?id=${dsr.id}`)).toEqual([]);
    });

    it('answers the original texts for missing, closed and bad requests', async () => {
      const body = { changeType: 'create', status: 'draft', requested: requested() };
      await expectErrors([
        [
          admin.put('deliveryservice_requests?id=99999999', body),
          404,
          'no such Delivery Service Request: #99999999',
        ],
        [
          admin.delete('deliveryservice_requests?id=99999999'),
          404,
          'no such Delivery Service Request: #99999999',
        ],
        [
          admin.put('deliveryservice_requests', body),
          400,
          'required parameters missing: missing required parameters: id',
        ],
        [
          admin.delete('deliveryservice_requests?id=x'),
          400,
          "getting integer parameters: parameter 'id' not an integer",
        ],
      ]);
      const dsr = await create({ changeType: 'create', status: 'submitted', requested: requested() });
      expectSuccessAlert(
        await admin.put(`deliveryservice_requests/${dsr.id}/status`, { status: 'rejected' }),
        `Changed status of '${String(dsr.requested?.xmlId)}' Delivery Service Request from 'submitted' to 'rejected'`,
      );
      expectError(
        await admin.put(`deliveryservice_requests?id=${dsr.id}`, { ...body, requested: dsr.requested }),
        400,
        "cannot change DeliveryServiceRequest in 'rejected' status",
      );
      const open = await create({ changeType: 'create', status: 'draft', requested: requested() });
      expectError(
        await admin.put(`deliveryservice_requests?id=${open.id}`, {
          ...body,
          requested: open.requested,
          status: 'complete',
        }),
        400,
        'status: invalid transition from draft to complete.',
      );
    });

    it('refuses longDesc1 and longDesc2 on update from 4.0, writing nothing', async () => {
      const ds = requested();
      const dsr = await create({ changeType: 'create', status: 'draft', requested: ds });
      for (const extra of [{ longDesc1: 'long desc 1' }, { longDesc2: 'long desc 2' }]) {
        expectError(
          await admin.put(`deliveryservice_requests?id=${dsr.id}`, {
            changeType: 'create',
            status: 'draft',
            requested: { ...ds, ...extra, displayName: 'changed' },
          }),
          400,
          'the longDesc1 and longDesc2 fields are no longer supported in API 4.0 onwards',
        );
      }
      const [kept] = await all(`?id=${dsr.id}`);
      expect(kept.requested?.displayName).toBe(dsr.requested?.displayName);
      const nulls = await admin.put(`deliveryservice_requests?id=${dsr.id}`, {
        changeType: 'create',
        status: 'draft',
        requested: { ...ds, longDesc1: null, longDesc2: null },
      });
      expect(nulls.status).toBe(200);
    });
  });

  describe('assign and status', () => {
    it('assigns by name or id, unassigns, and reads the assignee', async () => {
      const dsr = await create({ changeType: 'create', status: 'draft', requested: requested() });
      const xmlId = String(dsr.requested?.xmlId);
      const byName = await admin.put(`deliveryservice_requests/${dsr.id}/assign`, {
        assignee: portal.username,
      });
      expect(byName.status).toBe(200);
      expectSuccessAlert(
        byName,
        `Changed assignee of '${xmlId}' Delivery Service Request to '${portal.username}'`,
      );
      expect(responseOf<Dsr>(byName).assignee).toBe(portal.username);
      expect(responseOf(await admin.get(`deliveryservice_requests/${dsr.id}/assign`))).toBe(portal.username);
      const byId = await admin.put(`deliveryservice_requests/${dsr.id}/assign`, { assigneeId: portal.id });
      expectSuccessAlert(
        byId,
        `Changed assignee of '${xmlId}' Delivery Service Request to '${portal.username}'`,
      );
      const none = await admin.put(`deliveryservice_requests/${dsr.id}/assign`, {});
      expectSuccessAlert(none, `Unassigned '${xmlId}' Delivery Service Request`);
      expect(responseOf<Dsr>(none).assignee).toBeNull();
      await expectErrors([
        [
          admin.put(`deliveryservice_requests/${dsr.id}/assign`, { assigneeId: 99999999 }),
          400,
          'no such user #99999999',
        ],
        [
          admin.put(`deliveryservice_requests/${dsr.id}/assign`, { assignee: 'nobody-here' }),
          400,
          "no such user 'nobody-here'",
        ],
        [
          admin.put('deliveryservice_requests/99999999/assign', {}),
          404,
          'no such Delivery Service Request: 99999999',
        ],
        [admin.put(`deliveryservice_requests/${dsr.id}/assign`), 400, 'decoding: EOF'],
        [
          admin.raw('put', `deliveryservice_requests/${dsr.id}/assign`, '[]'),
          400,
          'decoding: the request body must be a JSON object',
        ],
        [
          admin.raw('put', `deliveryservice_requests/${dsr.id}/assign`, 'null'),
          400,
          'decoding: the request body must be a JSON object',
        ],
        [
          admin.put(`deliveryservice_requests/${dsr.id}/assign`, { assignee: 5, assigneeId: 'x' }),
          400,
          "decoding: 'assigneeId' must be an integer",
        ],
        [
          admin.put(`deliveryservice_requests/${dsr.id}/assign`, { assigneeId: 2 ** 31 }),
          400,
          "decoding: 'assigneeId' must be no greater than 2147483647",
        ],
        [
          admin.put(`deliveryservice_requests/${dsr.id}/assign`, { assigneeId: null, assignee: true }),
          400,
          "decoding: 'assignee' must be a string",
        ],
      ]);
    });

    it('follows the workflow and keeps the original of a closed update request', async () => {
      const ds: DeliveryServiceResponse = await createDeliveryService(admin, cdn.id);
      const dsr = await create({
        changeType: 'update',
        status: 'submitted',
        requested: requested({ id: ds.id, xmlId: ds.xmlId }),
      });
      expect(responseOf(await admin.get(`deliveryservice_requests/${dsr.id}/status`))).toBe('submitted');
      expectError(
        await admin.put(`deliveryservice_requests/${dsr.id}/status`, { status: 'draft2' }),
        400,
        'decoding: draft2 is not a valid RequestStatus name',
      );
      await expectErrors([
        [admin.put(`deliveryservice_requests/${dsr.id}/status`), 400, 'decoding: EOF'],
        [
          admin.raw('put', `deliveryservice_requests/${dsr.id}/status`, '["pending"]'),
          400,
          'decoding: the request body must be a JSON object',
        ],
        [
          admin.put(`deliveryservice_requests/${dsr.id}/status`, { status: 1 }),
          400,
          "decoding: 'status' must be a string",
        ],
        [
          admin.put(`deliveryservice_requests/${dsr.id}/status`, { status: 'Pending' }),
          400,
          'decoding: Pending is not a valid RequestStatus name',
        ],
      ]);
      const pending = await admin.put(`deliveryservice_requests/${dsr.id}/status`, { status: 'pending' });
      expect(pending.status).toBe(200);
      expect(responseOf<Dsr>(pending)).toMatchObject({
        status: 'pending',
        original: expect.objectContaining({ id: ds.id }),
      });
      const complete = await admin.put(`deliveryservice_requests/${dsr.id}/status`, { status: 'complete' });
      expectSuccessAlert(
        complete,
        `Changed status of '${ds.xmlId}' Delivery Service Request from 'pending' to 'complete'`,
      );
      expectError(
        await admin.put(`deliveryservice_requests/${dsr.id}/status`, { status: 'submitted' }),
        400,
        'complete request cannot be changed',
      );
      const [closed] = await all(`?id=${dsr.id}`);
      expect(closed.original).toEqual(expect.objectContaining({ id: ds.id, xmlId: ds.xmlId }));
    });
  });

  describe('tenancy', () => {
    let outside: CreatedUser;
    let child: { id: number };

    beforeAll(async () => {
      child = await createTenant(admin);
      outside = await createUser(app, admin, 'portal', child.id);
    });

    it('lists only requests within reach and refuses the others', async () => {
      const mine = await create(
        { changeType: 'create', status: 'draft', requested: requested({ tenantId: child.id }) },
        outside.client,
      );
      const theirs = await create({ changeType: 'create', status: 'draft', requested: requested() });
      const listed = responseOf<Dsr[]>(await outside.client.get('deliveryservice_requests')).map((d) => d.id);
      expect(listed).toContain(mine.id);
      expect(listed).not.toContain(theirs.id);
      await expectErrors([
        [
          outside.client.post('deliveryservice_requests', {
            changeType: 'create',
            status: 'draft',
            requested: requested(),
          }),
          403,
          'not authorized on this tenant',
        ],
        [
          outside.client.delete(`deliveryservice_requests?id=${theirs.id}`),
          403,
          'not authorized on this tenant',
        ],
        [
          outside.client.put(`deliveryservice_requests/${theirs.id}/status`, { status: 'submitted' }),
          403,
          'not authorized on this tenant',
        ],
      ]);
      expect(await all(`?id=${theirs.id}`)).toEqual([theirs]);
    });
  });

  it('answers If-Modified-Since with 304 and a stale If-Unmodified-Since with 412 (D33)', async () => {
    const dsr = await create({ changeType: 'create', status: 'draft', requested: requested() });
    const future = new Date(Date.now() + 60_000).toUTCString();
    expect((await admin.get('deliveryservice_requests').set('If-Modified-Since', future)).status).toBe(304);
    const past = new Date(Date.now() - 3_600_000).toUTCString();
    expectError(
      await admin.delete(`deliveryservice_requests?id=${dsr.id}`).set('If-Unmodified-Since', past),
      412,
      'resource was modified since the time specified by the request headers',
    );
  });
});
