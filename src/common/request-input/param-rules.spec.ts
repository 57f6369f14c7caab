import { BadRequestException, NotFoundException } from '@nestjs/common';
import type { Request } from 'express';
import {
  BoolParam,
  IntKey,
  IntListParam,
  IntParam,
  intRule,
  NotRead,
  OptionalIntParam,
  TextParam,
} from 'src/common/request-input/param-rules';
import { inputText, readQuery, ruleFor } from 'src/common/request-input/request-input';
import { ApiVersion } from 'src/common/versioning/api-version';

const refusal = (work: () => unknown): [number, string] => {
  try {
    work();
  } catch (error) {
    expect(error).toBeInstanceOf(Error);
    const http = error as BadRequestException | NotFoundException;
    return [http.getStatus(), http.message];
  }
  throw new Error('expected a refusal');
};

describe('parameter rules (src/common/request-input/param-rules.ts)', () => {
  it('reads a repeated query key by its first value, and a non-text one as empty', () => {
    const req = {
      query: { id: ['7', '8'], empty: '', odd: {} },
      params: { name: 'a b' },
    } as unknown as Request;
    expect(inputText(req, 'query', 'id')).toBe('7');
    expect(inputText(req, 'query', 'empty')).toBe('');
    expect(inputText(req, 'query', 'odd')).toBe('');
    expect(inputText(req, 'query', 'absent')).toBeUndefined();
    expect(inputText(req, 'query', 'toString')).toBeUndefined();
    expect(inputText(req, 'path', 'name')).toBe('a b');
  });

  it("words a generic handler's key as the original: missing key, failed to parse key", () => {
    expect(IntKey().read('2147483647', 'id')).toBe(2147483647);
    expect(refusal(() => IntKey().read(undefined, 'id'))).toEqual([400, 'missing key: id']);
    for (const text of ['', '2147483648', '99999999999999999999', '-1', '1.5', 'abc']) {
      expect(refusal(() => IntKey().read(text, 'id'))).toEqual([400, 'failed to parse key: id']);
    }
    expect(refusal(() => IntKey({ emptyIsMissing: true }).read('', 'id'))).toEqual([400, 'missing key: id']);
  });

  it("words a hand-written handler's parameter as the original", () => {
    expect(IntParam().read('-5', 'id')).toBe(-5);
    expect(refusal(() => IntParam().read(undefined, 'id'))).toEqual([
      400,
      'required parameters missing: missing required parameters: id',
    ]);
    expect(refusal(() => IntParam({ as: 'serverid' }).read('-2147483649', 'serverId'))).toEqual([
      400,
      "getting integer parameters: parameter 'serverid' not an integer",
    ]);
    expect(OptionalIntParam({ default: 0 }).read(undefined, 'days')).toBe(0);
  });

  it('answers 404 for an id no row can have where the original does, and Atoi errors where it gives them', () => {
    const job = intRule('jobId', { atoi: true });
    expect(job.read('12', 'id')).toBe(12);
    expect(refusal(() => job.read('+5', 'id'))).toEqual([404, "No job by id '+5'!"]);
    expect(refusal(() => job.read('2147483648', 'id'))).toEqual([404, "No job by id '2147483648'!"]);
    expect(refusal(() => job.read('x', 'id'))).toEqual([
      400,
      "getting integer parameters: parameter 'id' not an integer",
    ]);
    const entry = intRule('staticDnsEntry', { atoi: true, column: null });
    expect(entry.read('+4294967296', 'id')).toBe(4294967296);
    expect(refusal(() => entry.read('9223372036854775808', 'id'))).toEqual([
      400,
      `couldn't convert ID into a numeric value: strconv.Atoi: parsing "9223372036854775808": value out of range`,
    ]);
    expect(refusal(() => entry.read('', 'id'))).toEqual([
      400,
      `couldn't convert ID into a numeric value: strconv.Atoi: parsing "": invalid syntax`,
    ]);
  });

  it("words filters, their range and their values as the original's read handlers", () => {
    const filter = intRule('rangedFilter', { required: false });
    expect(refusal(() => intRule('filter').read('2147483648', 'target'))).toEqual([
      400,
      'target cannot parse to integer',
    ]);
    expect(filter.read(undefined, 'param')).toBeUndefined();
    expect(refusal(() => filter.read('x', 'param'))).toEqual([400, 'param cannot parse to integer']);
    expect(refusal(() => filter.read('2147483648', 'param'))).toEqual([
      400,
      'param must be no greater than 2147483647',
    ]);
    const active = TextParam({ oneOf: { wording: 'filter', values: ['ACTIVE', 'INACTIVE', 'PRIMED'] } });
    expect(refusal(() => active.read('ON', 'active'))).toEqual([
      400,
      "active illegal value 'ON' must be one of 'ACTIVE', 'INACTIVE', or 'PRIMED'",
    ]);
  });

  it("reads booleans as Go's ParseBool", () => {
    expect(BoolParam('logoutAll', false).read(undefined, 'all')).toBe(false);
    expect(BoolParam('logoutAll', false).read('T', 'all')).toBe(true);
    expect(refusal(() => BoolParam('logoutAll', false).read('yes', 'all'))).toEqual([
      400,
      "query parameter 'all' must be true or false",
    ]);
    expect(refusal(() => BoolParam('parseBool').read(undefined, 'replace'))).toEqual([
      400,
      'strconv.ParseBool: parsing "": invalid syntax',
    ]);
  });

  it('takes the rule declared for the newest version not above the request', () => {
    const spec = { '3.0': IntKey(), '5.0': IntParam() };
    expect(ruleFor(spec, ApiVersion.parse('4.1')!)).toBe(spec['3.0']);
    expect(ruleFor(spec, ApiVersion.parse('5.0')!)).toBe(spec['5.0']);
    expect(ruleFor({ '4.0': IntKey() }, ApiVersion.parse('3.1')!)).toBeUndefined();
  });

  it('reads a key not read in a version as absent, whatever the request sends', () => {
    const keys = {
      id: { '3.0': IntKey(), '4.0': NotRead() },
      name: { '3.0': NotRead(), '4.0': TextParam({ requiredBy: 'generic' }) },
    };
    const req = (version: string) =>
      ({ path: `/api/${version}/roles`, query: { id: 'x', name: 'n' } }) as unknown as Request;
    expect(readQuery(req('4.0'), keys)).toEqual({ name: 'n' });
    expect(refusal(() => readQuery(req('3.1'), keys))).toEqual([400, 'failed to parse key: id']);
    expect(NotRead().unread).toBe(true);
    expect(IntKey().unread).toBeUndefined();
  });

  it('caps the digits of an integer where the original does, leading zeros counted', () => {
    const days = intRule('logDays', { required: false, column: { min: 1, max: 999999 }, digits: 6 });
    expect(days.read('000007', 'days')).toBe(7);
    for (const text of ['0000007', '1000000', '0', '-1', '']) {
      expect(refusal(() => days.read(text, 'days'))).toEqual([
        400,
        'days parameter must be a positive integer',
      ]);
    }
  });

  it('reads comma-separated integers, refusing any part with the whole text', () => {
    const ids = IntListParam('intList');
    expect(ids.read(undefined, 'serverids')).toEqual([]);
    expect(ids.read(' 1, ,2,', 'serverids')).toEqual([1, 2]);
    expect(refusal(() => ids.read('1,x', 'serverids'))).toEqual([
      400,
      "serverids query parameter must be a comma-delimited list of integers, got '1,x'",
    ]);
    expect(refusal(() => ids.read('2147483648', 'serverids'))).toEqual([
      400,
      "serverids query parameter must be a comma-delimited list of integers, got '2147483648'",
    ]);
  });

  it("documents a text its handler's own function checks with the type it declares", () => {
    const limit = TextParam({ documents: { type: 'integer' } });
    expect([limit.type, limit.read('x', 'limit')]).toEqual(['integer', 'x']);
    expect(TextParam({ documents: { type: 'string', values: ['time'] } }).values).toEqual(['time']);
  });
});
