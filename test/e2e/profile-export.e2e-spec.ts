import { ApiClient, responseOf } from 'test/e2e/support/api';
import { expectError } from 'test/e2e/support/alerts';
import { expectApiHeaders, expectOk } from 'test/e2e/support/headers';
import {
  assignParameter,
  createCdn,
  createParameter,
  createProfile,
} from 'test/e2e/support/fixtures/profiles';
import { useApp } from 'test/e2e/support/suite';

describe('profiles/{id}/export', () => {
  const { admin, readOnly } = useApp({ users: { readOnly: 'read-only' } });

  it('exports GLOBAL as a file, outside the envelope', async () => {
    const [global] = responseOf<{ id: number }[]>(await admin.get('profiles?name=GLOBAL'));
    for (const version of ['3.0', '4.0', '5.0']) {
      const res = expectOk(await readOnly.client.at(version).get(`profiles/${global.id}/export`));
      expect(res.headers['content-disposition']).toBe('attachment; filename="GLOBAL.json"');
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(JSON.parse(res.text)).toEqual({
        profile: {
          name: 'GLOBAL',
          description: 'Global Traffic Ops profile, DO NOT DELETE',
          cdn: 'ALL',
          type: 'UNK_PROFILE',
        },
        parameters: [
          { config_file: 'regex_revalidate.config', name: 'maxRevalDurationDays', value: '90' },
          { config_file: 'global', name: 'tm.instance_name', value: 'Traffic Ops CDN' },
          { config_file: 'global', name: 'tm.toolname', value: 'Traffic Ops' },
        ],
      });
    }
  });

  it('exports a profile without parameters with an empty list, and masks secure values', async () => {
    const cdn = await createCdn(admin);
    const profile = await createProfile(admin, cdn.id, { type: 'TR_PROFILE' });
    const res = await admin.get(`profiles/${profile.id}/export`);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="${profile.name}.json"`);
    expect(JSON.parse(res.text)).toEqual({
      profile: { name: profile.name, description: profile.description, cdn: cdn.name, type: 'TR_PROFILE' },
      parameters: [],
    });
    const secret = await createParameter(admin, { secure: true, value: 's3cret', configFile: 'x.config' });
    await assignParameter(admin, profile.id, secret.id);
    const valueFor = async (client: ApiClient) =>
      (
        JSON.parse((await client.get(`profiles/${profile.id}/export`)).text) as {
          parameters: { value: string }[];
        }
      ).parameters[0].value;
    expect(await valueFor(admin)).toBe('s3cret');
    expect(await valueFor(readOnly.client)).toBe('********');
  });

  it('answers 404 for an unknown profile and 400 for a non-integer id', async () => {
    const missing = await admin.get('profiles/1111111111/export');
    expectError(missing, 404, 'profile does not exist');
    expectApiHeaders(missing);
    expectError(
      await admin.get('profiles/abc/export'),
      400,
      "getting integer parameters: parameter 'id' not an integer",
    );
  });
});
