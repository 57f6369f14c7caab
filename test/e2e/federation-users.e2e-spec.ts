import { responseOf } from 'test/e2e/support/api';
import { type CreatedUser, createRole, createUser } from 'test/e2e/support/accounts';
import { expectError, expectErrors, expectMalformedJson, expectSuccessAlert } from 'test/e2e/support/alerts';
import { expectOk } from 'test/e2e/support/headers';
import { assignFederationUsers, createFederation } from 'test/e2e/support/fixtures/federations';
import type { FederationResponse } from 'test/e2e/support/fixtures/federations';
import { createCdn } from 'test/e2e/support/fixtures/profiles';
import { useApp } from 'test/e2e/support/suite';

interface FedUser {
  company: string | null;
  email: string;
  fullName: string;
  id: number;
  role: string;
  username: string;
}

describe('federations/{id}/users', () => {
  const { app, admin, readOnly } = useApp({ users: { readOnly: 'read-only' } });
  let users: CreatedUser[];
  let cdn: { id: number; name: string };
  let federation: FederationResponse;

  const path = (id = federation.id) => `federations/${id}/users`;
  const userIds = async (id = federation.id): Promise<number[]> =>
    responseOf<FedUser[]>(await admin.get(`${path(id)}?orderby=id`)).map((u) => u.id);

  beforeAll(async () => {
    users = [
      await createUser(app, admin, 'federation'),
      await createUser(app, admin, 'steering'),
      await createUser(app, admin, 'portal'),
    ];
    cdn = await createCdn(admin);
  });

  beforeEach(async () => {
    federation = await createFederation(admin, cdn.name);
  });

  it('assigns users on every version and lists them', async () => {
    for (const version of ['3.0', '4.0', '5.0']) {
      const res = await admin
        .at(version)
        .post(path(), { userIds: [users[0].id, users[1].id], replace: true });
      expectOk(res, `2 user(s) were assigned to the ${federation.cname} federation`);
      expect(responseOf(res)).toEqual({ userIds: [users[0].id, users[1].id], replace: true });
    }
    const res = expectOk(await readOnly.client.get(path()));
    const listed = responseOf<FedUser[]>(res);
    expect(listed.map((u) => u.id).sort((a, b) => a - b)).toEqual(
      [users[0].id, users[1].id].sort((a, b) => a - b),
    );
    const first = listed.find((u) => u.id === users[0].id);
    expect(first).toEqual({
      company: null,
      email: `${users[0].username}@example.com`,
      fullName: 'Test federation',
      id: users[0].id,
      role: 'federation',
      username: users[0].username,
    });
    expect(Object.keys(first as object)).toEqual(['company', 'email', 'fullName', 'id', 'role', 'username']);
  });

  it('filters by userID and role, orders and pages', async () => {
    await assignFederationUsers(
      admin,
      federation.id,
      users.map((u) => u.id),
    );
    const get = async (q: string) => responseOf<FedUser[]>(await admin.get(`${path()}${q}`)).map((u) => u.id);
    expect(await get(`?userID=${users[1].id}`)).toEqual([users[1].id]);
    expect(await get('?role=portal')).toEqual([users[2].id]);
    const asc = users.map((u) => u.id).sort((a, b) => a - b);
    expect(await get('?orderby=id')).toEqual(asc);
    expect(await get('?orderby=id&sortOrder=desc')).toEqual([...asc].reverse());
    expect(await get('?orderby=id&limit=1&offset=1')).toEqual([asc[1]]);
    expect(await get('?orderby=id&limit=1&page=3')).toEqual([asc[2]]);
    await expectErrors([
      [admin.get(`${path()}?limit=-5`), 400, 'limit parameter must be bigger than -1'],
      [admin.get(`${path()}?userID=x`), 400, 'userID cannot parse to integer'],
    ]);
  });

  it('adds without replace and replaces with replace', async () => {
    await assignFederationUsers(admin, federation.id, [users[0].id]);
    const res = await admin.post(path(), { userIds: [users[1].id] });
    expectSuccessAlert(res, `1 user(s) were assigned to the ${federation.cname} federation`);
    expect(responseOf(res)).toEqual({ userIds: [users[1].id], replace: null });
    expect(await userIds()).toEqual([users[0].id, users[1].id].sort((a, b) => a - b));
    await assignFederationUsers(admin, federation.id, [users[2].id], true);
    expect(await userIds()).toEqual([users[2].id]);
    const cleared = await admin.post(path(), { userIds: [], replace: true });
    expectSuccessAlert(cleared, `0 user(s) were assigned to the ${federation.cname} federation`);
    expect(await userIds()).toEqual([]);
  });

  it('answers the original 4xx texts, writing nothing', async () => {
    await assignFederationUsers(admin, federation.id, [users[0].id]);
    await expectErrors([
      [admin.post(path(), { replace: true }), 400, 'parse error: validating: userIds: is required.'],
      [
        admin.post(path(), { userIds: 'x' }),
        400,
        'parse error: decoding: userIds must be an array of integers',
      ],
      [
        admin.post(path(), { userIds: [users[1].id, users[0].id] }),
        400,
        `federation_tmuser federation, tm_user '${federation.id}, ${users[0].id}' already exists.`,
      ],
      [admin.post(path(), { userIds: [users[1].id, 999999999], replace: true }), 404, 'tm_user not found'],
      [admin.post(path(999999999), { userIds: [users[1].id] }), 404, 'federation 999999999 not found'],
      [admin.post(path(999999999), {}), 404, 'federation 999999999 not found'],
      [
        admin.post('federations/x/users', { userIds: [] }),
        400,
        "getting integer parameters: parameter 'id' not an integer",
      ],
    ]);
    const malformed = await admin.raw('post', path(), '{"userIds": [');
    expectMalformedJson(malformed);
    expect(await userIds()).toEqual([users[0].id]);
  });

  it('GET answers 404 for an unknown federation', async () => {
    expectError(await admin.get(path(999999999)), 404, 'federation 999999999 not found');
  });

  it('deletes one assignment (federation users was deleted.)', async () => {
    await assignFederationUsers(admin, federation.id, [users[0].id, users[1].id]);
    expectOk(await admin.delete(`${path()}/${users[0].id}`), 'federation users was deleted.');
    expect(await userIds()).toEqual([users[1].id]);
    await expectErrors([
      [admin.delete(`${path()}/${users[0].id}`), 404, 'no federation users with that key found'],
      [admin.delete(`${path()}/x`), 400, "getting integer parameters: parameter 'userID' not an integer"],
    ]);
  });

  it('names, on 4.0+, the permissions the user lacks; 3.x does not check them', async () => {
    const body = { userIds: [users[0].id], replace: true };
    const role = await createRole(admin, ['FEDERATION:READ']);
    const limited = await createUser(app, admin, role);
    await expectErrors([
      [limited.client.get(path()), 403, 'missing required Permissions: USER:READ'],
      [limited.client.post(path(), body), 403, 'missing required Permissions: FEDERATION:UPDATE, USER:READ'],
    ]);
    expect(await userIds()).toEqual([]);
    expect((await limited.client.at('3.0').post(path(), body)).status).toBe(200);
    expect(await userIds()).toEqual([users[0].id]);
  });
});
