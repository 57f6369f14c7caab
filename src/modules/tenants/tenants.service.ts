import { UnitOfWork } from 'src/common/database/unit-of-work';
import { insertRow } from 'src/common/database/insert-rows';
import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { type EntityManager, Repository } from 'typeorm';
import { classifyDbError } from 'src/common/database/db-error';
import { applyListQuery, type ListQuery } from 'src/common/list-query/list-query';
import type { CurrentUser } from 'src/common/types/current-user';
import { TenantDto } from './dto/tenant.dto';
import type { TenantWithParent } from './dto/tenant.response';
import { TenancyService, withinTenancy } from './tenancy.service';
import { Tenant } from './tenant.entity';

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
    @InjectRepository(Tenant) private readonly tenants: Repository<Tenant>,
    private readonly tenancy: TenancyService,
  ) {}

  /** The tenants within the user's reach (docs/decisions.md#d13), filtered in SQL. */
  list(query: ListQuery, user: CurrentUser): Promise<TenantWithParent[]> {
    const qb = withinTenancy(this.withParent(this.tenants.manager), 'tenant.id', user.tenantId);
    return applyListQuery(qb, query).getMany();
  }

  /**
   * The insert runs first so that an unknown parent answers the foreign key's 404 and a duplicate
   * name the unique index's 400; a parent out of reach then rolls the insert back (403).
   */
  async create(dto: TenantDto, user: CurrentUser): Promise<TenantWithParent> {
    const id = await this.unitOfWork.run(async (manager) => {
      const created = await insertRow(manager, Tenant, this.columns(dto));
      await this.tenancy.assertWithinReach(user.tenantId, dto.parentId, manager);
      return created;
    });
    return this.findOne(id);
  }

  async update(id: number, dto: TenantDto, user: CurrentUser): Promise<TenantWithParent> {
    await this.unitOfWork.run(async (manager) => {
      const tenant = await manager.findOneBy(Tenant, { id });
      if (!tenant) {
        throw new NotFoundException('no tenant found with this id');
      }
      if (tenant.parentId === null) {
        throw new BadRequestException(ROOT_TENANT_IMMUTABLE);
      }
      await this.tenancy.assertWithinReach(user.tenantId, id, manager);
      if (await this.isSelfOrDescendant(manager, id, dto.parentId)) {
        throw new BadRequestException(PARENT_IS_DESCENDANT);
      }
      await manager.update(Tenant, { id }, this.columns(dto));
      await this.tenancy.assertWithinReach(user.tenantId, dto.parentId, manager);
    });
    return this.findOne(id);
  }

  /** Children, users and delivery services block the delete through their restrict foreign keys. */
  async remove(id: number, user: CurrentUser): Promise<void> {
    const tenant = await this.tenants.findOneBy({ id });
    if (!tenant) {
      throw new NotFoundException('no tenant with that key found');
    }
    if (tenant.parentId === null) {
      throw new BadRequestException(ROOT_TENANT_IMMUTABLE);
    }
    await this.tenancy.assertWithinReach(user.tenantId, id);
    try {
      await this.tenants.delete({ id });
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
    return this.withParent(this.tenants.manager).where('tenant.id = :id', { id }).getOneOrFail();
  }

  private withParent(manager: EntityManager) {
    return manager
      .createQueryBuilder(Tenant, 'tenant')
      .leftJoinAndMapOne('tenant.parent', Tenant, 'parent', 'parent.id = tenant.parent_id');
  }

  /** Whether `candidate` is `id` or below it: such a parent would make the tree a cycle. */
  private async isSelfOrDescendant(manager: EntityManager, id: number, candidate: number): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      'WITH RECURSIVE below(id) AS (SELECT id FROM tenant WHERE id = ? ' +
        'UNION SELECT t.id FROM tenant t JOIN below b ON t.parent_id = b.id) ' +
        'SELECT 1 AS found FROM below WHERE id = ?',
      [id, candidate],
    );
    return rows.length > 0;
  }

  private columns(dto: TenantDto): Partial<Tenant> {
    return { name: dto.name, active: dto.active ?? false, parentId: dto.parentId };
  }
}
