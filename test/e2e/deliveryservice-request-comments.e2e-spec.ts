import { ApiClient, responseOf, type Wire } from 'test/e2e/support/api';
import { expectErrors, expectMalformedJson, expectSuccessAlert } from 'test/e2e/support/alerts';
import { expectOk } from 'test/e2e/support/headers';
import { CUSTOM_TIME, RFC3339_TIME } from 'test/e2e/support/times';
import { typeIdOf } from 'test/e2e/support/fixtures/cachegroups';
import { deliveryServiceBody } from 'test/e2e/support/fixtures/delivery-services-api';
import { createCdn } from 'test/e2e/support/fixtures/profiles';
import type {
  DeliveryServiceRequestCommentV3,
  DeliveryServiceRequestCommentV5,
} from 'src/modules/delivery-service-requests/dto/delivery-service-request-comment.response';
import { useApp } from 'test/e2e/support/suite';

type Comment = Wire<DeliveryServiceRequestCommentV3>;

describe('deliveryservice_request_comments', () => {
  const { admin, portal } = useApp({ users: { portal: 'portal' } });
  let dsr: { id: number; xmlId: string };

  const all = async (query = ''): Promise<Comment[]> =>
    responseOf<Comment[]>(await admin.get(`deliveryservice_request_comments${query}`));
  const comment = async (client: ApiClient, value = 'a comment'): Promise<Comment> => {
    const res = await client.post('deliveryservice_request_comments', {
      deliveryServiceRequestId: dsr.id,
      value,
    });
    expect(res.status).toBe(200);
    return responseOf<Comment>(res);
  };

  beforeAll(async () => {
    const cdn = await createCdn(admin);
    const requested: Record<string, unknown> = {
      ...deliveryServiceBody(cdn.id, await typeIdOf(admin, 'HTTP')),
      cdnId: cdn.id,
      displayName: 'd',
    };
    const res = await admin.post('deliveryservice_requests', {
      changeType: 'create',
      status: 'draft',
      requested,
    });
    expect(res.status).toBe(200);
    dsr = { id: responseOf<{ id: number }>(res).id, xmlId: requested.xmlId as string };
  });

  it.each(['3.0', '4.0', '4.1'])('creates, lists, updates and deletes on %s', async (version) => {
    const client = portal.client.at(version);
    const created = await client.post('deliveryservice_request_comments', {
      deliveryServiceRequestId: dsr.id,
      value: 'hi',
    });
    expectOk(created);
    expectSuccessAlert(created, 'deliveryservice_request_comment was created.');
    const c = responseOf<Comment>(created);
    expect(c).toEqual({
      authorId: portal.id,
      author: portal.username,
      deliveryServiceRequestId: dsr.id,
      id: expect.any(Number),
      lastUpdated: expect.stringMatching(CUSTOM_TIME),
      value: 'hi',
      xmlId: dsr.xmlId,
    });
    expect(responseOf(await client.get(`deliveryservice_request_comments?id=${c.id}`))).toEqual([c]);
    const updated = await client.put(`deliveryservice_request_comments?id=${c.id}`, {
      deliveryServiceRequestId: dsr.id,
      value: 'changed',
    });
    expectSuccessAlert(updated, 'deliveryservice_request_comment was updated.');
    expect(responseOf(updated)).toEqual({
      ...c,
      value: 'changed',
      lastUpdated: expect.stringMatching(CUSTOM_TIME),
    });
    const deleted = await client.delete(`deliveryservice_request_comments?id=${c.id}`);
    expect(deleted.body).toEqual({
      alerts: [{ level: 'success', text: 'deliveryservice_request_comment was deleted.' }],
    });
    expect(await all(`?id=${c.id}`)).toEqual([]);
  });

  it('answers 5.0 with RFC 3339 timestamps', async () => {
    const res = await portal.client.at('5.0').post('deliveryservice_request_comments', {
      deliveryServiceRequestId: dsr.id,
      value: 'v5',
    });
    const c = responseOf<DeliveryServiceRequestCommentV5>(res);
    expect(c.lastUpdated).toMatch(RFC3339_TIME);
    expect(responseOf(await admin.at('5.0').get(`deliveryservice_request_comments?id=${c.id}`))).toEqual([c]);
  });

  it('filters by request and author', async () => {
    const mine = await comment(portal.client);
    const theirs = await comment(admin);
    const ids = (await all(`?deliveryServiceRequestId=${dsr.id}&authorId=${portal.id}`)).map((c) => c.id);
    expect(ids).toContain(mine.id);
    expect(ids).not.toContain(theirs.id);
    expect((await all(`?author=admin`)).map((c) => c.id)).toContain(theirs.id);
  });

  it('lets only the author change or delete a comment', async () => {
    const theirs = await comment(admin);
    const body = { deliveryServiceRequestId: dsr.id, value: 'mine now' };
    await expectErrors([
      [
        portal.client.put(`deliveryservice_request_comments?id=${theirs.id}`, body),
        400,
        'Comments can only be updated by the author',
      ],
      [
        portal.client.delete(`deliveryservice_request_comments?id=${theirs.id}`),
        400,
        'Comments can only be deleted by the author',
      ],
      [
        portal.client.at('5.0').put(`deliveryservice_request_comments?id=${theirs.id}`, body),
        400,
        'comments can only be updated by the author',
      ],
      [
        portal.client.at('5.0').delete(`deliveryservice_request_comments?id=${theirs.id}`),
        400,
        'comments can only be deleted by the author',
      ],
    ]);
    expect((await all(`?id=${theirs.id}`))[0]).toEqual(theirs);
  });

  it('refuses bad input, writing nothing', async () => {
    const before = await all();
    await expectErrors([
      [
        admin.post('deliveryservice_request_comments', {}),
        400,
        "'deliveryServiceRequestId' is required, 'value' is required",
      ],
      [
        admin.post('deliveryservice_request_comments', { deliveryServiceRequestId: 99999999, value: 'x' }),
        404,
        'deliveryservice_request not found',
      ],
      [
        admin.at('5.0').post('deliveryservice_request_comments', { value: 'x' }),
        404,
        'deliveryservice_request not found',
      ],
    ]);
    expectMalformedJson(await admin.raw('post', 'deliveryservice_request_comments', '{"value"'));
    await expectErrors([
      [admin.put('deliveryservice_request_comments', { value: 'x' }), 400, 'missing key: id'],
      [admin.delete('deliveryservice_request_comments?id=x'), 400, 'failed to parse key: id'],
      [
        admin.delete('deliveryservice_request_comments?id=99999999'),
        404,
        'no deliveryservice_request_comment with that key found',
      ],
      [
        admin.at('5.0').put('deliveryservice_request_comments?id=x', { value: 'x' }),
        400,
        'id must be an integer',
      ],
      [
        admin.at('5.0').delete('deliveryservice_request_comments?id=x'),
        400,
        'id must be an integer strconv.Atoi: parsing "x": invalid syntax',
      ],
      [
        admin.at('5.0').delete('deliveryservice_request_comments'),
        400,
        'required parameters missing: missing required parameters: id',
      ],
    ]);
    expect(await all()).toEqual(before);
  });

  it('goes with its request', async () => {
    const c = await comment(admin);
    const future = new Date(Date.now() + 60_000).toUTCString();
    expect(
      (await admin.get('deliveryservice_request_comments').set('If-Modified-Since', future)).status,
    ).toBe(304);
    expectSuccessAlert(
      await admin.delete(`deliveryservice_requests?id=${dsr.id}`),
      `Delivery Service Request #${dsr.id} deleted`,
    );
    expect(await all(`?id=${c.id}`)).toEqual([]);
  });
});
