import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, type EntityManager, In, Repository } from 'typeorm';
import { classifyDbError } from 'src/common/database/db-error';
import { insertRow, insertRows } from 'src/common/database/insert-rows';
import { lockingClause } from 'src/common/database/locks';
import { getPlainMany } from 'src/common/database/plain-rows';
import { applyListQuery, type ListQuery } from 'src/common/list-query/list-query';
import { Parameter, parameterIdentity } from './parameter.entity';

/** SQLite binds at most 32766 values per statement; profile names are fetched in chunks. */
const ID_CHUNK = 1000;

export type ParameterColumns = Pick<
  Parameter,
  'name' | 'configFile' | 'value' | 'secure' | 'identity' | 'comment'
>;

/**
 * The parameter table, and the profile names its list shows: the only file of the module that runs
 * SQL (docs/architecture.md#data-access). Methods taking a `manager` run in the caller's transaction.
 */
@Injectable()
export class ParametersRepository {
  constructor(
    @InjectRepository(Parameter) private readonly parameters: Repository<Parameter>,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  list(query: ListQuery): Promise<Parameter[]> {
    return getPlainMany(applyListQuery(this.parameters.createQueryBuilder('p'), query));
  }

  /** The parameters assigned to a profile, by name then config file. */
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

  /** Adds a parameter on `manager`: its id. */
  add(manager: EntityManager, columns: ParameterColumns): Promise<number> {
    return insertRow(manager, Parameter, columns);
  }

  /** The parameters of `ids`, in that order, read on `manager`. */
  async byIds(manager: EntityManager, ids: number[]): Promise<Parameter[]> {
    const rows = await manager.getRepository(Parameter).findBy(ids.map((id) => ({ id })));
    const byId = new Map(rows.map((p) => [p.id, p]));
    return ids.map((id) => byId.get(id)!);
  }

  /** Changes a parameter: it as stored afterwards, or undefined when there is none. */
  async change(id: number, columns: ParameterColumns): Promise<Parameter | undefined> {
    const result = await this.parameters.update({ id }, columns);
    return result.affected ? this.parameters.findOneByOrFail({ id }) : undefined;
  }

  /** Deletes a parameter: whether there was one. */
  async remove(id: number): Promise<boolean> {
    return Boolean((await this.parameters.delete({ id })).affected);
  }

  /**
   * Inserts the parameter on `manager`, or, when the unique index says one with the same name,
   * config file and value exists, finds that one (its `secure` unchanged). No SELECT decides before
   * the write, so concurrent requests cannot both create it; a failed INSERT leaves the transaction
   * usable on MySQL and SQLite. Answers the parameter's id and whether it was new.
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

  /** One parameter, read on `manager`; it must exist. */
  loadIn(manager: EntityManager, id: number): Promise<Parameter> {
    return manager.getRepository(Parameter).findOneByOrFail({ id });
  }

  /** Deletes, on `manager`, the parameters named `name` in any of `configFiles`. */
  async removeNamedIn(manager: EntityManager, name: string, configFiles: string[]): Promise<void> {
    await manager.delete(Parameter, { name, configFile: In(configFiles) });
  }

  /** The parameters of one configuration file, by id. */
  ofConfigFile(configFile: string): Promise<Parameter[]> {
    return this.parameters.find({ where: { configFile }, order: { id: 'ASC' } });
  }

  /** Names of the profiles using each parameter, sorted. */
  async profileNames(ids: number[]): Promise<Map<number, string[]>> {
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
