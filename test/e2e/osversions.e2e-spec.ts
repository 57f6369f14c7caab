import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { responseOf } from 'test/e2e/support/api';
import { createUser } from 'test/e2e/support/accounts';
import { expectError } from 'test/e2e/support/alerts';
import { expectApiHeaders } from 'test/e2e/support/headers';
import { createParameter } from 'test/e2e/support/fixtures/profiles';
import { useApp } from 'test/e2e/support/suite';

/** A directory of its own holding `osversions.json` with `text`, when given. */
function kickstartDir(text?: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'cdn-e2e-kickstart-'));
  if (text !== undefined) {
    writeFileSync(join(dir, 'osversions.json'), text);
  }
  return dir;
}

describe('GET osversions (docs/original-behaviour.md#osversions)', () => {
  const dirs: string[] = [];
  const dir = (text?: string) => {
    const made = kickstartDir(text);
    dirs.push(made);
    return made;
  };
  let parameterId: number | undefined;
  const { app, admin } = useApp({
    env: () => ({ KICKSTART_FILES_DIR: dir('{"CentOS 7.2": "centos72"}') }),
    beforeClose: async () => {
      if (parameterId !== undefined) {
        await app.get(DataSource).query('DELETE FROM parameter WHERE id = ?', [parameterId]);
      }
    },
  });

  /** Points the `kickstart.files.location` parameter of `mkisofs` at `value`. */
  const useParameter = async (value: string) => {
    if (parameterId === undefined) {
      parameterId = (
        await createParameter(admin, { name: 'kickstart.files.location', configFile: 'mkisofs', value })
      ).id;
    } else {
      const res = await admin.put(`parameters/${parameterId}`, {
        name: 'kickstart.files.location',
        configFile: 'mkisofs',
        value,
        secure: false,
      });
      expect(res.status).toBe(200);
    }
  };

  afterAll(() => {
    for (const made of dirs) {
      rmSync(made, { recursive: true, force: true });
    }
  });

  it('answers the file in KICKSTART_FILES_DIR without the parameter, to every reading role, on every version', async () => {
    const readOnly = await createUser(app, admin, 'read-only');
    for (const client of [admin, admin.at('3.0'), admin.at('5.0'), readOnly.client]) {
      const res = await client.get('osversions');
      expectApiHeaders(res);
      expect({ status: res.status, body: res.body as unknown }).toEqual({
        status: 200,
        body: { response: { 'CentOS 7.2': 'centos72' } },
      });
    }
  });

  it('reads the directory the kickstart.files.location parameter of mkisofs names', async () => {
    await useParameter(dir('{"Rocky 9": "rocky9", "Alma 8": "alma8"}'));
    expect(responseOf(await admin.get('osversions'))).toEqual({ 'Rocky 9': 'rocky9', 'Alma 8': 'alma8' });
  });

  it('answers the original bare 500 when the file is missing, unreadable or not an object of strings', async () => {
    for (const text of [undefined, '{"CentOS": ', '["centos"]', '{"CentOS": 7}']) {
      await useParameter(dir(text));
      expectError(await admin.get('osversions'), 500, 'Internal Server Error');
    }
    await useParameter('/nonexistent/kickstart');
    expectError(await admin.get('osversions'), 500, 'Internal Server Error');
  });
});
