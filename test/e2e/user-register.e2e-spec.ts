import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import type { App } from 'supertest/types';
import { DataSource } from 'typeorm';
import { ApiClient, uniqueName } from 'test/e2e/support/api';
import { type CreatedUser, createTenant, createUser } from 'test/e2e/support/accounts';
import { expectError, expectErrors, expectMalformedJson, expectSuccessAlert } from 'test/e2e/support/alerts';
import { expectApiHeaders } from 'test/e2e/support/headers';
import { createTestAppWithEnv } from 'test/e2e/support/app';
import { type FakeSmtp, startFakeSmtp } from 'test/e2e/support/fake-smtp';
import { useApp } from 'test/e2e/support/suite';

const SMTP_VARS = ['SMTP_HOST', 'SMTP_PORT', 'SMTP_FROM', 'SMTP_USER', 'SMTP_PASSWORD', 'PORTAL_BASE_URL'];

const noSmtp = (): Record<string, undefined> => Object.fromEntries(SMTP_VARS.map((k) => [k, undefined]));
const email = () => `${uniqueName('new').toLowerCase()}@example.com`;

describe('users/register and user/reset_password', () => {
  describe('with an SMTP server', () => {
    let app: INestApplication;
    let smtp: FakeSmtp;
    let admin: ApiClient;
    let operations: CreatedUser;
    let db: DataSource;

    const userByEmail = async (address: string) =>
      (
        await db.query<
          { username: string; new_user: number; token: string | null; role: string; tenant: number }[]
        >(
          `SELECT u.username, u.new_user, u.token, r.name AS role, u.tenant_id AS tenant
             FROM tm_user u JOIN role r ON r.id = u.role WHERE u.email = ?`,
          [address],
        )
      )[0];

    beforeAll(async () => {
      smtp = await startFakeSmtp();
      app = await createTestAppWithEnv({
        ...noSmtp(),
        SMTP_HOST: '127.0.0.1',
        SMTP_PORT: String(smtp.port),
        SMTP_FROM: 'portal@example.net',
        SMTP_USER: 'mailer',
        SMTP_PASSWORD: 'secret',
        PORTAL_BASE_URL: 'https://portal.example.net/#!',
      });
      admin = await ApiClient.admin(app);
      operations = await createUser(app, admin, 'operations');
      db = app.get(DataSource);
    });

    afterAll(async () => {
      await app.close();
      await smtp.close();
    });

    it.each(['4.0', '5.0'])('registers a new user by e-mail and mails the link on %s', async (version) => {
      const address = email();
      const sent = smtp.mails.length;
      const res = await operations.client
        .at(version)
        .post('users/register', { email: address, role: 'read-only', tenantId: 1 });
      expectSuccessAlert(
        res,
        `Sent user registration to <${address}> with the following permissions [ role: read-only | tenant: root ]`,
      );
      expect(res.body).not.toHaveProperty('response');
      expectApiHeaders(res);
      const user = await userByEmail(address);
      expect(user).toEqual({
        username: expect.stringMatching(/^registration_[0-9a-f]{32}$/),
        new_user: expect.anything(),
        token: expect.stringMatching(/^[0-9a-f-]{36}$/),
        role: 'read-only',
        tenant: 1,
      });
      expect(Boolean(Number(user.new_user))).toBe(true);
      expect(smtp.mails.length).toBe(sent + 1);
      const mail = smtp.mails.at(-1)!;
      expect(mail.from).toBe('portal@example.net');
      expect(mail.to).toEqual([address]);
      expect(mail.auth).toBe('mailer:secret');
      expect(mail.data).toContain(`To: ${address}`);
      expect(mail.data).toContain('Subject: Traffic Ops CDN New User Registration');
      expect(mail.data).toContain(`https://portal.example.net/#!/user?token=${user.token}`);
    });

    it('renews an unfinished registration and refuses a finished one', async () => {
      const address = email();
      await admin.post('users/register', { email: address, role: 'read-only', tenantId: 1 });
      const first = await userByEmail(address);
      const res = await admin.post('users/register', { email: address, role: 'operations', tenantId: 1 });
      expectSuccessAlert(
        res,
        `Sent user registration to <${address}> with the following permissions [ role: operations | tenant: root ]`,
      );
      const renewed = await userByEmail(address);
      expect(renewed.username).toBe(first.username);
      expect(renewed.role).toBe('operations');
      expect(renewed.token).not.toBe(first.token);

      const finished = await createUser(app, admin, 'read-only');
      expectError(
        await admin.post('users/register', {
          email: `${finished.username}@example.com`,
          role: 'read-only',
          tenantId: 1,
        }),
        409,
        'User already exists and has completed registration.',
      );
    });

    it('registers by role id on 3.x, not above the registering user', async () => {
      const roles = (await admin.at('3.0').get('roles')).body as { response: { id: number; name: string }[] };
      const id = (name: string) => roles.response.find((r) => r.name === name)!.id;
      const address = email();
      expectSuccessAlert(
        await operations.client
          .at('3.0')
          .post('users/register', { email: address, role: id('read-only'), tenantId: 1 }),
        `Sent user registration to <${address}> with the following permissions [ role: read-only | tenant: root ]`,
      );
      expectError(
        await operations.client
          .at('3.0')
          .post('users/register', { email: email(), role: id('admin'), tenantId: 1 }),
        403,
        'Cannot register a user with a role with higher privileges than yourself',
      );
      expectError(
        await operations.client
          .at('3.0')
          .post('users/register', { email: email(), role: 999999, tenantId: 1 }),
        404,
        'No such role: 999999',
      );
    });

    it('refuses bad bodies, unknown roles and tenants out of reach, mailing and writing nothing', async () => {
      const tenant = await createTenant(admin);
      const inside = await createUser(app, admin, 'operations', tenant.id);
      const sent = smtp.mails.length;
      const address = email();
      const refused: [ApiClient, unknown, number, string][] = [
        [
          admin,
          {},
          400,
          'role: required and cannot be empty, tenantId: required and cannot be zero, email: required',
        ],
        [
          admin,
          { email: 'nobody', role: 'read-only', tenantId: 1 },
          400,
          "Couldn't parse 'nobody' as an email address: mail: missing '@' or angle-addr",
        ],
        [
          admin,
          { email: address, role: 'read-only', tenantId: 'one' },
          400,
          'json: cannot unmarshal string into Go struct field UserRegistrationRequestV4.tenantId of type uint',
        ],
        [admin, { email: address, role: 'no-such-role', tenantId: 1 }, 404, 'no such role'],
        [
          inside.client,
          { email: address, role: 'read-only', tenantId: 1 },
          403,
          'not authorized on this tenant',
        ],
      ];
      for (const [client, body, status, text] of refused) {
        expectError(await client.post('users/register', body), status, text);
      }
      expectMalformedJson(await admin.raw('post', 'users/register', '{"email":'));
      const v4 = 'UserRegistrationRequestV4';
      const v3 = 'UserRegistrationRequest';
      await expectErrors([
        [
          admin.post('users/register', { email: 5, role: 7, tenantId: 'one' }),
          400,
          'JSON 5 not quoted: invalid syntax',
        ],
        [
          admin.post('users/register', { email: '', role: 'read-only', tenantId: 1 }),
          400,
          "Couldn't parse '' as an email address: mail: no address",
        ],
        [
          admin.post('users/register', { email: 'a b@c', role: 'read-only', tenantId: 1 }),
          400,
          "Couldn't parse 'a b@c' as an email address: mail: invalid string",
        ],
        [
          admin.post('users/register', { email: address, role: 7, tenantId: 'one' }),
          400,
          `json: cannot unmarshal number into Go struct field ${v4}.role of type string`,
        ],
        [
          admin.post('users/register', { email: address, role: 'read-only', tenantId: 1.5 }),
          400,
          `json: cannot unmarshal number 1.5 into Go struct field ${v4}.tenantId of type uint`,
        ],
        [
          admin.post('users/register', { email: address, role: 'read-only', tenantId: -1 }),
          400,
          `json: cannot unmarshal number -1 into Go struct field ${v4}.tenantId of type uint`,
        ],
        [
          admin.post('users/register', { email: null, role: 'read-only', tenantId: 1 }),
          400,
          'email: required',
        ],
        [admin.post('users/register', [{ email: address }]), 400, 'the request body must be a JSON object'],
        [admin.raw('post', 'users/register', 'null'), 400, 'the request body must be a JSON object'],
        [
          admin.at('3.0').post('users/register', {}),
          400,
          'role: required and cannot be zero, tenantId: required and cannot be zero, email: required',
        ],
        [
          admin.at('3.0').post('users/register', { email: address, role: 'admin', tenantId: true }),
          400,
          `json: cannot unmarshal string into Go struct field ${v3}.role of type uint`,
        ],
        [
          admin.at('3.0').post('users/register', { email: address, role: 1, tenantId: 2 ** 32 }),
          400,
          `json: cannot unmarshal number 4294967296 into Go struct field ${v3}.tenantId of type uint`,
        ],
        [admin.at('3.0').post('users/register', [1]), 400, 'the request body must be a JSON object'],
      ]);
      expect(await userByEmail(address)).toBeUndefined();
      expect(smtp.mails.length).toBe(sent);
    });

    it('mails a password-reset link, without a session', async () => {
      const user = await createUser(app, admin, 'read-only');
      const address = `${user.username}@example.com`;
      const res = await request(app.getHttpServer() as App)
        .post('/api/5.0/user/reset_password')
        .send({ email: address });
      expectSuccessAlert(res, 'Password reset email sent');
      expect(res.body).toEqual({ alerts: [{ text: 'Password reset email sent', level: 'success' }] });
      const { token } = await userByEmail(address);
      const mail = smtp.mails.at(-1)!;
      expect(mail.to).toEqual([address]);
      expect(mail.data).toContain('Subject: Traffic Ops CDN Password Reset Request');
      expect(mail.data).toContain(`https://portal.example.net/#!/user?token=${token}`);
    });

    it('refuses an unknown or malformed address', async () => {
      const anonymous = ApiClient.anonymous(app);
      await expectErrors([
        [
          anonymous.post('user/reset_password', { email: 'nobody@example.com' }),
          404,
          "No account with the email address 'nobody@example.com' was found!",
        ],
        [
          anonymous.post('user/reset_password', { email: 'nobody' }),
          400,
          "Malformed request: Couldn't parse 'nobody' as an email address: mail: missing '@' or angle-addr",
        ],
        [
          anonymous.post('user/reset_password', { email: ['a@b'] }),
          400,
          'Malformed request: JSON ["a@b"] not quoted: invalid syntax',
        ],
        [anonymous.post('user/reset_password', []), 400, 'the request body must be a JSON object'],
      ]);
    });
  });

  describe('when the SMTP server refuses the mail', () => {
    let app: INestApplication;
    let smtp: FakeSmtp;

    beforeAll(async () => {
      smtp = await startFakeSmtp({ rejectRecipients: true });
      app = await createTestAppWithEnv({ ...noSmtp(), SMTP_HOST: '127.0.0.1', SMTP_PORT: String(smtp.port) });
    });

    afterAll(async () => {
      await app.close();
      await smtp.close();
    });

    it('answers 503 and registers nobody', async () => {
      const admin = await ApiClient.admin(app);
      const address = email();
      expectError(
        await admin.post('users/register', { email: address, role: 'read-only', tenantId: 1 }),
        503,
        'Failed to send email',
      );
      const rows = await app
        .get(DataSource)
        .query<unknown[]>('SELECT id FROM tm_user WHERE email = ?', [address]);
      expect(rows).toEqual([]);
    });
  });

  describe('without an SMTP server', () => {
    const { app, admin } = useApp({ env: noSmtp() });

    it('answers 503 to both, writing nothing', async () => {
      const address = email();
      expectError(
        await admin.post('users/register', { email: address, role: 'read-only', tenantId: 1 }),
        503,
        'SMTP is not enabled; mail cannot be sent',
      );
      const user = await createUser(app, admin, 'read-only');
      expectError(
        await ApiClient.anonymous(app).post('user/reset_password', { email: `${user.username}@example.com` }),
        503,
        'SMTP is not enabled; mail cannot be sent',
      );
      const rows = await app
        .get(DataSource)
        .query<{ token: string | null }[]>('SELECT token FROM tm_user WHERE email IN (?, ?)', [
          address,
          `${user.username}@example.com`,
        ]);
      expect(rows).toEqual([{ token: null }]);
    });
  });
});
