import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Request bodies have one engine (docs/decisions.md#d218): class-validator DTOs, and @GoStruct classes
 * for the bodies the original decodes as Go structs (src/common/validation/go-struct.ts). A body class
 * with a hand `static parse` or a hand `static readonly schema` is allowed only where the list below
 * says so, each file with its count; the list only shrinks: convert a class, then take it off here.
 */
const ALLOWED: Record<string, number> = {
  // Hand parsers (each with its one-line reason in the class).
  'delivery-service-requests/dto/delivery-service-request.dto.ts': 2,
  'profile-parameters/dto/by-name.dto.ts': 2,
};

const HAND_WRITTEN =
  /\bstatic\s+(?:async\s+)?parse\s*[(<]|\bstatic\s+readonly\s+parse\s*[=:]|\bstatic\s+(?:readonly\s+)?schema\b/g;

describe('hand parsers and hand schemas of request bodies', () => {
  const root = join(__dirname, 'modules');
  const found: Record<string, number> = {};
  for (const file of readdirSync(root, { recursive: true, encoding: 'utf8' })) {
    if (file.endsWith('.ts') && !file.endsWith('.spec.ts')) {
      const count = readFileSync(join(root, file), 'utf8').match(HAND_WRITTEN)?.length ?? 0;
      if (count > 0) {
        found[file.split('\\').join('/')] = count;
      }
    }
  }

  it('appear only where the allow-list says, as often as it says (and the list holds no converted file)', () => {
    expect(found).toEqual(ALLOWED);
  });

  it('are found by the pattern (the scan is not empty)', () => {
    expect('  static parse(raw: unknown)'.match(HAND_WRITTEN)).toHaveLength(1);
    expect('  static readonly schema: JsonSchema'.match(HAND_WRITTEN)).toHaveLength(1);
    expect('  static readonly parse = (raw: unknown) => raw;'.match(HAND_WRITTEN)).toHaveLength(1);
    expect(Object.keys(found).length).toBeGreaterThan(0);
  });
});
