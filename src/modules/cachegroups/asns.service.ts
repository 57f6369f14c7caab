import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { type DbFailure, translateDbErrors } from 'src/common/database/db-error';
import type { ListQuery } from 'src/common/list-query/list-query';
import type { Asn } from './asn.entity';
import { CachegroupsRepository } from './cachegroups.repository';
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
  constructor(private readonly asns: CachegroupsRepository) {}

  /** The ASNs with their cache groups, in one statement. */
  list(query: ListQuery): Promise<Asn[]> {
    return this.asns.listAsns(query);
  }

  /** The new association as stored (its `last_updated`): one statement where the database can. */
  create(dto: AsnDto): Promise<Asn> {
    return translateDbErrors(
      () => this.asns.addAsn({ asn: dto.asn, cachegroupId: dto.cachegroupId }),
      duplicateNumber('an asn with the specified number already exists'),
    );
  }

  async update(id: number, dto: AsnDto): Promise<Asn> {
    const asn = await translateDbErrors(
      () => this.asns.changeAsn(id, { asn: dto.asn, cachegroupId: dto.cachegroupId }),
      duplicateNumber('another asn exists for this number'),
    );
    if (!asn) {
      throw new NotFoundException('no asn found with this id');
    }
    return asn;
  }

  async remove(id: number): Promise<void> {
    if (!(await this.asns.removeAsn(id))) {
      throw new NotFoundException('no asn with that key found');
    }
  }
}
