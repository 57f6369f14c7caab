import { BadRequestException } from '@nestjs/common';
import { parseByNameBody } from './by-name.dto';

const textOf = (body: unknown): string => {
  try {
    parseByNameBody(body);
  } catch (error) {
    expect(error).toBeInstanceOf(BadRequestException);
    return (error as BadRequestException).message;
  }
  throw new Error('expected a 400');
};

describe('parseByNameBody', () => {
  const item = { name: 'n', configFile: 'c', value: '', secure: 1 };

  it('reads one object or an array as a list', () => {
    expect(parseByNameBody(item)).toEqual([item]);
    expect(parseByNameBody([item, { ...item, secure: 0 }])).toEqual([item, { ...item, secure: 0 }]);
    expect(parseByNameBody([])).toEqual([]);
  });

  it('reports decoding problems before missing fields', () => {
    expect(textOf([{ secure: false }])).toBe(
      "parse error: decoding: object 0: 'secure' must be an integer 0 or 1, not a boolean",
    );
    expect(textOf('x')).toBe(
      'parse error: decoding: the request body must be a JSON object or an array of objects',
    );
    expect(textOf({ ...item, value: 'v'.repeat(65536) })).toBe(
      "parse error: decoding: object 0: 'value' the length must be no more than 65535",
    );
  });

  it('lists the missing fields of each object in the original order', () => {
    expect(textOf({})).toBe(
      'parse error: validating: object 0: required fields missing: configFile, name, secure, value',
    );
    expect(textOf([item, { name: 'n', value: null }])).toBe(
      'parse error: validating: object 1: required fields missing: configFile, secure, value',
    );
  });
});
