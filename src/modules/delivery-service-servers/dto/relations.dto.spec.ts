import { parseDeliveryServiceIds, parseHostNameAssignment } from './assignment.dto';
import { leftWithoutServersText } from 'src/modules/servers/server-rules';

const message = (parse: () => unknown): string => {
  try {
    parse();
  } catch (error) {
    return (error as Error).message;
  }
  return 'accepted';
};

describe('parseDeliveryServiceIds (POST servers/{id}/deliveryservices)', () => {
  const payload = 'payload must be a list of integers representing delivery service ids';

  it('takes an array of ids, and null as none', () => {
    expect(parseDeliveryServiceIds([3, 1, 3], true)).toEqual([3, 1, 3]);
    expect(parseDeliveryServiceIds(null, true)).toEqual([]);
  });

  it("refuses anything else with the original's text, and ids beyond the columns by position", () => {
    for (const body of [{}, [1, '2'], [1.5], 'x', true]) {
      expect(message(() => parseDeliveryServiceIds(body, true))).toBe(payload);
    }
    expect(message(() => parseDeliveryServiceIds([], false))).toBe(payload);
    expect(message(() => parseDeliveryServiceIds([1, 2 ** 31], true))).toBe(
      "'[1]' must be no greater than 2147483647",
    );
  });
});

describe('parseHostNameAssignment (POST deliveryservices/{xmlId}/servers)', () => {
  it('takes a list of names, or none', () => {
    expect(parseHostNameAssignment({ serverNames: ['a', 'b'] }, true)).toEqual({ serverNames: ['a', 'b'] });
    expect(parseHostNameAssignment({}, true)).toEqual({ serverNames: null });
  });

  it('words what is wrong after `malformed JSON: `', () => {
    expect(message(() => parseHostNameAssignment({}, false))).toBe('malformed JSON: EOF');
    expect(message(() => parseHostNameAssignment(['a'], true))).toBe(
      'malformed JSON: the request body must be a JSON object',
    );
    expect(message(() => parseHostNameAssignment({ serverNames: [1] }, true))).toBe(
      'malformed JSON: serverNames must be an array of strings',
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
