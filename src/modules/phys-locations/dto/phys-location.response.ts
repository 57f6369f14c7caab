import type { PhysLocation } from 'src/modules/phys-locations/phys-location.entity';

/** lib/go-tc PhysLocation (every version). */
export interface PhysLocationWire {
  address: string | null;
  city: string | null;
  comments: string | null;
  email: string | null;
  id: number;
  lastUpdated: Date;
  name: string;
  phone: string | null;
  poc: string | null;
  region: string | null;
  regionId: number;
  shortName: string;
  state: string | null;
  zip: string | null;
}

/** A phys_location on the wire: `region` is the region's name (docs/original-behaviour.md#phys-locations). */
export function toPhysLocationResponse(pl: PhysLocation): PhysLocationWire {
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
