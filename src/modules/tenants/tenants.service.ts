import { UnitOfWork } from 'src/common/database/unit-of-work';
import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { classifyDbError } from 'src/common/database/db-error';
import type { ListQuery } from 'src/common/list-query/list-query';
import type { CurrentUser } from 'src/common/types/current-user';
import { TenantDto } from './dto/tenant.dto';
import type { TenantWithParent } from './dto/tenant.response';
import { TenancyService } from './tenancy.service';
import type { Tenant } from './tenant.entity';
import { TenantsRepository } from './tenants.repository';

export const ROOT_TENANT_IMMUTABLE = 'trying to change the root tenant, which is immutable';
export const PARENT_IS_DESCENDANT = 'parentId: cannot be the tenant itself or one of its descendants';

/** What blocks a tenant's delete, by the referencing table (docs/original-behaviour.md#tenants). */
const IN_USE_BY: Record<string, string> = {
  tenant: 'child tenants',
  tm_user: 'users',
  deliveryservice: 'deliveryservices',
};

@Injectable()
export class TenantsService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly tenants: TenantsRepository,
    private readonly tenancy: TenancyService,
  ) {}

  /** The tenants within the user's reach (docs/decisions.md#d13), filtered in SQL. */
  list(query: ListQuery, user: CurrentUser): Promise<TenantWithParent[]> {
    return this.tenants.list(query, user.tenantId);
  }

  /**
   * The insert runs first so that an unknown parent answers the foreign key's 404 and a duplicate
   * name the unique index's 400; a parent out of reach then rolls the insert back (403).
   */
  async create(dto: TenantDto, user: CurrentUser): Promise<TenantWithParent> {
    const id = await this.unitOfWork.run(async (manager) => {
      const created = await this.tenants.add(manager, this.columns(dto));
      await this.tenancy.assertWithinReach(user.tenantId, dto.parentId, manager);
      return created;
    });
    return this.findOne(id);
  }

  async update(id: number, dto: TenantDto, user: CurrentUser): Promise<TenantWithParent> {
    await this.unitOfWork.run(async (manager) => {
      const tenant = await this.tenants.byId(id, manager);
      if (!tenant) {
        throw new NotFoundException('no tenant found with this id');
      }
      if (tenant.parentId === null) {
        throw new BadRequestException(ROOT_TENANT_IMMUTABLE);
      }
      await this.tenancy.assertWithinReach(user.tenantId, id, manager);
      // Such a parent would make the tree a cycle.
      if (await this.tenants.isSelfOrDescendant(manager, id, dto.parentId)) {
        throw new BadRequestException(PARENT_IS_DESCENDANT);
      }
      await this.tenants.change(manager, id, this.columns(dto));
      await this.tenancy.assertWithinReach(user.tenantId, dto.parentId, manager);
    });
    return this.findOne(id);
  }

  /** Children, users and delivery services block the delete through their restrict foreign keys. */
  async remove(id: number, user: CurrentUser): Promise<void> {
    const tenant = await this.tenants.byId(id);
    if (!tenant) {
      throw new NotFoundException('no tenant with that key found');
    }
    if (tenant.parentId === null) {
      throw new BadRequestException(ROOT_TENANT_IMMUTABLE);
    }
    await this.tenancy.assertWithinReach(user.tenantId, id);
    try {
      await this.tenants.remove(id);
    } catch (error) {
      const failure = classifyDbError(error);
      const blocker = failure?.kind === 'inUse' ? IN_USE_BY[failure.referencingTable] : undefined;
      if (blocker) {
        throw new BadRequestException(
          `Tenant '${id}' has ${blocker}. Please update these ${blocker} and retry.`,
        );
      }
      throw error;
    }
  }

  private findOne(id: number): Promise<TenantWithParent> {
    return this.tenants.withParentById(id);
  }

  private columns(dto: TenantDto): Partial<Tenant> {
    return { name: dto.name, active: dto.active ?? false, parentId: dto.parentId };
  }
}
