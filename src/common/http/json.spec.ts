import { serializeJson, serializeJsonByPlan } from 'src/common/http/json';
import { formatRfc3339, formatTrafficOpsTime } from 'src/common/time/timestamps';
import { NONE, timePlanFor, WALK } from 'src/common/wire/schemas/time-plan';

describe('serializeJson', () => {
  it('writes every Date, however deep, in the Traffic Ops format', () => {
    const at = new Date('2020-02-03T04:05:06.789Z');
    expect(
      JSON.parse(
        serializeJson({ response: [{ lastUpdated: at, nested: { when: at, list: [at] } }], alerts: [] }),
      ),
    ).toEqual({
      response: [
        {
          lastUpdated: '2020-02-03 04:05:06+00',
          nested: { when: '2020-02-03 04:05:06+00', list: ['2020-02-03 04:05:06+00'] },
        },
      ],
      alerts: [],
    });
  });

  it('leaves other values alone', () => {
    expect(serializeJson({ a: null, b: [1, 'x', true], c: undefined })).toBe('{"a":null,"b":[1,"x",true]}');
  });
});

describe('serializeJsonByPlan', () => {
  const at = new Date('2020-02-03T04:05:06.789Z');
  const file = {
    $comment: '',
    types: {
      Widget: {
        type: 'object' as const,
        properties: {
          id: { type: 'number' as const },
          lastUpdated: { type: 'string' as const, 'x-wire-time': true as const },
          when: {
            anyOf: [{ type: 'string' as const }, { type: 'string' as const, 'x-wire-time': true as const }],
          },
          parts: { type: 'array' as const, items: { $ref: 'Part' } },
        },
      },
      Part: {
        type: 'object' as const,
        properties: { at: { type: 'string' as const, 'x-wire-time': true as const } },
      },
    },
    routes: {},
  };
  const listOfWidgets = {
    type: 'object' as const,
    properties: {
      alerts: { $ref: 'Alerts' },
      response: { type: 'array' as const, items: { $ref: 'Widget' } },
    },
  };

  it('writes the times where the schema has them, nested and in unions with strings', () => {
    const body = { response: [{ id: 1, lastUpdated: at, when: at, parts: [{ at }, { at: null }] }] };
    const plan = timePlanFor(listOfWidgets, file);
    expect(JSON.parse(serializeJsonByPlan(body, formatRfc3339, plan))).toEqual({
      response: [
        {
          id: 1,
          lastUpdated: '2020-02-03T04:05:06.789Z',
          when: '2020-02-03T04:05:06.789Z',
          parts: [{ at: '2020-02-03T04:05:06.789Z' }, { at: null }],
        },
      ],
    });
  });

  it('with the check, refuses a Date the schema does not place, and says where', () => {
    const plan = timePlanFor(listOfWidgets, file);
    const body = () => ({ response: [{ id: 1, lastUpdated: at, stray: { at } }] });
    expect(() => serializeJsonByPlan(body(), formatRfc3339, plan, true)).toThrow(
      "a Date at $.response[0].stray.at is not where the route's wire schema has a time",
    );
    // Without the check the stray Date is JSON.stringify's (the tests run with it).
    expect(serializeJsonByPlan(body(), formatRfc3339, plan)).toContain(
      '"stray":{"at":"2020-02-03T04:05:06.789Z"}',
    );
  });

  it('walks every value where the schema cannot say (unknown values, unions of objects)', () => {
    const untyped = timePlanFor({ type: 'object', properties: { response: { 'x-untyped': true } } }, file);
    expect(
      JSON.parse(serializeJsonByPlan({ response: [{ at }] }, formatTrafficOpsTime, untyped, true)),
    ).toEqual({
      response: [{ at: '2020-02-03 04:05:06+00' }],
    });
    expect(timePlanFor({ anyOf: [{ $ref: 'Widget' }, { $ref: 'Part' }] }, file)).toBe(WALK);
    const plan = timePlanFor(
      { type: 'object', properties: { response: { anyOf: [{ $ref: 'Widget' }, { $ref: 'Part' }] } } },
      file,
    );
    expect(
      JSON.parse(serializeJsonByPlan({ response: { deep: [{ at }] } }, formatTrafficOpsTime, plan, true)),
    ).toEqual({
      response: { deep: [{ at: '2020-02-03 04:05:06+00' }] },
    });
  });

  it('visits nothing where the schema has no time', () => {
    expect(timePlanFor({ type: 'object', properties: { alerts: { $ref: 'Alerts' } } }, file)).toBe(NONE);
  });
});
