import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { UnitOfWork } from 'src/common/database/unit-of-work';
import type { ListQuery } from 'src/common/list-query/list-query';
import { TypeDto } from './dto/type.dto';
import type { Type } from './type.entity';
import { TypesRepository } from './types.repository';

/** Only server types may be created, changed or removed through the API; the rest are the system's. */
const DYNAMIC_TABLE = 'server';
const V5_NAME = /^[a-zA-Z0-9\-_]+$/;

/** The rule API 5.0 adds for a type's name (the controller applies it from that version on). */
export function assertTypeNameCharacters(name: string): void {
  if (!V5_NAME.test(name)) {
    throw new BadRequestException("'name' must consist of only alphanumeric, dash, or underscore characters");
  }
}

@Injectable()
export class TypesService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly types: TypesRepository,
  ) {}

  list(query: ListQuery): Promise<Type[]> {
    return this.types.list(query);
  }

  create(dto: TypeDto): Promise<Type> {
    if (dto.useInTable !== DYNAMIC_TABLE) {
      throw new BadRequestException('can not create type');
    }
    return this.types.add({ name: dto.name, description: dto.description, useInTable: dto.useInTable });
  }

  /** Both the stored and the requested `useInTable` must be `server` (docs/decisions.md#d35). */
  update(id: number, dto: TypeDto): Promise<Type> {
    return this.unitOfWork.run(async (manager) => {
      const existing = await this.types.lockedById(manager, id);
      if (!existing) {
        throw new NotFoundException('no type found with this id');
      }
      if (existing.useInTable !== DYNAMIC_TABLE || dto.useInTable !== DYNAMIC_TABLE) {
        throw new BadRequestException('can not update type');
      }
      return this.types.change(manager, id, { name: dto.name, description: dto.description });
    });
  }

  /** Types still classifying rows are refused by the database (400 `cannot delete type …`). */
  async remove(id: number): Promise<void> {
    if (await this.types.removeUsedIn(id, DYNAMIC_TABLE)) {
      return;
    }
    if (!(await this.types.byId(id))) {
      throw new NotFoundException('no type with that key found');
    }
    throw new BadRequestException('can not delete type');
  }
}
