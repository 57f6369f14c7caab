import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { type DbFailure, translateDbErrors } from 'src/common/database/db-error';
import { UnitOfWork, type TransactionManager } from 'src/common/database/unit-of-work';
import type { ListQuery } from 'src/common/list-query/list-query';
import { ParameterDto } from './dto/parameter.dto';
import { type Parameter, parameterIdentity } from './parameter.entity';
import { ParametersRepository, type ParameterColumns } from './parameters.repository';

export interface ParameterWithProfiles {
  parameter: Parameter;
  profiles: string[];
}

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
    private readonly parameters: ParametersRepository,
  ) {}

  async list(query: ListQuery): Promise<ParameterWithProfiles[]> {
    const rows = await this.parameters.list(query);
    const names = await this.parameters.profileNames(rows.map((p) => p.id));
    return rows.map((parameter) => ({ parameter, profiles: names.get(parameter.id) ?? [] }));
  }

  /** The parameters assigned to a profile, by name then config file (GET profiles/name/{name}/parameters). */
  forProfile(where: { profileId: number } | { profileName: string }): Promise<Parameter[]> {
    return this.parameters.forProfile(where);
  }

  /** All objects in one transaction: one duplicate and nothing is written. */
  create(dtos: ParameterDto[]): Promise<Parameter[]> {
    const rows = dtos.map((dto) => this.columns(dto));
    return this.unitOfWork.run(async (manager) => {
      const ids: number[] = [];
      for (const row of rows) {
        ids.push(
          await translateDbErrors(
            () => this.parameters.add(manager, row),
            duplicateParameter(row.name, row.configFile, row.value),
          ),
        );
      }
      return this.parameters.byIds(manager, ids);
    });
  }

  async update(id: number, dto: ParameterDto): Promise<Parameter> {
    const row = this.columns(dto);
    const parameter = await translateDbErrors(
      () => this.parameters.change(id, row),
      duplicateParameter(row.name, row.configFile, row.value),
    );
    if (!parameter) {
      throw new NotFoundException('no param found with this id');
    }
    return parameter;
  }

  /** Assignments to profiles go with the parameter (ON DELETE CASCADE), as in the original. */
  async remove(id: number): Promise<void> {
    if (!(await this.parameters.remove(id))) {
      throw new NotFoundException('no param with that key found');
    }
  }

  /*
   * Writes other modules ask for, inside their own transaction (`manager`): the parameter table is
   * written only here (docs/architecture.md#ownership).
   */

  /**
   * Inserts the parameter, or finds the one with the same name, config file and value (its `secure`
   * unchanged): the parameter's id and whether it was new (ParametersRepository.insertOrFind).
   */
  insertOrFind(
    manager: TransactionManager,
    item: { name: string; configFile: string; value: string; secure: boolean },
  ): Promise<{ id: number; inserted: boolean }> {
    return this.parameters.insertOrFind(manager, item);
  }

  /** One parameter, read in the caller's transaction; it must exist. */
  loadIn(manager: TransactionManager, id: number): Promise<Parameter> {
    return this.parameters.loadIn(manager, id);
  }

  /** Deletes the parameters named `name` in any of `configFiles` (a deleted delivery service's own). */
  removeNamedIn(manager: TransactionManager, name: string, configFiles: string[]): Promise<void> {
    return this.parameters.removeNamedIn(manager, name, configFiles);
  }

  /** The parameters of one configuration file, by id (GET system/info). */
  ofConfigFile(configFile: string): Promise<Parameter[]> {
    return this.parameters.ofConfigFile(configFile);
  }

  private columns(dto: ParameterDto): ParameterColumns {
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
}
