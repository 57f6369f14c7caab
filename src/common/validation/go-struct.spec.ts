import 'reflect-metadata';
import { BadRequestException } from '@nestjs/common';
import { Max } from 'class-validator';
import { classSchema } from 'src/common/validation/json-schema';
import { GoField } from './go-field';
import { decodeGoStruct, GoDecodeError, GoStruct, goStructSchema, isGoStruct } from './go-struct';
import { validateBody } from './versioned-body';

@GoStruct('Inner', { failure: 'unused' })
class Inner {
  @GoField.string({ required: true, schema: { description: 'a name' } })
  name = '';
}

@GoStruct('Sample', { failure: 'Unable to parse input: ', withCause: true })
class Sample {
  @GoField.uint('uint64', undefined, { required: true })
  id = 0;

  @GoField.string()
  label?: string;

  @GoField.uint('uint32', 10, { schema: { minimum: 1 } })
  small = 0;

  @GoField.rfc3339()
  at?: Date;

  @GoField.legacyTime({ schema: { type: 'string' } })
  legacy?: Date;

  @GoField.intStr({ min: -5, max: 5, maxDigits: 1 })
  level?: number;

  @GoField.any({ schema: { description: 'anything' } })
  extra?: unknown;

  @GoField.struct(() => Inner, 'tc.Inner')
  inner?: Inner;
}

@GoStruct('Quiet', { failure: 'Unable to parse' })
class Quiet {
  @GoField.string()
  name = '';
}

@GoStruct<Ordered>('Ordered', {
  failure: 'decoding: ',
  withCause: true,
  order: 'document',
  nullBody: 'null',
  check: (body) => (body.b === 'bad' ? 'validating: b is bad' : undefined),
})
class Ordered {
  @GoField.string()
  a?: string;

  @GoField.rfc3339('rfc3339')
  when?: Date;

  @GoField.decoded(
    (value) => {
      if (value !== 'ok' && value !== 'bad') {
        throw new GoDecodeError('not ok');
      }
      return value;
    },
    { type: 'string', description: 'ok' },
  )
  b?: string;
}

@GoStruct('Ruled', { failure: 'x', nullBody: 'object' })
class Ruled {
  @GoField.uint('int')
  @Max(3, { message: 'must be no greater than 3' })
  n = 0;
}

@GoStruct('Row', { failure: 'unused', withCause: true })
class Row {
  @GoField.string()
  secret?: string;

  @GoField.column('string', { maxLength: 3 })
  note?: string | null;

  @GoField.column('int', { name: 'ID', nullAs: 0 })
  id?: number;

  @GoField.column('string', {
    empty: 'name: cannot be empty',
    rule: (v) => (v === 'x' ? 'not x' : undefined),
  })
  name?: string;
}

@GoStruct<Wrapped>('Wrapped', {
  failure: "couldn't parse: ",
  withCause: true,
  eofWhenNoBody: true,
  notAnObject: 'not an object',
  check: (body) => (body.row === undefined ? 'missing row' : undefined),
})
class Wrapped {
  @GoField.struct(() => Row, 'tc.Row', { namedAfter: 'nested' })
  row?: Row;
}

@GoStruct('Node', { failure: 'unused' })
class Node {
  @GoField.list('int')
  parents: number[] = [];

  @GoField.text()
  name = '';
}

@GoStruct('Worded', { failure: 'malformed: ', withCause: true, notAnObject: 'no object', nullBody: 'zero' })
class Worded {
  @GoField.int({ intStr: true })
  id: number | null = null;

  @GoField.int({ goType: 'int' })
  n?: number;

  @GoField.list(() => Node)
  nodes: Node[] = [];

  @GoField.string({ key: 'host_name' })
  hostName?: string;
}

@GoStruct<Listed>('Listed', {
  failure: 'decoding: ',
  check: (body) => (body.a === undefined ? 'validating: a missing' : undefined),
})
class Listed {
  @GoField.collected(
    (v) => (v === null ? { value: undefined } : v === 1 ? { value: 1 } : { problem: "'a' bad" }),
    {
      type: 'integer',
    },
  )
  a?: number;

  @GoField.collected((v) => (typeof v === 'string' ? { value: v } : { problem: "'b' bad, 'b' worse" }), {
    type: 'string',
  })
  b = '';
}

async function failure(type: new () => object, raw: unknown, present = true): Promise<string> {
  try {
    await decodeGoStruct(raw, type, { present });
  } catch (error) {
    expect(error).toBeInstanceOf(BadRequestException);
    return (error as BadRequestException).message;
  }
  throw new Error('decoded');
}

