/** A steering target as the original's queries return it (joined with both delivery services and the type). */
export interface SteeringTargetRow {
  deliveryService: string;
  deliveryServiceId: number | string;
  target: string;
  targetId: number | string;
  type: string;
  typeId: number | string;
  value: number | string;
}

/** lib/go-tc SteeringTargetNullable (every version). */
export interface SteeringTargetWire {
  deliveryService: string;
  deliveryServiceId: number;
  target: string;
  targetId: number;
  type: string;
  typeId: number;
  value: number;
}

/** A steering target on the wire, in the original's key order (lib/go-tc SteeringTargetNullable). */
export function toSteeringTargetResponse(row: SteeringTargetRow): SteeringTargetWire {
  return {
    deliveryService: row.deliveryService,
    deliveryServiceId: Number(row.deliveryServiceId),
    target: row.target,
    targetId: Number(row.targetId),
    type: row.type,
    typeId: Number(row.typeId),
    value: Number(row.value),
  };
}
