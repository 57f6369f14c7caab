/**
 * Strict JSON: a request body means one thing only. JSON as RFC 8259 leaves it open lets two
 * readers of the same bytes (a proxy or firewall in front, and this service) see different
 * documents, so bodies are refused when they:
 *
 * - are not valid UTF-8 (a lenient decoder would silently replace the bad bytes with U+FFFD);
 * - nest arrays and objects deeper than {@link MAX_DEPTH} levels (no Traffic Ops body nests more
 *   than about five; deep bodies only serve to exhaust the stack of whatever walks them);
 * - repeat a key within one object (JSON.parse keeps the last one, other parsers the first);
 * - hold a `\uD800`–`\uDFFF` escape that is not half of a surrogate pair (it names no character);
 * - hold a NUL character, raw or as `\u0000` (C-based tools stop reading there).
 *
 * The check is one linear pass over the decoded text, before JSON.parse, without recursion (so that
 * it cannot overflow the stack either); syntax errors are left to JSON.parse and its messages.
 */

/** Deepest nesting of arrays and objects a body may have (`{"a":[1]}` is 2 levels). */
export const MAX_DEPTH = 64;

/** A body refused by the strict rules; the message is the alert's text. */
export class StrictJsonError extends Error {}

const fatalUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** The body's text; bytes that are not UTF-8 are refused rather than replaced. */
export function decodeUtf8(bytes: Uint8Array): string {
  try {
    return fatalUtf8.decode(bytes);
  } catch {
    throw new StrictJsonError('malformed JSON: the body is not valid UTF-8');
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;
const LETTER_U = 0x75;

function hex4(text: string, at: number): number {
  if (at + 4 > text.length) {
    return -1;
  }
  const digits = text.slice(at, at + 4);
  return /^[0-9A-Fa-f]{4}$/.test(digits) ? parseInt(digits, 16) : -1;
}

function escapeText(code: number): string {
  return `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * The keys of one open object: a short list searched in place (most objects have a few keys), a
 * set once it grows.
 */
class Keys {
  private list: string[] | undefined = [];
  private set: Set<string> | undefined;

  /** Adds `key`; false when the object already has it. */
  add(key: string): boolean {
    if (this.list !== undefined) {
      if (this.list.includes(key)) {
        return false;
      }
      this.list.push(key);
      if (this.list.length > 16) {
        this.set = new Set(this.list);
        this.list = undefined;
      }
      return true;
    }
    const set = this.set!;
    if (set.has(key)) {
      return false;
    }
    set.add(key);
    return true;
  }
}

function quotedKey(key: string): string {
  return JSON.stringify(key.length > 100 ? `${key.slice(0, 100)}…` : key);
}

const NUL = 'malformed JSON: NUL character (\\u0000)';

/**
 * A left-to-right reader of one text. `nextBackslash` caches the position of the next `\` (or -1),
 * so that strings without escapes are skipped with one `indexOf` each and the whole scan stays linear.
 */
class Scanner {
  private nextBackslash: number;
  /** Whether the last string scanned held escapes. */
  escaped = false;

  constructor(private readonly text: string) {
    this.nextBackslash = text.indexOf('\\');
  }

  /**
   * Scans the string literal whose opening quote is at `start`; returns the index just past its
   * closing quote (the text's length when it is not closed: JSON.parse reports that). Refuses
   * `\u0000` and unpaired surrogate escapes.
   */
  string(start: number): number {
    const text = this.text;
    this.escaped = false;
    let i = start + 1;
    if (this.nextBackslash !== -1 && this.nextBackslash < i) {
      this.nextBackslash = text.indexOf('\\', i); // one outside any string: a syntax error
    }
    for (;;) {
      const quote = text.indexOf('"', i);
      if (quote === -1) {
        return text.length;
      }
      if (this.nextBackslash === -1 || this.nextBackslash > quote) {
        return quote + 1;
      }
      this.escaped = true;
      i = this.escape(this.nextBackslash);
      this.nextBackslash = text.indexOf('\\', i);
    }
  }

  /** Checks the escape at `at` (a backslash); returns the index just past it. */
  private escape(at: number): number {
    const text = this.text;
    if (text.charCodeAt(at + 1) !== LETTER_U) {
      return at + 2; // a one-character escape (or a bad one, left to JSON.parse)
    }
    const code = hex4(text, at + 2);
    if (code < 0) {
      return at + 2;
    }
    if (code === 0) {
      throw new StrictJsonError(NUL);
    }
    if (code >= 0xdc00 && code <= 0xdfff) {
      throw new StrictJsonError(`malformed JSON: unpaired surrogate ${escapeText(code)} in a string`);
    }
    if (code >= 0xd800 && code <= 0xdbff) {
      const low =
        text.charCodeAt(at + 6) === BACKSLASH && text.charCodeAt(at + 7) === LETTER_U
          ? hex4(text, at + 8)
          : -1;
      if (low < 0xdc00 || low > 0xdfff) {
        throw new StrictJsonError(`malformed JSON: unpaired surrogate ${escapeText(code)} in a string`);
      }
      return at + 12;
    }
    return at + 6;
  }
}

/**
 * Throws a {@link StrictJsonError} when `text` breaks one of the strict rules. Text that is not
 * JSON at all may pass (JSON.parse refuses it next); valid JSON passes exactly when it is strict.
 */
export function checkStrictJson(text: string, maxDepth = MAX_DEPTH): void {
  if (text.includes('\u0000')) {
    throw new StrictJsonError(NUL); // in a string or not (then it is a syntax error anyway)
  }
  const scanner = new Scanner(text);
  // One entry per open container: the keys seen so far for an object, null for an array.
  const open: (Keys | null)[] = [];
  let expectKey = false;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    switch (c) {
      case QUOTE: {
        const end = scanner.string(i);
        const keys = expectKey && open.length > 0 ? open[open.length - 1] : null;
        if (keys !== null) {
          let key: string;
          try {
            key = scanner.escaped ? (JSON.parse(text.slice(i, end)) as string) : text.slice(i + 1, end - 1);
          } catch {
            return; // a bad escape: JSON.parse words it
          }
          if (!keys.add(key)) {
            throw new StrictJsonError(`malformed JSON: duplicate key ${quotedKey(key)}`);
          }
        }
        expectKey = false;
        i = end;
        continue;
      }
      case OPEN_OBJECT:
      case OPEN_ARRAY:
        if (open.length >= maxDepth) {
          throw new StrictJsonError(
            `request body nested too deeply: more than ${maxDepth} levels of arrays and objects`,
          );
        }
        open.push(c === OPEN_OBJECT ? new Keys() : null);
        expectKey = c === OPEN_OBJECT;
        break;
      case CLOSE_OBJECT:
      case CLOSE_ARRAY:
        open.pop();
        expectKey = false;
        break;
      case COMMA:
        expectKey = open.length > 0 && open[open.length - 1] !== null;
        break;
      case COLON:
        expectKey = false;
        break;
      default:
        break;
    }
    i++;
  }
}

/** The body as JSON.parse reads it, after the strict checks; an empty body is `{}`. */
export function parseStrictJson(bytes: Uint8Array, maxDepth = MAX_DEPTH): unknown {
  const text = decodeUtf8(bytes);
  if (text.length === 0) {
    return {};
  }
  checkStrictJson(text, maxDepth);
  return JSON.parse(text) as unknown;
}
