import { Injectable, NotFoundException } from '@nestjs/common';
import type { ListQuery } from 'src/common/list-query/list-query';
import type { CurrentUser } from 'src/common/types/current-user';
import { CdnLocksService } from 'src/modules/cdn-locks/cdn-locks.service';
import type { Cdn } from './cdn.entity';
import { CdnsRepository, type CdnColumns } from './cdns.repository';

/**
 * A CDN as the service takes it, whatever the version: `ttlOverride` is undefined where the
 * request's version has no such field (before 4.1), and then left as it is.
 */
export interface CdnInput {
  name: string;
  domainName: string;
  dnssecEnabled?: boolean;
  ttlOverride?: number | null;
}

@Injectable()
export class CdnsService {
  constructor(
    private readonly cdns: CdnsRepository,
    private readonly locks: CdnLocksService,
  ) {}

  list(query: ListQuery): Promise<Cdn[]> {
    return this.cdns.list(query);
  }

  /** Uniqueness of name and domain is the database's (400 `cdn name '…' already exists.`). */
  create(input: CdnInput): Promise<Cdn> {
    return this.cdns.add(this.columns(input));
  }

  /** Another user's hard lock on the CDN refuses the write (403, docs/original-behaviour.md#cdn-locks). */
  async update(id: number, input: CdnInput, user: CurrentUser): Promise<Cdn> {
    await this.locks.assertCanModifyCdn(id, user);
    const cdn = await this.cdns.change(id, this.columns(input));
    if (!cdn) {
      throw new NotFoundException('no cdn found with this id');
    }
    return cdn;
  }

  /** A CDN still used by servers, profiles or delivery services is refused by the database (400). */
  async remove(id: number, user: CurrentUser): Promise<void> {
    await this.locks.assertCanModifyCdn(id, user);
    if (!(await this.cdns.remove(id))) {
      throw new NotFoundException('no cdn with that key found');
    }
  }

  private columns(input: CdnInput): CdnColumns {
    return {
      name: input.name,
      domainName: input.domainName.toLowerCase(),
      dnssecEnabled: input.dnssecEnabled ?? false,
      ...(input.ttlOverride === undefined ? {} : { ttlOverride: input.ttlOverride }),
    };
  }
}
