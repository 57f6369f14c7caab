import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, type EntityManager, Repository } from 'typeorm';
import { insertRow } from 'src/common/database/insert-rows';
import { writeLock } from 'src/common/database/locks';
import { getPlainMany } from 'src/common/database/plain-rows';
import { applyListQuery, type ListQuery } from 'src/common/list-query/list-query';
import { Coordinate } from './coordinate.entity';

export type CoordinateColumns = Pick<Coordinate, 'name' | 'latitude' | 'longitude'>;

/** The coordinate table: the only file of the module that runs SQL (docs/architecture.md#data-access). */
@Injectable()
export class CoordinatesRepository {
  constructor(
    @InjectRepository(Coordinate) private readonly coordinates: Repository<Coordinate>,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  list(query: ListQuery): Promise<Coordinate[]> {
    return getPlainMany(applyListQuery(this.coordinates.createQueryBuilder('c'), query));
  }

  /** Adds a coordinate and answers it as stored. */
  async add(columns: CoordinateColumns): Promise<Coordinate> {
    const id = await insertRow(this.coordinates.manager, this.coordinates.target, columns);
    return this.coordinates.findOneByOrFail({ id });
  }

  /** Changes a coordinate: its row as stored afterwards, or undefined when there is none. */
  async change(id: number, columns: CoordinateColumns): Promise<Coordinate | undefined> {
    const result = await this.coordinates.update({ id }, columns);
    return result.affected ? this.coordinates.findOneByOrFail({ id }) : undefined;
  }

  /** Deletes a coordinate, read first with a write lock: the deleted row, or undefined when there was none. */
  async remove(id: number): Promise<Coordinate | undefined> {
    const row = await this.coordinates.findOne({ where: { id }, lock: writeLock(this.dataSource) });
    if (!row) {
      return undefined;
    }
    await this.coordinates.delete({ id });
    return row;
  }

  /** Adds a coordinate in the caller's unit of work (a cache group's own). */
  async addWith(manager: EntityManager, columns: CoordinateColumns): Promise<void> {
    await insertRow(manager, Coordinate, columns);
  }

  /** Changes the coordinate named `name`: whether there was one. */
  async changeNamed(manager: EntityManager, name: string, columns: CoordinateColumns): Promise<boolean> {
    return Boolean((await manager.update(Coordinate, { name }, columns)).affected);
  }

  /** Whether a coordinate is named `name`. */
  async existsNamed(manager: EntityManager, name: string): Promise<boolean> {
    return (await manager.count(Coordinate, { where: { name } })) > 0;
  }

  /** Deletes the coordinate named `name`, if any (a foreign key refuses one an origin uses). */
  async removeNamed(manager: EntityManager, name: string): Promise<void> {
    await manager.delete(Coordinate, { name });
  }
}
