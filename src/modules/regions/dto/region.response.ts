import type { Region } from 'src/modules/regions/region.entity';

/**
 * A region on the wire; the division id is named `division` (docs/decisions.md#d6). `divisionName` is the
 * stored division's name unless the caller supplies the value to echo (PUT, docs/decisions.md#d6).
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
