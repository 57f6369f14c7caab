import { parseQueueUpdate } from './queue-update.dto';

describe('parseQueueUpdate', () => {
  const message = (body: unknown): string => {
    try {
      parseQueueUpdate(body);
    } catch (error) {
      return (error as Error).message;
    }
    return 'accepted';
  };

  it('reads the CDN by name, by id, or as a numeric string', () => {
    expect(parseQueueUpdate({ action: 'queue', cdn: 'a' })).toEqual({
      action: 'queue',
      cdn: 'a',
      cdnId: undefined,
    });
    expect(parseQueueUpdate({ action: 'dequeue', cdnId: 4 })).toEqual({
      action: 'dequeue',
      cdn: undefined,
      cdnId: 4,
    });
    expect(parseQueueUpdate({ action: 'queue', cdn: '', cdnId: ' 7 ' })).toEqual({
      action: 'queue',
      cdn: undefined,
      cdnId: 7,
    });
  });

  it("answers the original's texts", () => {
    expect(message({ action: 'x', cdn: 'a' })).toBe("action must be 'queue' or 'dequeue'");
    expect(message({ action: 'queue' })).toBe('cdn is a required field');
    expect(message({ action: 'queue', cdn: '' })).toBe('cdn is a required field');
  });

  it('refuses mistyped fields', () => {
    expect(message({ action: 'queue', cdnId: '7a' })).toBe("'cdnId' must be an integer");
    expect(message({ action: 'queue', cdnId: 1.5 })).toBe("'cdnId' must be an integer");
    expect(message({ action: 'queue', cdnId: 2 ** 31 })).toBe("'cdnId' must be no greater than 2147483647");
    expect(message({ action: 'queue', cdnId: '99999999999999999999' })).toBe(
      "'cdnId' must be no greater than 2147483647",
    );
    expect(message({ action: 'queue', cdnId: '-2147483649' })).toBe(
      "'cdnId' must be no less than -2147483648",
    );
    expect(message({ action: 'queue', cdn: 1 })).toBe("'cdn' must be a string");
    expect(message(null)).toBe('the request body must be a JSON object');
  });
});
