import { insertRowReturning } from 'src/common/database/insert-rows';
import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { type DbFailure, translateDbErrors } from 'src/common/database/db-error';
import { type ListQuery, loadPage } from 'src/common/list-query/list-query';
import { Asn } from './asn.entity';
import { AsnDto } from './dto/asn.dto';

/** A violation of the unique index on `asn.asn`, worded as the original words it for `message`. */
const duplicateNumber =
  (message: string) =>
  (failure: DbFailure): Error | undefined =>
    failure.kind === 'unique' && failure.table === 'asn' ? new BadRequestException(message) : undefined;

/**
 * ASN associations (docs/original-behaviour.md#asns). The number's uniqueness is the unique index's, so that
 * concurrent writes of one number cannot both succeed; an unknown cache group is the foreign key's
 * 404 `cachegroup not found`.
 */
@Injectable()
export class AsnsService {
  constructor(@InjectRepository(Asn) private readonly asns: Repository<Asn>) {}

  /**
   * Paged on the ASN table alone (its unique index serves the default order), joined to the cache
   * group only where a filter or the order names it; then the page's rows with their cache groups.
   */
  list(query: ListQuery): Promise<Asn[]> {
    const namesCachegroup = [...query.filters.map((f) => f.column), query.order.column].some((c) =>
      c.startsWith('c.'),
    );
    const ids = this.asns.createQueryBuilder('a');
    if (namesCachegroup) {
      ids.leftJoin('a.cachegroup', 'c');
    }
    const rows = this.asns.createQueryBuilder('a').leftJoinAndSelect('a.cachegroup', 'c');
    return loadPage(ids, rows, query, 'a.id');
  }

  /** The new association as stored (its `last_updated`): one statement where the database can. */
  create(dto: AsnDto): Promise<Asn> {
    return translateDbErrors(
      () => insertRowReturning(this.asns.manager, Asn, { asn: dto.asn, cachegroupId: dto.cachegroupId }),
      duplicateNumber('an asn with the specified number already exists'),
    );
  }

  async update(id: number, dto: AsnDto): Promise<Asn> {
    const result = await translateDbErrors(
      () => this.asns.update({ id }, { asn: dto.asn, cachegroupId: dto.cachegroupId }),
      duplicateNumber('another asn exists for this number'),
    );
    if (!result.affected) {
      throw new NotFoundException('no asn found with this id');
    }
    return this.asns.findOneByOrFail({ id });
  }

  async remove(id: number): Promise<void> {
    const result = await this.asns.delete({ id });
    if (!result.affected) {
      throw new NotFoundException('no asn with that key found');
    }
  }
}
