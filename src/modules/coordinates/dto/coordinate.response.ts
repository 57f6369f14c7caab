import { byVersion, rfc3339 } from 'src/common/wire/by-version';
import type { Coordinate } from 'src/modules/coordinates/coordinate.entity';

/** 3.x/4.x `tc.CoordinateNullable`: `lastUpdated` in the `TimeNoMod` form. */
export interface CoordinateV3 {
  id: number;
  name: string;
  latitude: number;
  longitude: number;
  lastUpdated: Date;
}

/** 5.0 `tc.CoordinateV5`: `lastUpdated` is RFC 3339. */
export interface CoordinateV5 {
  id: number;
  name: string;
  latitude: number;
  longitude: number;
  lastUpdated: string;
}

export const toCoordinateResponse = byVersion<Coordinate, CoordinateV3 | CoordinateV5>({
  '3.0': (c): CoordinateV3 => ({
    id: c.id,
    name: c.name,
    latitude: c.latitude,
    longitude: c.longitude,
    lastUpdated: c.lastUpdated,
  }),
  '5.0': (c): CoordinateV5 => ({
    id: c.id,
    name: c.name,
    latitude: c.latitude,
    longitude: c.longitude,
    lastUpdated: rfc3339(c.lastUpdated),
  }),
});
