import type { Cachegroup } from 'src/modules/cachegroups/cachegroup.entity';

/** A cache group with its side-table rows: localization methods and fallback names in set order. */
export interface CachegroupView {
  cachegroup: Cachegroup;
  localizationMethods: string[];
  fallbacks: string[];
}

/** A cache group on the wire (lib/go-tc CacheGroupNullable; the same keys in 3.x, 4.x and 5.0). */
export function toCachegroupResponse({ cachegroup, localizationMethods, fallbacks }: CachegroupView) {
  return {
    id: cachegroup.id,
    name: cachegroup.name,
    shortName: cachegroup.shortName,
    latitude: cachegroup.latitude,
    longitude: cachegroup.longitude,
    parentCachegroupName: cachegroup.parentCachegroup?.name ?? null,
    parentCachegroupId: cachegroup.parentCachegroupId,
    secondaryParentCachegroupName: cachegroup.secondaryParentCachegroup?.name ?? null,
    secondaryParentCachegroupId: cachegroup.secondaryParentCachegroupId,
    fallbackToClosest: cachegroup.fallbackToClosest,
    localizationMethods,
    typeName: cachegroup.type?.name ?? null,
    typeId: cachegroup.typeId,
    lastUpdated: cachegroup.lastUpdated,
    fallbacks,
  };
}
