import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadEnvFile } from './env-file';

describe('loadEnvFile', () => {
  const dir = mkdtempSync(join(tmpdir(), 'env-file-'));
  const names = ['ENV_FILE_TEST_ONLY_IN_FILE', 'ENV_FILE_TEST_IN_BOTH', 'ENV_FILE_TEST_QUOTED'];

  afterEach(() => names.forEach((name) => delete process.env[name]));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('fills in what the environment lacks; the real environment wins', () => {
    const file = join(dir, '.env');
    writeFileSync(
      file,
      '# settings\nENV_FILE_TEST_ONLY_IN_FILE=from-file\nENV_FILE_TEST_IN_BOTH=from-file\nENV_FILE_TEST_QUOTED="a b"\n',
    );
    process.env.ENV_FILE_TEST_IN_BOTH = 'from-environment';
    expect(loadEnvFile(file)).toBe(true);
    expect(process.env.ENV_FILE_TEST_ONLY_IN_FILE).toBe('from-file');
    expect(process.env.ENV_FILE_TEST_IN_BOTH).toBe('from-environment');
    expect(process.env.ENV_FILE_TEST_QUOTED).toBe('a b');
  });

  it('is no error without a file', () => {
    expect(loadEnvFile(join(dir, 'missing.env'))).toBe(false);
    expect(process.env.ENV_FILE_TEST_ONLY_IN_FILE).toBeUndefined();
  });
});
