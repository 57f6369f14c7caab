import type { Region } from 'src/modules/regions/region.entity';

/**
 * A region on the wire; the division id is named `division` (decision D6). `divisionName` is the
 * stored division's name unless the caller supplies the value to echo (PUT, decision D6).
 */
export function toRegionResponse(region: Region, divisionName?: string | null): Record<string, unknown> {
  return {
    division: region.divisionId,
    divisionName: divisionName === undefined ? (region.division?.name ?? null) : divisionName,
    id: region.id,
    lastUpdated: region.lastUpdated,
    name: region.name,
  };
}
