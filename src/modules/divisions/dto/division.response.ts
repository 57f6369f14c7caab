import type { Division } from 'src/modules/divisions/division.entity';

/** A division on the wire (docs/original-behaviour.md#divisions). */
export function toDivisionResponse(division: Division): Record<string, unknown> {
  return {
    id: division.id,
    lastUpdated: division.lastUpdated,
    name: division.name,
  };
}
