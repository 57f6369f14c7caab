import { ApiClient, responseOf } from 'test/e2e/support/api';
import { type CreatedUser, createUser } from 'test/e2e/support/accounts';
import { expectError, expectErrors, expectMalformedJson, expectSuccessAlert } from 'test/e2e/support/alerts';
import { expectOk } from 'test/e2e/support/headers';
import { USER_PASSWORD } from 'test/e2e/support/constants';
import { createCdn } from 'test/e2e/support/fixtures/profiles';
import { createServer, type ServerResponse } from 'test/e2e/support/fixtures/servers';
import type {
  GenericServerCheck,
  ServerCheckExtension,
} from 'src/modules/servercheck/dto/servercheck.response';
import { useApp } from 'test/e2e/support/suite';

const NOT_EXTENSION = 'invalid user for this API. Only the "extension" user can use this';

describe('servercheck and servercheck/extensions', () => {
  const { app, admin } = useApp();
  let extension: ApiClient;
  let operations: CreatedUser;
  let edge: ServerResponse;

  const extensions = async (query = ''): Promise<ServerCheckExtension[]> =>
    responseOf<ServerCheckExtension[]>(await admin.get(`servercheck/extensions${query}`));
  const checkOf = async (id: number): Promise<GenericServerCheck> =>
    responseOf<GenericServerCheck[]>(await admin.get(`servercheck?id=${id}`))[0];

  beforeAll(async () => {
    const res = await admin.post('users', {
      username: 'extension',
      localPasswd: USER_PASSWORD,
      confirmLocalPasswd: USER_PASSWORD,
      role: 'operations',
      tenantId: 1,
      email: 'extension@example.com',
      fullName: 'Check extension',
    });
    expect(res.status).toBe(200);
    extension = await ApiClient.login(app, 'extension', USER_PASSWORD);
    operations = await createUser(app, admin, 'operations');
    edge = await createServer(admin, (await createCdn(admin)).id);
  });

  describe('other users are refused before the body is read (403, never a 400 about the body)', () => {
    const invalid = [{}, { id: 'x', servercheck_short_name: 7 }, []];

    it.each(['3.0', '4.0', '5.0'])('an administrator holding every permission, on %s', async (version) => {
      for (const body of invalid) {
        for (const path of ['servercheck', 'servercheck/extensions']) {
          expectError(await admin.at(version).raw('post', path, JSON.stringify(body)), 403, NOT_EXTENSION);
        }
      }
      expectError(await admin.at(version).delete('servercheck/extensions/999999'), 403, NOT_EXTENSION);
    });

    it('a read-only user on 3.0 (the level alone admits them there)', async () => {
      const readOnly = await createUser(app, admin, 'read-only');
      for (const body of invalid) {
        for (const path of ['servercheck', 'servercheck/extensions']) {
          const res = await readOnly.client.at('3.0').raw('post', path, JSON.stringify(body));
          expectError(res, 403, NOT_EXTENSION);
        }
      }
    });
  });

  describe('extensions', () => {
    it.each(['3.0', '4.0', '5.0'])(
      'lists the seeded extensions, not the open slots, on %s',
      async (version) => {
        const res = expectOk(await operations.client.at(version).get('servercheck/extensions'));
        const list = responseOf<ServerCheckExtension[]>(res);
        expect(list.map((e) => e.servercheck_short_name)).toEqual(
          expect.arrayContaining(['ILO', '10G', 'FQDN', 'DSCP', '10G6', 'MTU', 'RTR', 'CHR', 'CDU', 'ORT']),
        );
        expect(list.find((e) => e.name === 'ILO_PING')).toEqual({
          id: 1,
          name: 'ILO_PING',
          version: '1.0.0',
          info_url: '-',
          script_file: 'ToPingCheck.pl',
          isactive: 1,
          additional_config_json:
            '{ check_name: "ILO", "base_url": "https://localhost", "select": "ilo_ip_address", "cron": "9 * * * *" }',
          description: null,
          servercheck_short_name: 'ILO',
          type: 'CHECK_EXTENSION_BOOL',
        });
        expect(list.some((e) => e.type === 'CHECK_EXTENSION_OPEN_SLOT')).toBe(false);
      },
    );

    it('filters by type and isactive', async () => {
      expect((await extensions('?type=CHECK_EXTENSION_NUM')).map((e) => e.servercheck_short_name)).toEqual([
        'CHR',
        'CDU',
        'ORT',
      ]);
      expect(await extensions('?isactive=false')).toEqual([]);
    });

    it('loads an extension into the first open slot and deletes it back to open', async () => {
      const body = {
        name: 'TEST_CHECK',
        version: '1.0.0',
        info_url: '-',
        script_file: 'test.pl',
        isactive: 1,
        servercheck_short_name: 'TST',
        type: 'CHECK_EXTENSION_NUM',
      };
      const res = expectOk(await extension.post('servercheck/extensions', body));
      expect(res.body).toEqual({
        supplemental: { id: 5 },
        alerts: [{ text: 'Check Extension Loaded.', level: 'success' }],
      });
      expect(await extensions('?id=5')).toEqual([
        { id: 5, additional_config_json: null, description: null, ...body },
      ]);
      await expectErrors([
        [
          extension.post('servercheck/extensions', { ...body, servercheck_short_name: 'OTHER' }),
          400,
          'A Check extension is already loaded with TEST_CHECK name',
        ],
        [
          extension.post('servercheck/extensions', { ...body, name: 'OTHER' }),
          400,
          'A Check extension is already loaded with TST servercheck_short_name',
        ],
      ]);

      expectSuccessAlert(await extension.delete('servercheck/extensions/5'), 'Extensions deleted.');
      expect(await extensions('?id=5')).toEqual([]);
      expectError(
        await extension.delete('servercheck/extensions/999999'),
        404,
        'no TO Extension with that key found',
      );
    });

    it('refuses other users, bad bodies and unknown types, loading nothing', async () => {
      const before = await extensions();
      const body = {
        name: 'X',
        version: '1',
        info_url: '-',
        script_file: 'x.pl',
        isactive: 1,
        type: 'CHECK_EXTENSION_BOOL',
      };
      await expectErrors([
        [admin.post('servercheck/extensions', body), 403, NOT_EXTENSION],
        [admin.delete('servercheck/extensions/1'), 403, NOT_EXTENSION],
        [
          extension.post('servercheck/extensions', {}),
          400,
          "'name' is required, 'version' is required, 'info_url' is required, 'script_file' is required, 'type' is required, 'isactive' is required",
        ],
        [
          extension.post('servercheck/extensions', { ...body, type: 'EDGE', isactive: 2, id: 3 }),
          400,
          "'type' must be in a valid format, ServerCheckExtension update not supported; delete and re-add., isactive can only be 0 or 1.",
        ],
        [
          extension.post('servercheck/extensions', { ...body, type: 'CHECK_EXTENSION_NOPE' }),
          400,
          'type CHECK_EXTENSION_NOPE does not exist',
        ],
        [
          extension.post('servercheck/extensions', { ...body, name: 7 }),
          400,
          'json: cannot unmarshal number into Go struct field ServerCheckExtensionNullable.name of type string',
        ],
        [
          extension.post('servercheck/extensions', { ...body, name: 7, id: 'x' }),
          400,
          'json: cannot unmarshal string into Go struct field ServerCheckExtensionNullable.id of type int',
        ],
        [
          extension.post('servercheck/extensions', { ...body, isactive: 1.5 }),
          400,
          'json: cannot unmarshal number into Go struct field ServerCheckExtensionNullable.isactive of type int',
        ],
        [
          extension.post('servercheck/extensions', { ...body, isactive: 2 ** 31 }),
          400,
          "'isactive' must be no greater than 2147483647",
        ],
        [extension.post('servercheck/extensions', [body]), 400, 'the request body must be a JSON object'],
        [
          extension.raw('post', 'servercheck/extensions', 'null'),
          400,
          'the request body must be a JSON object',
        ],
      ]);
      expectMalformedJson(await extension.raw('post', 'servercheck/extensions', '{"name":'));
      expectError(
        await extension.delete('servercheck/extensions/abc'),
        400,
        "getting integer parameters: parameter 'id' not an integer",
      );
      expect(await extensions()).toEqual(before);
    });
  });

  describe('checks', () => {
    it('lists EDGE and MID servers, without checks until one is posted', async () => {
      const res = expectOk(await operations.client.get(`servercheck?hostName=${edge.hostName}`));
      expect(responseOf(res)).toEqual([
        {
          adminState: 'ONLINE',
          cacheGroup: expect.any(String),
          id: edge.id,
          hostName: edge.hostName,
          revalPending: false,
          profile: edge.profileNames[0],
          type: 'EDGE',
          updPending: false,
        },
      ]);
    });

    it('records checks by server id or host name, as the extension user', async () => {
      expectSuccessAlert(
        await extension.post('servercheck', { id: edge.id, servercheck_short_name: 'ILO', value: 1 }),
        'Server Check was successfully updated',
      );
      expectSuccessAlert(
        await extension.post('servercheck', {
          host_name: edge.hostName,
          servercheck_short_name: 'CHR',
          value: 97,
        }),
        'Server Check was successfully updated',
      );
      const checks = (await checkOf(edge.id)).checks!;
      expect(checks).toMatchObject({ ILO: 1, CHR: 97, MTU: null });
      expect(Object.keys(checks).sort()).toEqual([
        '10G',
        '10G6',
        'CDU',
        'CHR',
        'DSCP',
        'FQDN',
        'ILO',
        'MTU',
        'ORT',
        'RTR',
      ]);
      expectSuccessAlert(
        await extension.post('servercheck', { id: edge.id, servercheck_short_name: 'ILO', value: 0 }),
        'Server Check was successfully updated',
      );
      expect((await checkOf(edge.id)).checks!.ILO).toBe(0);
    });

    it('refuses other users, unknown servers and checks, and bad bodies', async () => {
      await expectErrors([
        [
          admin.post('servercheck', { id: edge.id, servercheck_short_name: 'ILO', value: 1 }),
          403,
          NOT_EXTENSION,
        ],
        [
          extension.post('servercheck', { value: 1 }),
          400,
          'required fields missing: id or host_name, servercheck_short_name',
        ],
        [
          extension.post('servercheck', { id: 999999, servercheck_short_name: 'ILO', value: 1 }),
          400,
          'Server not found',
        ],
        [
          extension.post('servercheck', { id: edge.id, servercheck_short_name: 'NOPE', value: 1 }),
          400,
          'Server Check Extension NOPE not found - Do you need to install it?',
        ],
        [
          extension.post('servercheck', { id: 'one', servercheck_short_name: 'ILO' }),
          400,
          'json: cannot unmarshal string into Go struct field ServercheckRequestNullable.id of type int',
        ],
        [
          extension.post('servercheck', { id: 'one', servercheck_short_name: 1 }),
          400,
          'json: cannot unmarshal number into Go struct field ServercheckRequestNullable.servercheck_short_name of type string',
        ],
        [
          extension.post('servercheck', { id: 1.5, servercheck_short_name: 'ILO' }),
          400,
          'json: cannot unmarshal number into Go struct field ServercheckRequestNullable.id of type int',
        ],
        [
          extension.post('servercheck', { id: 2 ** 31, servercheck_short_name: 'ILO', value: true }),
          400,
          "'id' must be no greater than 2147483647",
        ],
        [
          extension.post('servercheck', { id: 1, servercheck_short_name: 'ILO', value: -(2 ** 31) - 1 }),
          400,
          "'value' must be no less than -2147483648",
        ],
        [
          extension.post('servercheck', { id: 1, servercheck_short_name: 'ILO', host_name: [] }),
          400,
          'json: cannot unmarshal array into Go struct field ServercheckRequestNullable.host_name of type string',
        ],
        [
          extension.post('servercheck', { host_name: 'h', servercheck_short_name: '' }),
          400,
          'required fields missing: servercheck_short_name',
        ],
        [extension.post('servercheck', []), 400, 'the request body must be a JSON object'],
      ]);
      expectMalformedJson(await extension.raw('post', 'servercheck', '{'));
      expect((await checkOf(edge.id)).checks!.ILO).toBe(0);
    });
  });
});
