import type { Region } from 'src/modules/regions/region.entity';

/** lib/go-tc Region (every version). */
export interface RegionWire {
  division: number;
  divisionName: string | null;
  id: number;
  lastUpdated: Date;
  name: string;
}

/**
 * A region on the wire; the division id is named `division` (docs/decisions.md#d6). `divisionName` is the
 * stored division's name unless the caller supplies the value to echo (PUT, docs/decisions.md#d6).
 */
export function toRegionResponse(region: Region, divisionName?: string | null): RegionWire {
  return {
    division: region.divisionId,
    divisionName: divisionName === undefined ? (region.division?.name ?? null) : divisionName,
    id: region.id,
    lastUpdated: region.lastUpdated,
    name: region.name,
  };
}
