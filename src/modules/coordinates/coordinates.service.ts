import { Injectable } from '@nestjs/common';
import type { ListQuery } from 'src/common/list-query/list-query';
import type { Coordinate } from './coordinate.entity';
import { CoordinatesRepository, type CoordinateColumns } from './coordinates.repository';

/**
 * Coordinates (docs/original-behaviour.md#coordinates). A taken name is the unique index's 400; an
 * absent latitude or longitude (null here: the controller gives 0 on 5.0) is the NOT NULL column's 400.
 * A missing coordinate is answered as undefined: its 404's text is the version's (the controller's).
 */
export interface CoordinateInput {
  name: string;
  latitude: number | null;
  longitude: number | null;
}

@Injectable()
export class CoordinatesService {
  constructor(private readonly coordinates: CoordinatesRepository) {}

  list(query: ListQuery): Promise<Coordinate[]> {
    return this.coordinates.list(query);
  }

  create(input: CoordinateInput): Promise<Coordinate> {
    return this.coordinates.add(this.columns(input));
  }

  update(id: number, input: CoordinateInput): Promise<Coordinate | undefined> {
    return this.coordinates.change(id, this.columns(input));
  }

  /** Deletes and answers the deleted row (5.0 answers it). Used by an origin → 400 (the foreign key). */
  remove(id: number): Promise<Coordinate | undefined> {
    return this.coordinates.remove(id);
  }

  /** NULLs are written as given, for the database to refuse. */
  private columns(input: CoordinateInput): CoordinateColumns {
    return {
      name: input.name,
      latitude: input.latitude as number,
      longitude: input.longitude as number,
    };
  }
}
