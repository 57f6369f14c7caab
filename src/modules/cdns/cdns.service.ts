import { insertRow } from 'src/common/database/insert-rows';
import { getPlainMany } from 'src/common/database/plain-rows';
import { Injectable, NotFoundException } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { applyListQuery, type ListQuery } from 'src/common/list-query/list-query';
import type { ApiVersion } from 'src/common/versioning/api-version';
import type { CurrentUser } from 'src/common/types/current-user';
import { CdnLocksService } from 'src/modules/cdn-locks/cdn-locks.service';
import { Cdn } from './cdn.entity';
import { CdnDto } from './dto/cdn.dto';

@Injectable()
export class CdnsService {
  constructor(
    @InjectRepository(Cdn) private readonly cdns: Repository<Cdn>,
    private readonly locks: CdnLocksService,
  ) {}

  list(query: ListQuery): Promise<Cdn[]> {
    return getPlainMany(applyListQuery(this.cdns.createQueryBuilder('cdn'), query));
  }

  /** Uniqueness of name and domain is the database's (400 `cdn name '…' already exists.`). */
  async create(dto: CdnDto, version: ApiVersion): Promise<Cdn> {
    const id = await insertRow(this.cdns.manager, this.cdns.target, this.columns(dto, version));
    return this.cdns.findOneByOrFail({ id });
  }

  /** Another user's hard lock on the CDN refuses the write (403, docs/original-behaviour.md#cdn-locks). */
  async update(id: number, dto: CdnDto, version: ApiVersion, user: CurrentUser): Promise<Cdn> {
    await this.locks.assertCanModifyCdn(id, user);
    const result = await this.cdns.update({ id }, this.columns(dto, version));
    if (!result.affected) {
      throw new NotFoundException('no cdn found with this id');
    }
    return this.cdns.findOneByOrFail({ id });
  }

  /** A CDN still used by servers, profiles or delivery services is refused by the database (400). */
  async remove(id: number, user: CurrentUser): Promise<void> {
    await this.locks.assertCanModifyCdn(id, user);
    const result = await this.cdns.delete({ id });
    if (!result.affected) {
      throw new NotFoundException('no cdn with that key found');
    }
  }

  private columns(dto: CdnDto, version: ApiVersion): Partial<Cdn> {
    return {
      name: dto.name,
      domainName: dto.domainName.toLowerCase(),
      dnssecEnabled: dto.dnssecEnabled ?? false,
      ...(version.atLeast('4.1') ? { ttlOverride: dto.ttlOverride ?? null } : {}),
    };
  }
}
