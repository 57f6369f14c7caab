import { UnitOfWork } from 'src/common/database/unit-of-work';
import { insertRow } from 'src/common/database/insert-rows';
import { getPlainMany } from 'src/common/database/plain-rows';
import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { writeLock } from 'src/common/database/locks';
import { applyListQuery, type ListQuery } from 'src/common/list-query/list-query';
import type { ApiVersion } from 'src/common/versioning/api-version';
import { TypeDto } from './dto/type.dto';
import { Type } from './type.entity';

/** Only server types may be created, changed or removed through the API; the rest are the system's. */
const DYNAMIC_TABLE = 'server';
const V5_NAME = /^[a-zA-Z0-9\-_]+$/;

@Injectable()
export class TypesService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    @InjectRepository(Type) private readonly types: Repository<Type>,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  list(query: ListQuery): Promise<Type[]> {
    return getPlainMany(applyListQuery(this.types.createQueryBuilder('type'), query));
  }

  async create(dto: TypeDto, version: ApiVersion): Promise<Type> {
    this.checkName(dto, version);
    if (dto.useInTable !== DYNAMIC_TABLE) {
      throw new BadRequestException('can not create type');
    }
    const id = await insertRow(this.types.manager, this.types.target, {
      name: dto.name,
      description: dto.description,
      useInTable: dto.useInTable,
    });
    return this.types.findOneByOrFail({ id });
  }

  /** Both the stored and the requested `useInTable` must be `server` (docs/decisions.md#d35). */
  update(id: number, dto: TypeDto, version: ApiVersion): Promise<Type> {
    this.checkName(dto, version);
    return this.unitOfWork.run(async (manager) => {
      const existing = await manager.findOne(Type, { where: { id }, lock: writeLock(this.dataSource) });
      if (!existing) {
        throw new NotFoundException('no type found with this id');
      }
      if (existing.useInTable !== DYNAMIC_TABLE || dto.useInTable !== DYNAMIC_TABLE) {
        throw new BadRequestException('can not update type');
      }
      await manager.update(Type, { id }, { name: dto.name, description: dto.description });
      return manager.findOneByOrFail(Type, { id });
    });
  }

  /** Types still classifying rows are refused by the database (400 `cannot delete type …`). */
  async remove(id: number): Promise<void> {
    const result = await this.types.delete({ id, useInTable: DYNAMIC_TABLE });
    if (result.affected) {
      return;
    }
    const existing = await this.types.findOneBy({ id });
    if (!existing) {
      throw new NotFoundException('no type with that key found');
    }
    throw new BadRequestException('can not delete type');
  }

  private checkName(dto: TypeDto, version: ApiVersion): void {
    if (version.atLeast('5.0') && !V5_NAME.test(dto.name)) {
      throw new BadRequestException(
        "'name' must consist of only alphanumeric, dash, or underscore characters",
      );
    }
  }
}
