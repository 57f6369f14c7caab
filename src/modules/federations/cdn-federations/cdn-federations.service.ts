import { ForbiddenException, Injectable, NotFoundException } from '@nestjs/common';
import { type TransactionManager, UnitOfWork } from 'src/common/database/unit-of-work';
import type { ListQuery } from 'src/common/list-query/list-query';
import type { CurrentUser } from 'src/common/types/current-user';
import type { Federation } from 'src/modules/federations/federation.entity';
import { NOT_AUTHORIZED_ON_TENANT } from 'src/modules/tenants/tenancy.service';
import { CdnFederationDto } from './cdn-federation.dto';
import type { CdnFederationRow } from './cdn-federation.response';
import { CdnFederationsRepository } from './cdn-federations.repository';

/**
 * Federations by CDN (`cdns/{name}/federations`, docs/original-behaviour.md#cdn-federations). A federation
 * belongs to a CDN only through the delivery services assigned to it, so the list joins them; the path's
 * CDN is checked to exist on every route, as the original does, but writes do not tie the federation to it.
 */
@Injectable()
export class CdnFederationsService {
  constructor(
    private readonly federations: CdnFederationsRepository,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  /**
   * One entry per (federation, delivery service of the CDN), filtered silently to the delivery
   * services within the user's tenancy (docs/decisions.md#d13).
   */
  async list(cdnName: string, query: ListQuery, user: CurrentUser): Promise<CdnFederationRow[]> {
    const cdnId = await this.cdnIdOf(cdnName);
    return this.federations.list(cdnId, query, user.tenantId);
  }

  async create(cdnName: string, dto: CdnFederationDto): Promise<Federation> {
    return this.unitOfWork.run(async (manager) => {
      await this.cdnIdOf(cdnName, manager);
      return this.federations.add(manager, {
        cname: dto.cname,
        ttl: dto.ttl,
        description: dto.description ?? null,
      });
    });
  }

  async update(cdnName: string, id: number, dto: CdnFederationDto, user: CurrentUser): Promise<Federation> {
    return this.unitOfWork.run(async (manager) => {
      await this.assertTenancy(manager, id, user);
      await this.cdnIdOf(cdnName, manager);
      const federation = await this.federations.change(manager, id, {
        cname: dto.cname,
        ttl: dto.ttl,
        description: dto.description ?? null,
      });
      if (!federation) {
        throw new NotFoundException('no cdnfederation found with this id');
      }
      return federation;
    });
  }

  /** Deleting a federation removes its assignments and resolver links (cascades). */
  async remove(cdnName: string, id: number, user: CurrentUser): Promise<void> {
    await this.unitOfWork.run(async (manager) => {
      await this.assertTenancy(manager, id, user);
      await this.cdnIdOf(cdnName, manager);
      if (!(await this.federations.remove(manager, id))) {
        throw new NotFoundException('no cdnfederation with that key found');
      }
    });
  }

  private async cdnIdOf(cdnName: string, manager?: TransactionManager): Promise<number> {
    const id = await this.federations.cdnId(cdnName, manager);
    if (id === undefined) {
      throw new NotFoundException('cdn not found');
    }
    return id;
  }

  /**
   * A federation with no delivery service is anyone's; otherwise every delivery service it is assigned
   * to must be within the user's tenancy (403 `not authorized on this tenant`, docs/decisions.md#d13).
   */
  private async assertTenancy(manager: TransactionManager, id: number, user: CurrentUser): Promise<void> {
    if (await this.federations.assignedOutside(manager, id, user.tenantId)) {
      throw new ForbiddenException(NOT_AUTHORIZED_ON_TENANT);
    }
  }
}
