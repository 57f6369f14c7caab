import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { insertRow } from 'src/common/database/insert-rows';
import { getPlainMany } from 'src/common/database/plain-rows';
import { applyListQuery, type ListQuery } from 'src/common/list-query/list-query';
import { Cdn } from './cdn.entity';

/** The columns a CDN is written with. */
export type CdnColumns = Pick<Cdn, 'name' | 'domainName' | 'dnssecEnabled'> &
  Partial<Pick<Cdn, 'ttlOverride'>>;

/** The cdn table: the only file of the module that runs SQL (docs/architecture.md#data-access). */
@Injectable()
export class CdnsRepository {
  constructor(@InjectRepository(Cdn) private readonly cdns: Repository<Cdn>) {}

  /** The page of CDNs a list query asks for, as plain rows. */
  list(query: ListQuery): Promise<Cdn[]> {
    return getPlainMany(applyListQuery(this.cdns.createQueryBuilder('cdn'), query));
  }

  /** Adds a CDN and answers it as stored. */
  async add(columns: CdnColumns): Promise<Cdn> {
    const id = await insertRow(this.cdns.manager, this.cdns.target, columns);
    return this.cdns.findOneByOrFail({ id });
  }

  /** Changes a CDN: its row as stored afterwards, or undefined when there is no such CDN. */
  async change(id: number, columns: CdnColumns): Promise<Cdn | undefined> {
    const result = await this.cdns.update({ id }, columns);
    return result.affected ? this.cdns.findOneByOrFail({ id }) : undefined;
  }

  /** Deletes a CDN: whether there was one. */
  async remove(id: number): Promise<boolean> {
    const result = await this.cdns.delete({ id });
    return Boolean(result.affected);
  }
}
