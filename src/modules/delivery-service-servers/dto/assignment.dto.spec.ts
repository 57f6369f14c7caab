import { decodeGoStruct } from 'src/common/validation/go-struct';
import { ServerAssignmentBody } from './assignment.dto';
import { refusalOf } from 'test/support/refusal';

describe('ServerAssignmentBody', () => {
  const message = (body: unknown): Promise<string> =>
    refusalOf(() => decodeGoStruct(body, ServerAssignmentBody));

  it('accepts a complete body', async () => {
    expect({
      ...(await decodeGoStruct({ dsId: 3, servers: [1, 2], replace: true }, ServerAssignmentBody)),
    }).toEqual({
      dsId: 3,
      servers: [1, 2],
      replace: true,
    });
  });

  it("names missing fields in the original's order", async () => {
    expect(await message({})).toBe('servers must exist in post');
    expect(await message({ servers: null, dsId: 1, replace: true })).toBe('servers must exist in post');
    expect(await message({ servers: [] })).toBe('dsid must exist in post');
    expect(await message({ servers: [], dsId: null, replace: 'x' })).toBe('dsid must exist in post');
    expect(await message({ servers: [], dsId: 1 })).toBe('replace must exist in post');
    expect(await message({ servers: 'x', dsId: 'y' })).toBe('replace must exist in post');
  });

  it('names every mistyped field, in the order of the body', async () => {
    expect(await message({ dsId: 1.5, servers: ['1'], replace: 1 })).toBe(
      "'dsId' must be an integer, 'servers' must be an array of integers, 'replace' must be a boolean",
    );
    expect(await message({ replace: 1, servers: 2, dsId: '3' })).toBe(
      "'dsId' must be an integer, 'servers' must be an array of integers, 'replace' must be a boolean",
    );
    expect(await message([1])).toBe('the request body must be a JSON object');
    expect(await message(null)).toBe('the request body must be a JSON object');
  });

  it('refuses ids beyond the 32-bit columns, naming the field (and the first such server)', async () => {
    expect(await message({ dsId: 2 ** 31, servers: [1, 2 ** 53 + 2, -(2 ** 31) - 1], replace: false })).toBe(
      "'dsId' must be no greater than 2147483647, 'servers[1]' must be no greater than 2147483647",
    );
    expect(await message({ dsId: -(2 ** 31) - 1, servers: [2147483647], replace: false })).toBe(
      "'dsId' must be no less than -2147483648",
    );
    expect(await message({ dsId: 1, servers: [1, 'x', 2 ** 31], replace: false })).toBe(
      "'servers' must be an array of integers",
    );
  });

  it('refuses more than MAX_IDS servers', async () => {
    expect(
      await message({ dsId: 1, servers: Array.from({ length: 10_001 }, () => 2 ** 31), replace: true }),
    ).toBe("'servers' must have at most 10000 items");
  });
});
