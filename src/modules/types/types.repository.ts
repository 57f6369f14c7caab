import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, type EntityManager, Repository } from 'typeorm';
import { insertRow } from 'src/common/database/insert-rows';
import { writeLock } from 'src/common/database/locks';
import { getPlainMany } from 'src/common/database/plain-rows';
import { applyListQuery, type ListQuery } from 'src/common/list-query/list-query';
import { Type } from './type.entity';

export type TypeColumns = Pick<Type, 'name' | 'description' | 'useInTable'>;

/** The type table: the only file of the module that runs SQL (docs/architecture.md#data-access). */
@Injectable()
export class TypesRepository {
  constructor(
    @InjectRepository(Type) private readonly types: Repository<Type>,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  list(query: ListQuery): Promise<Type[]> {
    return getPlainMany(applyListQuery(this.types.createQueryBuilder('type'), query));
  }

  byId(id: number): Promise<Type | null> {
    return this.types.findOneBy({ id });
  }

  /** Adds a type and answers it as stored. */
  async add(columns: TypeColumns): Promise<Type> {
    const id = await insertRow(this.types.manager, this.types.target, columns);
    return this.types.findOneByOrFail({ id });
  }

  /** The type, read with a write lock on `manager`'s transaction (before changing it). */
  lockedById(manager: EntityManager, id: number): Promise<Type | null> {
    return manager.findOne(Type, { where: { id }, lock: writeLock(this.dataSource) });
  }

  /** Changes a type's name and description on `manager`, and answers it as stored. */
  async change(
    manager: EntityManager,
    id: number,
    columns: Pick<Type, 'name' | 'description'>,
  ): Promise<Type> {
    await manager.update(Type, { id }, columns);
    return manager.findOneByOrFail(Type, { id });
  }

  /** Deletes the type when it is used in `table`: whether one was deleted. */
  async removeUsedIn(id: number, table: string): Promise<boolean> {
    const result = await this.types.delete({ id, useInTable: table });
    return Boolean(result.affected);
  }
}
