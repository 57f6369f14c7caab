import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, validateSync } from 'class-validator';
import { BIGINT } from 'src/common/validation/integers';
import { ColumnInt, INT_COLUMN, OptionalInt, RequiredInt } from 'src/common/validation/rules';
import { validationMessages } from 'src/common/validation/validation.options';

class Sample {
  @RequiredInt()
  id!: number;

  @OptionalInt({ min: 1, max: 30 })
  level?: number | null;

  @OptionalInt({ column: BIGINT })
  big?: number | null;

  @ColumnInt(undefined, { each: true, message: 'must be an array of integers' })
  ids: number[] = [];
}

const messages = (body: object): string[] => validationMessages(validateSync(plainToInstance(Sample, body)));

describe('integer fields of request bodies', () => {
  it('hold their column: INT32 unless told, BIGINT as the integers JSON carries exactly', () => {
    expect(messages({ id: 2147483647, level: 30, big: 9007199254740991, ids: [-2147483648] })).toEqual([]);
    expect(messages({ id: 2147483648, big: 2 ** 53 })).toEqual([
      "'id' must be no greater than 2147483647",
      "'big' must be no greater than 9007199254740991",
    ]);
    expect(messages({ id: -(2 ** 31) - 1, big: -(2 ** 63) })).toEqual([
      "'id' must be no less than -2147483648",
      "'big' must be no less than -9007199254740991",
    ]);
    // 2^53 + 1 arrives as 2^53 (JSON.parse rounds it): refused, never stored altered.
    expect(messages(JSON.parse('{"id": 9007199254740993}') as object)).toEqual([
      "'id' must be no greater than 2147483647",
    ]);
  });

  it('keep the type problem first, and the narrower rule of the field', () => {
    expect(messages({ id: 1.5, level: 2 ** 40 })).toEqual([
      "'id' must be an integer",
      "'level' must be no greater than 30",
    ]);
    expect(messages({ id: 1e300 })).toEqual(["'id' must be no greater than 2147483647"]);
  });

  it('name the first element of a list that is out of range', () => {
    expect(messages({ id: 1, ids: [1, 2 ** 31, -(2 ** 31) - 1] })).toEqual([
      "'ids[1]' must be no greater than 2147483647",
    ]);
    expect(messages({ id: 1, ids: [1, 'x', 2 ** 31] })).toEqual(["'ids' must be an array of integers"]);
  });

  /**
   * Every body class of every module: an integer field (IsInt) must carry its column's range
   * (ColumnInt, RequiredInt or OptionalInt), and a number field (IsNumber) must be one of the
   * floating-point columns, so that no integer field is left unbounded by mistake.
   */
  it('every integer field of every module states its column', async () => {
    const root = join(__dirname, '..', '..', 'modules');
    const files = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
        entry.isDirectory()
          ? files(join(dir, entry.name))
          : entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts')
            ? [join(dir, entry.name)]
            : [],
      );
    // The classes the modules declare (exported, or the base of an exported one).
    const classes = new Set<unknown>();
    for (const file of files(root)) {
      const exported = (await import(file)) as Record<string, unknown>;
      for (const value of Object.values(exported)) {
        for (
          let c = value;
          typeof c === 'function' && c !== Function.prototype;
          c = Object.getPrototypeOf(c)
        ) {
          classes.add(c);
        }
      }
    }
    const storage = getMetadataStorage() as unknown as {
      validationMetadatas: Map<{ name: string }, { propertyName: string; name?: string }[]>;
    };
    const integers: string[] = [];
    const unbounded: string[] = [];
    const numbers: string[] = [];
    for (const [target, metadatas] of storage.validationMetadatas) {
      if (!classes.has(target)) {
        continue;
      }
      const byProperty = new Map<string, Set<string | undefined>>();
      for (const m of metadatas) {
        byProperty.set(m.propertyName, (byProperty.get(m.propertyName) ?? new Set()).add(m.name));
      }
      for (const [property, names] of byProperty) {
        const field = `${target.name}.${property}`;
        if (names.has('isInt')) {
          integers.push(field);
          if (!names.has(INT_COLUMN)) {
            unbounded.push(field);
          }
        }
        if (names.has('isNumber')) {
          numbers.push(property);
        }
      }
    }
    expect(integers.length).toBeGreaterThan(50);
    expect(unbounded).toEqual([]);
    // Coordinates are floating-point columns.
    expect([...new Set(numbers)].sort()).toEqual(['latitude', 'longitude', 'missLat', 'missLong']);
  }, 30_000); // loads every module of the application
});
