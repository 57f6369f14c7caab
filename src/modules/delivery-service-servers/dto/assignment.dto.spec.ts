import { parseServerAssignment } from './assignment.dto';

describe('parseServerAssignment', () => {
  const message = (body: unknown): string => {
    try {
      parseServerAssignment(body);
    } catch (error) {
      return (error as Error).message;
    }
    return 'accepted';
  };

  it('accepts a complete body', () => {
    expect(parseServerAssignment({ dsId: 3, servers: [1, 2], replace: true })).toEqual({
      dsId: 3,
      servers: [1, 2],
      replace: true,
    });
  });

  it("names missing fields in the original's order", () => {
    expect(message({})).toBe('servers must exist in post');
    expect(message({ servers: null, dsId: 1, replace: true })).toBe('servers must exist in post');
    expect(message({ servers: [] })).toBe('dsid must exist in post');
    expect(message({ servers: [], dsId: 1 })).toBe('replace must exist in post');
  });

  it('names every mistyped field, in the order of the body', () => {
    expect(message({ dsId: 1.5, servers: ['1'], replace: 1 })).toBe(
      "'dsId' must be an integer, 'servers' must be an array of integers, 'replace' must be a boolean",
    );
    expect(message([1])).toBe('the request body must be a JSON object');
  });

  it('refuses ids beyond the 32-bit columns, naming the field (and the first such server)', () => {
    expect(message({ dsId: 2 ** 31, servers: [1, 2 ** 53 + 2, -(2 ** 31) - 1], replace: false })).toBe(
      "'dsId' must be no greater than 2147483647, 'servers[1]' must be no greater than 2147483647",
    );
    expect(message({ dsId: -(2 ** 31) - 1, servers: [2147483647], replace: false })).toBe(
      "'dsId' must be no less than -2147483648",
    );
  });
});
