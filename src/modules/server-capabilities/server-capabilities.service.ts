import { insertRows } from 'src/common/database/insert-rows';
import { getPlainMany } from 'src/common/database/plain-rows';
import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import type { DataSource, Repository } from 'typeorm';
import { translateDbErrors } from 'src/common/database/db-error';
import { writeLock } from 'src/common/database/locks';
import { applyListQuery, type ListQuery } from 'src/common/list-query/list-query';
import type { ApiVersion } from 'src/common/versioning/api-version';
import { ServerCapabilityDto } from './dto/server-capability.dto';
import { ServerCapability } from './server-capability.entity';
import { runSql } from './sql';

/** The original's text for a taken name (its PostgreSQL unique-violation text). */
const taken = (name: string): BadRequestException =>
  new BadRequestException(`server_capability name '${name}' already exists.`);

/**
 * Server capabilities (docs/original-behaviour.md#server-capabilities). A capability still given to
 * a server or required by a delivery service cannot be deleted (the foreign keys refuse it);
 * renaming one renames it everywhere (ON UPDATE CASCADE).
 */
@Injectable()
export class ServerCapabilitiesService {
  constructor(
    @InjectRepository(ServerCapability) private readonly capabilities: Repository<ServerCapability>,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  list(query: ListQuery): Promise<ServerCapability[]> {
    return getPlainMany(applyListQuery(this.capabilities.createQueryBuilder('sc'), query));
  }

  /** A taken name is refused by the primary key. Before 4.1 a description is not read (`''`). */
  async create(version: ApiVersion, dto: ServerCapabilityDto): Promise<ServerCapability> {
    const description = version.atLeast('4.1') ? (dto.description ?? '') : '';
    await translateDbErrors(
      () => insertRows(this.capabilities.manager, this.capabilities.target, { name: dto.name, description }),
      (failure) => (failure.kind === 'unique' ? taken(dto.name) : undefined),
    );
    return this.capabilities.findOneByOrFail({ name: dto.name });
  }

  /**
   * PUT server_capabilities?name=: renames the capability named by the query to the body's name.
   * Before 4.1 (the original's generic handler) only the name changes: no key → `missing key: name`,
   * no such capability → `cannot find exactly one …`. From 4.1 on the description is written too
   * and a missing capability is `server capability with name: <new name> not found`.
   */
  async update(
    version: ApiVersion,
    key: string | undefined,
    dto: ServerCapabilityDto,
  ): Promise<ServerCapability> {
    const current = version.atLeast('4.1');
    if (!current && !key) {
      throw new BadRequestException('missing key: name');
    }
    const existing = key
      ? await this.capabilities.findOne({ where: { name: key }, lock: writeLock(this.dataSource) })
      : null;
    if (!existing) {
      throw new BadRequestException(
        current
          ? `server capability with name: ${dto.name} not found`
          : 'cannot find exactly one server capability with the query string provided',
      );
    }
    const changes = current ? { name: dto.name, description: dto.description ?? '' } : { name: dto.name };
    await translateDbErrors(
      () => this.capabilities.update({ name: existing.name }, changes),
      (failure) => (failure.kind === 'unique' ? taken(dto.name) : undefined),
    );
    return this.capabilities.findOneByOrFail({ name: dto.name });
  }

  /**
   * DELETE server_capabilities?name=. Before 5.0 (the generic handler): no key → `missing key:
   * name`, none deleted → 404. On 5.0: an unknown name is a 404 naming it (an empty one a 400) and a
   * capability given to servers is refused with their number. Either way, one still referenced is
   * refused by the foreign keys (`cannot delete server_capability because it is being used by …`).
   */
  async remove(version: ApiVersion, name: string | undefined): Promise<void> {
    if (!version.atLeast('5.0')) {
      if (!name) {
        throw new BadRequestException('missing key: name');
      }
      const result = await this.capabilities.delete({ name });
      if (!result.affected) {
        throw new NotFoundException('no server capability with that key found');
      }
      return;
    }
    const existing = name
      ? await this.capabilities.findOne({ where: { name }, lock: writeLock(this.dataSource) })
      : null;
    if (!existing) {
      if (name) {
        throw new NotFoundException(`no server capability exists by name: ${name}`);
      }
      throw new BadRequestException('no server capability exists for empty name: ');
    }
    const [{ count }] = await runSql<{ count: number | string }>(
      this.dataSource,
      'SELECT COUNT(*) AS count FROM server_server_capability WHERE server_capability = :name',
      { name: existing.name },
    );
    if (Number(count) > 0) {
      throw new BadRequestException(
        `can not delete a server capability with ${Number(count)} assigned servers`,
      );
    }
    await this.capabilities.delete({ name: existing.name });
  }
}
