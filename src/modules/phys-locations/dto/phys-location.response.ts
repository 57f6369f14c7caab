import type { PhysLocation } from 'src/modules/phys-locations/phys-location.entity';

/** A phys_location on the wire: `region` is the region's name (docs/original-behaviour.md#phys-locations). */
export function toPhysLocationResponse(pl: PhysLocation): Record<string, unknown> {
  return {
    address: pl.address,
    city: pl.city,
    comments: pl.comments,
    email: pl.email,
    id: pl.id,
    lastUpdated: pl.lastUpdated,
    name: pl.name,
    phone: pl.phone,
    poc: pl.poc,
    region: pl.region?.name ?? null,
    regionId: pl.regionId,
    shortName: pl.shortName,
    state: pl.state,
    zip: pl.zip,
  };
}
