import { decodeGoStruct } from 'src/common/validation/go-struct';
import { QueueUpdateBody } from './queue-update.dto';
import { refusalOf } from 'test/support/refusal';

describe('QueueUpdateBody', () => {
  const parseQueueUpdate = (body: unknown) => decodeGoStruct(body, QueueUpdateBody);
  const message = (body: unknown): Promise<string> => refusalOf(() => parseQueueUpdate(body));

  it('reads the CDN by name, by id, or as a numeric string', async () => {
    expect(await parseQueueUpdate({ action: 'queue', cdn: 'a' })).toEqual({
      action: 'queue',
      cdn: 'a',
      cdnId: undefined,
    });
    expect(await parseQueueUpdate({ action: 'dequeue', cdnId: 4 })).toEqual({
      action: 'dequeue',
      cdn: undefined,
      cdnId: 4,
    });
    expect(await parseQueueUpdate({ action: 'queue', cdn: '', cdnId: ' 7 ' })).toEqual({
      action: 'queue',
      cdn: undefined,
      cdnId: 7,
    });
  });

  it("answers the original's texts", async () => {
    expect(await message({ action: 'x', cdn: 'a' })).toBe("action must be 'queue' or 'dequeue'");
    expect(await message({ action: 'queue' })).toBe('cdn is a required field');
    expect(await message({ action: 'queue', cdn: '' })).toBe('cdn is a required field');
  });

  it('refuses mistyped fields', async () => {
    expect(await message({ action: 'queue', cdnId: '7a' })).toBe("'cdnId' must be an integer");
    expect(await message({ action: 'queue', cdnId: 1.5 })).toBe("'cdnId' must be an integer");
    expect(await message({ action: 'queue', cdnId: 2 ** 31 })).toBe(
      "'cdnId' must be no greater than 2147483647",
    );
    expect(await message({ action: 'queue', cdnId: '99999999999999999999' })).toBe(
      "'cdnId' must be no greater than 2147483647",
    );
    expect(await message({ action: 'queue', cdnId: '-2147483649' })).toBe(
      "'cdnId' must be no less than -2147483648",
    );
    expect(await message({ action: 'queue', cdn: 1 })).toBe("'cdn' must be a string");
    expect(await message(null)).toBe('the request body must be a JSON object');
  });
});
