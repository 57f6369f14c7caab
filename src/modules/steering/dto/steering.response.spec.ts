import { toSteeringTargetEntry } from './steering.response';

describe('toSteeringTargetEntry', () => {
  it('fills the field of the target type', () => {
    expect(toSteeringTargetEntry('t', 'STEERING_ORDER', 3)).toEqual({
      order: 3,
      weight: 0,
      deliveryService: 't',
    });
    expect(toSteeringTargetEntry('t', 'STEERING_WEIGHT', 9)).toEqual({
      order: 0,
      weight: 9,
      deliveryService: 't',
    });
    expect(toSteeringTargetEntry('t', 'STEERING_GEO_ORDER', 2)).toEqual({
      order: 0,
      weight: 0,
      deliveryService: 't',
      geoOrder: 2,
    });
    expect(toSteeringTargetEntry('t', 'STEERING_GEO_WEIGHT', 4)).toEqual({
      order: 0,
      weight: 4,
      deliveryService: 't',
      geoOrder: 0,
    });
  });
});
