/** One target of a steering delivery service in GET /steering (lib/go-tc SteeringSteeringTarget). */
export interface SteeringTargetEntry {
  order: number;
  weight: number;
  deliveryService: string;
  /** Only for the GEO types. */
  geoOrder?: number;
}

export interface SteeringFilterEntry {
  deliveryService: string;
  pattern: string;
}

/** A steering entry of GET /steering (docs/original-behaviour.md#steering). */
export interface SteeringEntry {
  deliveryService: string;
  clientSteering: boolean;
  targets: SteeringTargetEntry[];
  filters: SteeringFilterEntry[];
}

/**
 * A target's fields by its steering type (docs/original-behaviour.md#steering): STEERING_ORDER sets `order`,
 * STEERING_WEIGHT `weight`, STEERING_GEO_ORDER `geoOrder`, STEERING_GEO_WEIGHT `weight` and
 * `geoOrder: 0`. The original adds the `latitude`/`longitude` of the target's primary origin for
 * the GEO types; origins carry no coordinates in this schema, so those keys are omitted.
 */
export function toSteeringTargetEntry(targetXmlId: string, type: string, value: number): SteeringTargetEntry {
  const entry: SteeringTargetEntry = { order: 0, weight: 0, deliveryService: targetXmlId };
  switch (type) {
    case 'STEERING_ORDER':
      entry.order = value;
      break;
    case 'STEERING_WEIGHT':
      entry.weight = value;
      break;
    case 'STEERING_GEO_ORDER':
      entry.geoOrder = value;
      break;
    case 'STEERING_GEO_WEIGHT':
      entry.weight = value;
      entry.geoOrder = 0;
      break;
  }
  return entry;
}
