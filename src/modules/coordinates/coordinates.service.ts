import { BadRequestException, Injectable } from '@nestjs/common';
import type { TransactionManager } from 'src/common/database/unit-of-work';
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

/** The name of a cache group's own coordinate (the original's `tc.CachegroupCoordinateNamePrefix`). */
export const cachegroupCoordinateName = (cachegroup: string): string => `from_cachegroup_${cachegroup}`;

/** A cache group's place, for its own coordinate. */
export interface CachegroupPlace {
  name: string;
  latitude: number;
  longitude: number;
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

  /**
   * A new cache group's own coordinate, `from_cachegroup_<name>` at its place, in the cache group's
   * unit of work (docs/decisions.md#d217). A coordinate already named so is the unique index's 400.
   */
  async addForCachegroup(manager: TransactionManager, place: CachegroupPlace): Promise<void> {
    await this.coordinates.addWith(manager, this.ownColumns(place));
  }

  /**
   * A changed cache group's own coordinate follows its name and place; one missing (a cache group
   * made before coordinates followed them) is made. A new name whose coordinate another already
   * holds is the original's 400.
   */
  async moveForCachegroup(
    manager: TransactionManager,
    before: string,
    place: CachegroupPlace,
  ): Promise<void> {
    const [from, to] = [cachegroupCoordinateName(before), cachegroupCoordinateName(place.name)];
    if (from !== to && (await this.coordinates.existsNamed(manager, to))) {
      throw new BadRequestException('cachegroup name already exists, please choose a different name');
    }
    if (!(await this.coordinates.changeNamed(manager, from, this.ownColumns(place)))) {
      await this.coordinates.addWith(manager, this.ownColumns(place));
    }
  }

  /** A deleted cache group's own coordinate goes with it (an origin using it refuses, 400). */
  removeForCachegroup(manager: TransactionManager, name: string): Promise<void> {
    return this.coordinates.removeNamed(manager, cachegroupCoordinateName(name));
  }

  private ownColumns(place: CachegroupPlace): CoordinateColumns {
    return {
      name: cachegroupCoordinateName(place.name),
      latitude: place.latitude,
      longitude: place.longitude,
    };
  }
}
