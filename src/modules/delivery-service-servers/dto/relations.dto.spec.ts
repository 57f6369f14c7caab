import { decodeGoStruct } from 'src/common/validation/go-struct';
import { collectionOf, readCollection } from 'src/common/validation/body-collections';
import { DeliveryServiceIdsBody, HostNameAssignmentBody } from './assignment.dto';
import { leftWithoutServersText } from 'src/modules/servers/server-rules';
import { refusalOf } from 'test/support/refusal';

const readIds = (body: unknown, present: boolean): Promise<unknown> => {
  const collection = collectionOf(DeliveryServiceIdsBody);
  if (!collection) {
    throw new Error('DeliveryServiceIdsBody is no collection');
  }
  return readCollection(body, collection, { present });
};

const message = (body: unknown, present = true): Promise<string> => refusalOf(() => readIds(body, present));

describe('DeliveryServiceIdsBody (POST servers/{id}/deliveryservices)', () => {
  const payload = 'payload must be a list of integers representing delivery service ids';

  it('takes an array of ids, and null as none', async () => {
    expect(await readIds([3, 1, 3], true)).toEqual([3, 1, 3]);
    expect(await readIds(null, true)).toEqual([]);
  });

  it("refuses anything else with the original's text, and ids beyond the columns by position", async () => {
    for (const body of [{}, [1, '2'], [1.5], 'x', true, [2 ** 31, 'x']]) {
      expect(await message(body)).toBe(payload);
    }
    expect(await message([], false)).toBe(payload);
    expect(await message([1, 2 ** 31])).toBe("'[1]' must be no greater than 2147483647");
    expect(await message(Array.from({ length: 10_001 }, () => 2 ** 31))).toBe(
      'the payload must have at most 10000 items',
    );
  });
});

describe('HostNameAssignmentBody (POST deliveryservices/{xmlId}/servers)', () => {
  const read = (body: unknown, present = true) => decodeGoStruct(body, HostNameAssignmentBody, { present });
  const refusal = (body: unknown, present = true): Promise<string> => refusalOf(() => read(body, present));

  it('takes a list of names, or none', async () => {
    expect((await read({ serverNames: ['a', 'b'] })).serverNames).toEqual(['a', 'b']);
    expect((await read({})).serverNames).toBeNull();
    expect((await read({ serverNames: null })).serverNames).toBeNull();
  });

  it('words what is wrong after `malformed JSON: `', async () => {
    expect(await refusal({}, false)).toBe('malformed JSON: EOF');
    expect(await refusal(['a'])).toBe('malformed JSON: the request body must be a JSON object');
    expect(await refusal(null)).toBe('malformed JSON: the request body must be a JSON object');
    expect(await refusal({ serverNames: [1] })).toBe(
      'malformed JSON: serverNames must be an array of strings',
    );
    expect(await refusal({ serverNames: 'a' })).toBe(
      'malformed JSON: serverNames must be an array of strings',
    );
    expect(await refusal({ serverNames: Array.from({ length: 10_001 }, () => 'a') })).toBe(
      'malformed JSON: serverNames must have at most 10000 items',
    );
  });
});

describe('leftWithoutServersText', () => {
  const prefix = 'Delivery Service assignment would leave Active Delivery Service';

  it('names one, two or more delivery services as the original does', () => {
    expect(leftWithoutServersText(prefix, 'EDGE', [4])).toBe(
      `${prefix} #4 with no 'ONLINE' or 'REPORTED' EDGE servers`,
    );
    expect(leftWithoutServersText(prefix, 'EDGE_TIER', [4, 5])).toBe(
      `${prefix}s #4 and #5 with no 'ONLINE' or 'REPORTED' EDGE servers`,
    );
    expect(leftWithoutServersText(prefix, 'ORG', [4, 5, 6])).toBe(
      `${prefix}s #4, #5, and #6 with no 'ONLINE' or 'REPORTED' ORG servers`,
    );
  });
});