describe('GoStruct bodies', () => {
  it('decodes the fields it declares, a missing or null one keeping its initial value', async () => {
    const body = await decodeGoStruct(
      {
        id: 7,
        label: null,
        at: '2021-01-02T03:04:05Z',
        level: '-3',
        extra: [1],
        inner: { name: 'n' },
        unknown: true,
      },
      Sample,
    );
    expect(body).toBeInstanceOf(Sample);
    expect(body.id).toBe(7);
    expect(body.label).toBeUndefined();
    expect(body.small).toBe(0);
    expect(body.at?.toISOString()).toBe('2021-01-02T03:04:05.000Z');
    expect(body.level).toBe(-3);
    expect(body.extra).toEqual([1]);
    expect(body.inner).toBeInstanceOf(Inner);
    expect(body.inner?.name).toBe('n');
    expect(body).not.toHaveProperty('unknown');
  });

  it('stops at the first bad field in declaration order, in Go words', async () => {
    expect(await failure(Sample, { label: 5, id: 'x' })).toBe(
      'Unable to parse input: json: cannot unmarshal string into Go struct field Sample.id of type uint64',
    );
    expect(await failure(Sample, { id: -1 })).toBe(
      'Unable to parse input: json: cannot unmarshal number -1 into Go struct field Sample.id of type uint64',
    );
    expect(await failure(Sample, { small: 11 })).toBe(
      'Unable to parse input: json: cannot unmarshal number 11 into Go struct field Sample.small of type uint32',
    );
    expect(await failure(Sample, { label: true })).toBe(
      'Unable to parse input: json: cannot unmarshal bool into Go struct field Sample.label of type string',
    );
    expect(await failure(Sample, { at: 1 })).toBe(
      'Unable to parse input: Time.UnmarshalJSON: input is not a JSON string',
    );
    expect(await failure(Sample, { at: 'soon' })).toBe(
      'Unable to parse input: parsing time "soon" as "2006-01-02T15:04:05Z07:00": cannot parse',
    );
    expect(await failure(Sample, { legacy: 'soon' })).toBe(
      'Unable to parse input: parsing time "\\"soon\\"": not a valid time',
    );
    expect(await failure(Sample, { level: '12' })).toBe('Unable to parse input: not an integer');
    expect(await failure(Sample, { level: 6 })).toBe('Unable to parse input: not an integer');
    expect(await failure(Sample, { inner: [] })).toBe(
      'Unable to parse input: json: cannot unmarshal array into Go struct field Sample.inner of type tc.Inner',
    );
    expect(await failure(Sample, { inner: { name: 1 } })).toBe(
      'Unable to parse input: json: cannot unmarshal number into Go struct field Sample.inner.name of type string',
    );
  });

  it('refuses a body that is not an object, and decodes null as the zero struct unless told', async () => {
    expect(await failure(Sample, [])).toBe(
      'Unable to parse input: json: cannot unmarshal array into Go value of type tc.Sample',
    );
    expect((await decodeGoStruct(null, Sample)).id).toBe(0);
    expect(await failure(Ordered, null)).toBe(
      'decoding: json: cannot unmarshal null into Go value of type tc.Ordered',
    );
    expect(await failure(Ruled, null)).toBe('x');
  });

  it('answers only the failure text without withCause', async () => {
    expect(await failure(Quiet, { name: 1 })).toBe('Unable to parse');
  });

  it("reads the body's order and names case-insensitively with order 'document'", async () => {
    expect(await failure(Ordered, { b: 'no', a: 1 })).toBe('decoding: not ok');
    expect(await failure(Ordered, { WHEN: 'x' })).toBe(
      'decoding: parsing time "x" as RFC 3339: invalid time',
    );
    expect((await decodeGoStruct({ A: 'first', a: 'second' }, Ordered)).a).toBe('second');
  });

  it("runs the struct's check, then its class-validator rules", async () => {
    expect(await failure(Ordered, { b: 'bad' })).toBe('validating: b is bad');
    expect(await failure(Ruled, { n: 4 })).toBe("'n' must be no greater than 3");
    expect((await decodeGoStruct({ n: 3 }, Ruled)).n).toBe(3);
  });

  it('is what validateBody (and so @ValidBody) does for such a class', async () => {
    expect(isGoStruct(Sample)).toBe(true);
    await expect(validateBody({ id: 'x' }, Sample)).rejects.toThrow(
      'Unable to parse input: json: cannot unmarshal string into Go struct field Sample.id of type uint64',
    );
    expect((await validateBody({ id: 2 }, Sample)).id).toBe(2);
  });

  it('reads column fields after the Go decoding, collecting every problem named after its field', async () => {
    expect(await failure(Wrapped, { row: { note: 5, id: 1.5, name: '', secret: 1 } })).toBe(
      "couldn't parse: json: cannot unmarshal number into Go struct field Row.row.secret of type string",
    );
    expect(await failure(Wrapped, { row: { note: 'long', id: 1.5, name: '' } })).toBe(
      "couldn't parse: note: the length must be no more than 3, ID: json: cannot unmarshal number 1.5 into Go value of type int, name: cannot be empty",
    );
    expect(await failure(Wrapped, { row: { note: [], id: 'x', name: 'x' } })).toBe(
      "couldn't parse: note: json: cannot unmarshal array into Go value of type string, ID: json: cannot unmarshal string into Go value of type int, not x",
    );
    expect(await failure(Wrapped, { row: { id: 2 ** 31 } })).toMatch(/^couldn't parse: ID: /);
    const body = await decodeGoStruct({ row: { note: null, id: null } }, Wrapped);
    expect(body.row).toEqual(Object.assign(new Row(), { note: null, id: 0 }));
    expect(Object.entries(body.row ?? {}).filter(([, v]) => v !== undefined)).toEqual([
      ['note', null],
      ['id', 0],
    ]);
  });

  it('answers EOF for no body, its own text for a non-object body, and runs the check', async () => {
    expect(await failure(Wrapped, {}, false)).toBe("couldn't parse: EOF");
    expect(await failure(Wrapped, [])).toBe('not an object');
    expect(await failure(Wrapped, null)).toBe('not an object');
    expect(await failure(Wrapped, { row: null })).toBe('missing row');
    expect(await failure(Wrapped, { row: 1 })).toBe(
      "couldn't parse: json: cannot unmarshal number into Go struct field Wrapped.row of type tc.Row",
    );
  });

  it("words the project's type and range problems by the field's path, stopping at the first (D225)", async () => {
    const body = await decodeGoStruct({ id: ' 12 ', n: 3, nodes: [{ parents: [0], name: 'a' }] }, Worded);
    expect(body.id).toBe(12);
    expect(body.nodes[0]).toBeInstanceOf(Node);
    expect(body.nodes[0]).toEqual({ parents: [0], name: 'a' });
    expect(await decodeGoStruct(null, Worded)).toEqual({ id: null, nodes: [] });
    expect(await failure(Worded, [])).toBe('no object');
    expect(await failure(Worded, { id: '1x', n: 'x' })).toBe("malformed: 'id' must be an integer");
    expect(await failure(Worded, { id: 2 ** 31 })).toBe("malformed: 'id' must be no greater than 2147483647");
    expect(await failure(Worded, { n: 1.5 })).toBe(
      'malformed: json: cannot unmarshal number into Go struct field Worded.n of type int',
    );
    expect(await failure(Worded, { n: -(2 ** 31) - 1 })).toBe(
      "malformed: 'n' must be no less than -2147483648",
    );
    expect(await failure(Worded, { nodes: {} })).toBe("malformed: 'nodes' must be an array");
    expect(await failure(Worded, { nodes: [{}, 1] })).toBe("malformed: 'nodes[1]' must be an object");
    expect(await failure(Worded, { nodes: [{ name: 1, parents: [0, 'a'] }] })).toBe(
      "malformed: 'nodes[0].parents[1]' must be an integer",
    );
    expect(await failure(Worded, { nodes: [{ name: 1 }] })).toBe(
      "malformed: 'nodes[0].name' must be a string",
    );
    expect((await decodeGoStruct({ host_name: 'h', hostName: 'x' }, Worded)).hostName).toBe('h');
    expect(await failure(Worded, { host_name: 1 })).toBe(
      'malformed: json: cannot unmarshal number into Go struct field Worded.host_name of type string',
    );
    expect(goStructSchema(Worded)).toEqual({
      type: 'object',
      properties: {
        id: { type: 'integer' },
        n: { type: 'integer' },
        nodes: {
          type: 'array',
          items: {
            type: 'object',
            properties: { parents: { type: 'array', items: { type: 'integer' } }, name: { type: 'string' } },
          },
        },
        host_name: { type: 'string' },
      },
    });
  });

  it('lists the problems of every collected field, then runs the check', async () => {
    expect(await decodeGoStruct({ a: 1, b: 'x' }, Listed)).toEqual({ a: 1, b: 'x' });
    expect(await failure(Listed, { b: 2, a: 2 })).toBe("decoding: 'a' bad, 'b' bad, 'b' worse");
    expect(await failure(Listed, { a: null })).toBe('validating: a missing');
    expect(goStructSchema(Listed)).toEqual({
      type: 'object',
      properties: { a: { type: 'integer' }, b: { type: 'string' } },
    });
  });

  it('derives the request schema from the same decorators', () => {
    expect(classSchema(Sample)).toEqual(goStructSchema(Sample));
    expect(goStructSchema(Sample)).toEqual({
      type: 'object',
      properties: {
        id: { type: 'integer' },
        label: { type: 'string' },
        small: { type: 'integer', minimum: 1 },
        at: { type: 'string', description: 'RFC 3339' },
        legacy: { type: 'string' },
        level: { type: 'integer' },
        extra: { description: 'anything' },
        inner: {
          type: 'object',
          properties: { name: { type: 'string', description: 'a name' } },
          required: ['name'],
        },
      },
      required: ['id'],
    });
    expect(goStructSchema(Ordered).properties?.b).toEqual({ type: 'string', description: 'ok' });
    expect(goStructSchema(Row).properties).toEqual({
      secret: { type: 'string' },
      note: { type: 'string', nullable: true },
      id: { type: 'integer' },
      name: { type: 'string' },
    });
  });
});
