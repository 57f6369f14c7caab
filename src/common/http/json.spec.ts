import { serializeJson } from 'src/common/http/json';

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
