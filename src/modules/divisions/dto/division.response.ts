import type { Division } from 'src/modules/divisions/division.entity';

/** lib/go-tc Division (every version). */
export interface DivisionWire {
  id: number;
  lastUpdated: Date;
  name: string;
}

/** A division on the wire (docs/original-behaviour.md#divisions). */
export function toDivisionResponse(division: Division): DivisionWire {
  return {
    id: division.id,
    lastUpdated: division.lastUpdated,
    name: division.name,
  };
}
