import { insertRowReturning } from 'src/common/database/insert-rows';
import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { type DbFailure, translateDbErrors } from 'src/common/database/db-error';
import { applyListQuery, type ListQuery } from 'src/common/list-query/list-query';
import { getPlainMany } from 'src/common/database/plain-rows';
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
   * One statement: the ASNs with their cache groups (one row each), filtered, ordered and paged in
   * SQL; the default order (the number) is the unique index's.
   */
  list(query: ListQuery): Promise<Asn[]> {
    return getPlainMany(
      applyListQuery(this.asns.createQueryBuilder('a').leftJoinAndSelect('a.cachegroup', 'c'), query),
    );
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
