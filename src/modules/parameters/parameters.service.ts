import { UnitOfWork } from 'src/common/database/unit-of-work';
import { insertRow, insertRows } from 'src/common/database/insert-rows';
import { getPlainMany } from 'src/common/database/plain-rows';
import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, type EntityManager, In, Repository } from 'typeorm';
import { classifyDbError, type DbFailure, translateDbErrors } from 'src/common/database/db-error';
import { lockingClause } from 'src/common/database/locks';
import { applyListQuery, type ListQuery } from 'src/common/list-query/list-query';
import { ParameterDto } from './dto/parameter.dto';
import { Parameter, parameterIdentity } from './parameter.entity';

export interface ParameterWithProfiles {
  parameter: Parameter;
  profiles: string[];
}

/** SQLite binds at most 32766 values per statement; profile names are fetched in chunks. */
const ID_CHUNK = 1000;

/** The original's unique-violation text, for the digest index that stands for UNIQUE(name, config_file, value). */
export function duplicateParameter(name: string, configFile: string, value: string) {
  return (failure: DbFailure): Error | undefined =>
    failure.kind === 'unique' && failure.table === 'parameter'
      ? new BadRequestException(
          `parameter name, config_file, value '${name}, ${configFile}, ${value}' already exists.`,
        )
      : undefined;
}

@Injectable()
export class ParametersService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    @InjectRepository(Parameter) private readonly parameters: Repository<Parameter>,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async list(query: ListQuery): Promise<ParameterWithProfiles[]> {
    const rows = await getPlainMany(applyListQuery(this.parameters.createQueryBuilder('p'), query));
    const names = await this.profileNames(rows.map((p) => p.id));
    return rows.map((parameter) => ({ parameter, profiles: names.get(parameter.id) ?? [] }));
  }

  /** The parameters assigned to a profile, by name then config file (GET profiles/name/{name}/parameters). */
  forProfile(where: { profileId: number } | { profileName: string }): Promise<Parameter[]> {
    const qb = this.parameters
      .createQueryBuilder('p')
      .innerJoin('profile_parameter', 'pp', 'pp.parameter = p.id')
      .orderBy('p.name', 'ASC')
      .addOrderBy('p.config_file', 'ASC')
      .addOrderBy('p.id', 'ASC');
    if ('profileId' in where) {
      qb.where('pp.profile = :profileId', { profileId: where.profileId });
    } else {
      qb.innerJoin('profile', 'pr', 'pr.id = pp.profile').where('pr.name = :profileName', {
        profileName: where.profileName,
      });
    }
    return qb.getMany();
  }

  /** All objects in one transaction: one duplicate and nothing is written. */
  create(dtos: ParameterDto[]): Promise<Parameter[]> {
    const rows = dtos.map((dto) => this.columns(dto));
    return this.unitOfWork.run(async (manager) => {
      const ids: number[] = [];
      for (const row of rows) {
        ids.push(
          await translateDbErrors(
            () => insertRow(manager, Parameter, row),
            duplicateParameter(row.name, row.configFile, row.value),
          ),
        );
      }
      return this.byIds(manager, ids);
    });
  }

  async update(id: number, dto: ParameterDto): Promise<Parameter> {
    const row = this.columns(dto);
    const result = await translateDbErrors(
      () => this.parameters.update({ id }, row),
      duplicateParameter(row.name, row.configFile, row.value),
    );
    if (!result.affected) {
      throw new NotFoundException('no param found with this id');
    }
    return this.parameters.findOneByOrFail({ id });
  }

  /** Assignments to profiles go with the parameter (ON DELETE CASCADE), as in the original. */
  async remove(id: number): Promise<void> {
    const result = await this.parameters.delete({ id });
    if (!result.affected) {
      throw new NotFoundException('no param with that key found');
    }
  }

  /*
   * Writes other modules ask for, inside their own transaction (`manager`): the parameter table is
   * written only here (docs/architecture.md#ownership).
   */

  /**
   * Inserts the parameter, or, when the unique index says one with the same name, config file and
   * value exists, finds that one (its `secure` unchanged). No SELECT decides before the write, so
   * concurrent requests cannot both create it; a failed INSERT leaves the transaction usable on
   * MySQL and SQLite. Answers the parameter's id and whether it was new.
   */
  async insertOrFind(
    manager: EntityManager,
    item: { name: string; configFile: string; value: string; secure: boolean },
  ): Promise<{ id: number; inserted: boolean }> {
    const identity = parameterIdentity(item.name, item.configFile, item.value);
    let inserted = true;
    try {
      await insertRows(manager, Parameter, { ...item, identity });
    } catch (error) {
      if (classifyDbError(error)?.kind !== 'unique') {
        throw error;
      }
      inserted = false;
    }
    // A locking read on MySQL sees the row another transaction committed after ours began.
    const lock = lockingClause(manager.connection, 'share');
    const [row] = await manager.query<{ id: number | string }[]>(
      `SELECT id FROM parameter WHERE identity = ?${lock}`,
      [identity],
    );
    return { id: Number(row.id), inserted };
  }

  /** One parameter, read in the caller's transaction; it must exist. */
  loadIn(manager: EntityManager, id: number): Promise<Parameter> {
    return manager.getRepository(Parameter).findOneByOrFail({ id });
  }

  /** Deletes the parameters named `name` in any of `configFiles` (a deleted delivery service's own). */
  async removeNamedIn(manager: EntityManager, name: string, configFiles: string[]): Promise<void> {
    await manager.delete(Parameter, { name, configFile: In(configFiles) });
  }

  /** The parameters of one configuration file, by id (GET system/info). */
  ofConfigFile(configFile: string): Promise<Parameter[]> {
    return this.parameters.find({ where: { configFile }, order: { id: 'ASC' } });
  }

  private columns(
    dto: ParameterDto,
  ): Pick<Parameter, 'name' | 'configFile' | 'value' | 'secure' | 'identity' | 'comment'> {
    if (dto.secure === undefined) {
      // The original inserts NULL into the NOT NULL column and answers the database's complaint.
      throw new BadRequestException('secure is a required field');
    }
    const value = dto.value ?? '';
    return {
      name: dto.name,
      configFile: dto.configFile,
      value,
      secure: dto.secure,
      identity: parameterIdentity(dto.name, dto.configFile, value),
      comment: dto.comment ?? null,
    };
  }

  private async byIds(manager: EntityManager, ids: number[]): Promise<Parameter[]> {
    const rows = await manager.getRepository(Parameter).findBy(ids.map((id) => ({ id })));
    const byId = new Map(rows.map((p) => [p.id, p]));
    return ids.map((id) => byId.get(id)!);
  }

  /** Names of the profiles using each parameter, sorted. */
  private async profileNames(ids: number[]): Promise<Map<number, string[]>> {
    const names = new Map<number, string[]>();
    for (let i = 0; i < ids.length; i += ID_CHUNK) {
      const chunk = ids.slice(i, i + ID_CHUNK);
      const rows = await this.dataSource
        .createQueryBuilder()
        .select('pp.parameter', 'parameter')
        .addSelect('pr.name', 'name')
        .from('profile_parameter', 'pp')
        .innerJoin('profile', 'pr', 'pr.id = pp.profile')
        .where('pp.parameter IN (:...chunk)', { chunk })
        .orderBy('pr.name', 'ASC')
        .getRawMany<{ parameter: number | string; name: string }>();
      for (const row of rows) {
        const id = Number(row.parameter);
        names.set(id, [...(names.get(id) ?? []), row.name]);
      }
    }
    return names;
  }
}
