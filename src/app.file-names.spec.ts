import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * One name per kind of file in the modules (docs/architecture.md#module-files): request bodies are
 * `<thing>.dto.ts`, rules that need no database `<thing>-rules.ts`, rules that read it
 * `<thing>-checks.ts`. The other spellings once used side by side stay gone.
 */
const RETIRED: [RegExp, string][] = [
  [/\.body(\.spec)?\.ts$/, 'a request body is <thing>.dto.ts'],
  [/\.rules(\.spec)?\.ts$/, 'rules are <thing>-rules.ts (pure) or <thing>-checks.ts (reading the database)'],
  [
    /\.validation(\.spec)?\.ts$/,
    'rules are <thing>-rules.ts (pure) or <thing>-checks.ts (reading the database)',
  ],
];

describe('file names of the modules', () => {
  const files = readdirSync(join(__dirname, 'modules'), { recursive: true, encoding: 'utf8' });

  it.each(RETIRED)('no file matches %s (%s)', (pattern) => {
    expect(files.filter((file) => pattern.test(file))).toEqual([]);
  });

  it('sees the modules (the walk is not empty)', () => {
    expect(files.filter((file) => file.endsWith('.dto.ts')).length).toBeGreaterThan(40);
  });
});
