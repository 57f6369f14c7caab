import { insertRow } from 'src/common/database/insert-rows';
import { getPlainMany } from 'src/common/database/plain-rows';
import { Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { writeLock } from 'src/common/database/locks';
import { applyListQuery, type ListQuery } from 'src/common/list-query/list-query';
import type { ApiVersion } from 'src/common/versioning/api-version';
import { CoordinateDto } from './dto/coordinate.dto';
import { Coordinate } from './coordinate.entity';

/**
 * Coordinates (docs/original-behaviour.md#coordinates). A taken name is the unique index's 400; an
 * absent latitude or longitude is the NOT NULL column's 400 on 3.x/4.x and 0 on 5.0.
 */
@Injectable()
export class CoordinatesService {
  constructor(
    @InjectRepository(Coordinate) private readonly coordinates: Repository<Coordinate>,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  list(query: ListQuery): Promise<Coordinate[]> {
    return getPlainMany(applyListQuery(this.coordinates.createQueryBuilder('c'), query));
  }

  async create(dto: CoordinateDto, version: ApiVersion): Promise<Coordinate> {
    const id = await insertRow(this.coordinates.manager, this.coordinates.target, this.values(dto, version));
    return this.coordinates.findOneByOrFail({ id });
  }

  async update(id: number, dto: CoordinateDto, version: ApiVersion): Promise<Coordinate> {
    const result = await this.coordinates.update({ id }, this.values(dto, version));
    if (!result.affected) {
      throw this.notFound(id, version, 'no coordinate found with this id');
    }
    return this.coordinates.findOneByOrFail({ id });
  }

  /** Deletes and answers the deleted row (5.0 answers it). Used by an origin → 400 (the foreign key). */
  async remove(id: number, version: ApiVersion): Promise<Coordinate> {
    const row = await this.coordinates.findOne({ where: { id }, lock: writeLock(this.dataSource) });
    if (!row) {
      throw this.notFound(id, version, 'no coordinate with that key found');
    }
    await this.coordinates.delete({ id });
    return row;
  }

  private values(dto: CoordinateDto, version: ApiVersion) {
    const absent = version.atLeast('5.0') ? 0 : null;
    return {
      name: dto.name,
      latitude: (dto.latitude ?? absent) as number,
      longitude: (dto.longitude ?? absent) as number,
    };
  }

  private notFound(id: number, version: ApiVersion, generic: string): NotFoundException {
    return new NotFoundException(version.atLeast('5.0') ? `no such Coordinate: #${id}` : generic);
  }
}
