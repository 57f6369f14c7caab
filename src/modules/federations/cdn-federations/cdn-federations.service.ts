import { insertRow } from 'src/common/database/insert-rows';
import { ForbiddenException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { applyListQuery, type ListQuery } from 'src/common/list-query/list-query';
import { toDate } from 'src/common/time/timestamps';
import type { CurrentUser } from 'src/common/types/current-user';
import { NOT_AUTHORIZED_ON_TENANT } from 'src/modules/tenants/tenancy.service';
import { tenantCondition, withinTenancy } from 'src/modules/tenants/tenants.repository';
import { CdnFederationDto } from './cdn-federation.dto';
import type { CdnFederationRow } from './cdn-federation.response';
import { Federation } from 'src/modules/federations/federation.entity';
import { UnitOfWork } from 'src/common/database/unit-of-work';

interface RawCdnFederationRow extends Omit<CdnFederationRow, 'lastUpdated'> {
  lastUpdated: Date | string;
}

/**
 * Federations by CDN (`cdns/{name}/federations`, docs/original-behaviour.md#cdn-federations). A federation
 * belongs to a CDN only through the delivery services assigned to it, so the list joins them; the path's
 * CDN is checked to exist on every route, as the original does, but writes do not tie the federation to it.
 */
@Injectable()
export class CdnFederationsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  /**
   * One entry per (federation, delivery service of the CDN), filtered silently to the delivery
   * services within the user's tenancy (docs/decisions.md#d13).
   */
  async list(cdnName: string, query: ListQuery, user: CurrentUser): Promise<CdnFederationRow[]> {
    const cdnId = await this.cdnIdOf(this.dataSource.manager, cdnName);
    const qb = this.dataSource
      .createQueryBuilder()
      .select('federation.id', 'id')
      .addSelect('federation.cname', 'cname')
      .addSelect('federation.ttl', 'ttl')
      .addSelect('federation.description', 'description')
      .addSelect('federation.last_updated', 'lastUpdated')
      .addSelect('ds.id', 'dsId')
      .addSelect('ds.xml_id', 'xmlId')
      .from('federation', 'federation')
      .innerJoin('federation_deliveryservice', 'fd', 'fd.federation = federation.id')
      .innerJoin('deliveryservice', 'ds', 'ds.id = fd.deliveryservice')
      .where('ds.cdn_id = :cdnId', { cdnId });
    const rows = await applyListQuery(withinTenancy(qb, 'ds.tenant_id', user.tenantId), query)
      .addOrderBy('ds.id', 'ASC')
      .getRawMany<RawCdnFederationRow>();
    return rows.map((row) => ({
      id: Number(row.id),
      cname: row.cname,
      ttl: Number(row.ttl),
      description: row.description,
      lastUpdated: toDate(row.lastUpdated),
      dsId: Number(row.dsId),
      xmlId: row.xmlId,
    }));
  }

  async create(cdnName: string, dto: CdnFederationDto): Promise<Federation> {
    return this.unitOfWork.run(async (manager) => {
      await this.cdnIdOf(manager, cdnName);
      const id = await insertRow(manager, Federation, {
        cname: dto.cname,
        ttl: dto.ttl,
        description: dto.description ?? null,
      });
      return manager.findOneByOrFail(Federation, { id });
    });
  }

  async update(cdnName: string, id: number, dto: CdnFederationDto, user: CurrentUser): Promise<Federation> {
    return this.unitOfWork.run(async (manager) => {
      await this.assertTenancy(manager, id, user);
      await this.cdnIdOf(manager, cdnName);
      const result = await manager.update(
        Federation,
        { id },
        { cname: dto.cname, ttl: dto.ttl, description: dto.description ?? null },
      );
      if (!result.affected) {
        throw new NotFoundException('no cdnfederation found with this id');
      }
      return manager.findOneByOrFail(Federation, { id });
    });
  }

  /** Deleting a federation removes its assignments and resolver links (cascades). */
  async remove(cdnName: string, id: number, user: CurrentUser): Promise<void> {
    await this.unitOfWork.run(async (manager) => {
      await this.assertTenancy(manager, id, user);
      await this.cdnIdOf(manager, cdnName);
      const result = await manager.delete(Federation, { id });
      if (!result.affected) {
        throw new NotFoundException('no cdnfederation with that key found');
      }
    });
  }

  private async cdnIdOf(manager: EntityManager, cdnName: string): Promise<number> {
    const rows = await manager.query<{ id: number | string }[]>('SELECT id FROM cdn WHERE name = ?', [
      cdnName,
    ]);
    if (rows.length === 0) {
      throw new NotFoundException('cdn not found');
    }
    return Number(rows[0].id);
  }

  /**
   * A federation with no delivery service is anyone's; otherwise every delivery service it is assigned
   * to must be within the user's tenancy (403 `not authorized on this tenant`, docs/decisions.md#d13).
   */
  private async assertTenancy(manager: EntityManager, id: number, user: CurrentUser): Promise<void> {
    const outsideReach = tenantCondition('ds.tenant_id', user.tenantId, true);
    const outside = await manager
      .createQueryBuilder()
      .select('1', 'outside')
      .from('federation_deliveryservice', 'fd')
      .innerJoin('deliveryservice', 'ds', 'ds.id = fd.deliveryservice')
      .where('fd.federation = :id', { id })
      .andWhere(outsideReach.sql, outsideReach.parameters)
      .limit(1)
      .getRawMany();
    if (outside.length > 0) {
      throw new ForbiddenException(NOT_AUTHORIZED_ON_TENANT);
    }
  }
}
