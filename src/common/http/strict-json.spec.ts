import { checkStrictJson, decodeUtf8, MAX_DEPTH, parseStrictJson, StrictJsonError } from './strict-json';

const bytes = (text: string) => new TextEncoder().encode(text);
const problemOf = (text: string): string | undefined => {
  try {
    checkStrictJson(text);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(StrictJsonError);
    return (error as Error).message;
  }
};

describe('strict JSON', () => {
  it('accepts ordinary bodies and parses them as JSON.parse does', () => {
    const bodies = [
      '{}',
      '[]',
      '{"name":"cdn1","domainName":"x.example.com","ttl":3600,"ok":true,"n":null}',
      '[{"a":1},{"a":2}]',
      '{"a":{"a":{"a":1}},"b":[{"a":1,"b":2}]}',
      '"text"',
      '42',
      '{"emoji":"😀","escaped":"\\ud83d\\ude00","quote":"\\"","slash":"\\\\u0000"}',
      '{"a\\u0062":1,"ab2":2}',
      ' \t\r\n{ "spaced" : [ 1 , 2 ] } ',
    ];
    for (const body of bodies) {
      expect(problemOf(body)).toBeUndefined();
      expect(parseStrictJson(bytes(body))).toEqual(JSON.parse(body));
    }
  });

  it('reads an empty body as {} and strips a byte order mark', () => {
    expect(parseStrictJson(new Uint8Array())).toEqual({});
    expect(parseStrictJson(new Uint8Array([0xef, 0xbb, 0xbf, ...bytes('{"a":1}')]))).toEqual({ a: 1 });
  });

  it(`allows ${MAX_DEPTH} levels of nesting and refuses one more`, () => {
    const nested = (depth: number, open: string, close: string, inner = '1') =>
      open.repeat(depth) + inner + close.repeat(depth);
    expect(problemOf(nested(MAX_DEPTH, '[', ']'))).toBeUndefined();
    expect(problemOf(nested(MAX_DEPTH - 1, '{"a":', '}', '[]'))).toBeUndefined();
    const deep = `request body nested too deeply: more than ${MAX_DEPTH} levels of arrays and objects`;
    expect(problemOf(nested(MAX_DEPTH + 1, '[', ']'))).toBe(deep);
    expect(problemOf(nested(MAX_DEPTH, '{"a":', '}', '[]'))).toBe(deep);
    // Far deeper than any stack: refused without recursion, and before JSON.parse.
    expect(problemOf(nested(1_000_000, '[', ']'))).toBe(deep);
    expect(problemOf('['.repeat(1_000_000))).toBe(deep);
    // Brackets inside strings are text.
    expect(problemOf(`{"a":"${'['.repeat(1000)}"}`)).toBeUndefined();
  });

  it('refuses a key repeated in one object, whatever its escapes', () => {
    expect(problemOf('{"u":"nobody","p":"x","u":"admin","p":"y"}')).toBe('malformed JSON: duplicate key "u"');
    expect(problemOf('{"ab":1,"a\\u0062":2}')).toBe('malformed JSON: duplicate key "ab"');
    expect(problemOf('[{"a":1},{"b":{"c":1,"c":2}}]')).toBe('malformed JSON: duplicate key "c"');
    expect(problemOf('{"a":{"x":1},"b":{"x":1},"a":2}')).toBe('malformed JSON: duplicate key "a"');
    expect(problemOf('{"a":["a","a"],"b":"a"}')).toBeUndefined();
    expect(problemOf(`{"${'k'.repeat(300)}":1,"${'k'.repeat(300)}":2}`)).toBe(
      `malformed JSON: duplicate key "${'k'.repeat(100)}…"`,
    );
  });

  it('refuses unpaired surrogate escapes, in values and in keys', () => {
    expect(problemOf('{"a":"\\ud800"}')).toBe('malformed JSON: unpaired surrogate \\ud800 in a string');
    expect(problemOf('{"a":"x\\uDC00y"}')).toBe('malformed JSON: unpaired surrogate \\udc00 in a string');
    expect(problemOf('{"\\ud83d":1}')).toBe('malformed JSON: unpaired surrogate \\ud83d in a string');
    expect(problemOf('["\\ud83d\\u0041"]')).toBe('malformed JSON: unpaired surrogate \\ud83d in a string');
    expect(problemOf('["\\ud83d\\\\ude00"]')).toBe('malformed JSON: unpaired surrogate \\ud83d in a string');
    expect(problemOf('["\\ude00\\ud83d"]')).toBe('malformed JSON: unpaired surrogate \\ude00 in a string');
    expect(problemOf('["\\ud83d\\ude00"]')).toBeUndefined();
  });

  it('refuses NUL characters, escaped or raw', () => {
    const nul = 'malformed JSON: NUL character (\\u0000)';
    expect(problemOf('{"name":"a\\u0000b"}')).toBe(nul);
    expect(problemOf('{"name":"a\u0000b"}')).toBe(nul);
    expect(problemOf('{"a\\u0000":1}')).toBe(nul);
    expect(problemOf('{"name":"a\\\\u0000b"}')).toBeUndefined();
  });

  it('refuses bytes that are not UTF-8 instead of replacing them', () => {
    const notUtf8 = 'malformed JSON: the body is not valid UTF-8';
    for (const bad of [
      [0x22, 0xff, 0x22],
      [0x22, 0xc3, 0x22], // truncated sequence
      [0x22, 0xed, 0xa0, 0x80, 0x22], // an encoded surrogate (CESU-8)
      [0x22, 0xc0, 0xaf, 0x22], // an overlong '/'
    ]) {
      expect(() => decodeUtf8(new Uint8Array(bad))).toThrow(notUtf8);
    }
    expect(decodeUtf8(bytes('"ü€😀"'))).toBe('"ü€😀"');
  });

  it('leaves syntax errors to JSON.parse', () => {
    for (const text of [
      '{"name": ',
      '{"a" 1}',
      '{"a":"\\x"}',
      '{"a":"unterminated',
      '}}]]',
      '{"a":1,}',
      '{"a":1}\\ {"b":"\\u0041"}',
    ]) {
      expect(problemOf(text)).toBeUndefined();
      expect(() => parseStrictJson(bytes(text))).toThrow(SyntaxError);
    }
  });

  it('scans a large body in one linear pass (no slower than JSON.parse by more than a small factor)', () => {
    const items = Array.from({ length: 20_000 }, (_, i) => ({
      id: i,
      name: `server-${i}`,
      tags: ['a', 'b\\u00e9', 'c'],
      nested: { x: i, y: `é${i}` },
    }));
    const text = JSON.stringify({ items });
    expect(text.length).toBeGreaterThan(1_000_000);
    const time = (run: () => void) => {
      let best = Infinity;
      for (let round = 0; round < 5; round++) {
        const start = process.hrtime.bigint();
        run();
        best = Math.min(best, Number(process.hrtime.bigint() - start) / 1e6);
      }
      return best;
    };
    const parse = time(() => JSON.parse(text));
    const check = time(() => checkStrictJson(text));
    // On the development machine, for 1.8 MB of 20,000 objects: JSON.parse ≈ 15 ms, the check
    // ≈ 7 ms. The bound only catches a scan that is not linear (a quadratic one takes seconds).
    expect(check).toBeLessThan(Math.max(10 * parse, 50));
  });
});
