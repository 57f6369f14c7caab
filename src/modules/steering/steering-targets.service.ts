import { UnitOfWork } from 'src/common/database/unit-of-work';
import { insertRows } from 'src/common/database/insert-rows';
import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { type EntityManager, Repository, type SelectQueryBuilder } from 'typeorm';
import { applyListQuery, type ListQuery } from 'src/common/list-query/list-query';
import type { CurrentUser } from 'src/common/types/current-user';
import { TenancyService, withinTenancy } from 'src/modules/tenants/tenancy.service';
import { isStorableId, type SteeringTargetFields } from './dto/steering-target.body';
import type { SteeringTargetRow } from './dto/steering-target.response';
import { SteeringTarget } from './steering-target.entity';

interface ValidTarget {
  typeId: number;
  value: number;
}

/**
 * Targets of a steering delivery service (traffic_ops_golang/steeringtargets). Reads are filtered
 * by the steering delivery service's tenant; writes need it within the user's reach (403).
 */
@Injectable()
export class SteeringTargetsService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    @InjectRepository(SteeringTarget) private readonly targets: Repository<SteeringTarget>,
    private readonly tenancy: TenancyService,
  ) {}

  /** The targets of `dsId` the user may see; an unknown or unreachable delivery service has none. */
  async list(
    dsId: number,
    query: ListQuery,
    user: CurrentUser,
    targetId?: number,
  ): Promise<SteeringTargetRow[]> {
    const qb = withinTenancy(
      this.rows(this.targets.manager).where('st.deliveryservice = :dsId', { dsId }),
      'ds.tenant_id',
      user.tenantId,
    );
    if (targetId !== undefined) {
      qb.andWhere('st.target = :targetId', { targetId });
    }
    return applyListQuery(qb, query).getRawMany<SteeringTargetRow>();
  }

  /**
   * The original validates the body first (`missing typeId; missing value`, the type's table), then
   * `missing target`, then the steering delivery service (404, tenancy 403), of any type, as in the
   * original (docs/decisions.md#d120). A missing target delivery service is the foreign key's 404
   * (`deliveryservice not found`) and a duplicate the unique index's 400, both mapped centrally.
   */
  async create(dsId: number, fields: SteeringTargetFields, user: CurrentUser): Promise<SteeringTargetRow> {
    return this.unitOfWork.run(async (manager) => {
      const valid = await this.validate(manager, fields);
      if (fields.targetId === null) {
        throw new BadRequestException('missing target');
      }
      await this.steeringDeliveryService(manager, dsId, user);
      if (!isStorableId(fields.targetId)) {
        throw new NotFoundException('deliveryservice not found');
      }
      // A second target of the same pair is the unique index's 400, worded centrally:
      // `steering_target deliveryservice, target '<ds>, <target>' already exists.`
      await insertRows(manager, SteeringTarget, {
        deliveryServiceId: dsId,
        targetId: fields.targetId,
        value: valid.value,
        typeId: valid.typeId,
      });
      return this.one(manager, dsId, fields.targetId);
    });
  }

  /** Changes `value` and `typeId`; the target comes from the path (a body `targetId` is ignored). */
  async update(
    dsId: number,
    targetId: number,
    fields: SteeringTargetFields,
    user: CurrentUser,
  ): Promise<SteeringTargetRow> {
    return this.unitOfWork.run(async (manager) => {
      const valid = await this.validate(manager, fields);
      await this.steeringDeliveryService(manager, dsId, user);
      const result = await manager.update(
        SteeringTarget,
        { deliveryServiceId: dsId, targetId },
        { value: valid.value, typeId: valid.typeId },
      );
      if (!result.affected) {
        throw new NotFoundException('no steering target found with this id');
      }
      return this.one(manager, dsId, targetId);
    });
  }

  async remove(dsId: number, targetId: number, user: CurrentUser): Promise<void> {
    await this.unitOfWork.run(async (manager) => {
      await this.steeringDeliveryService(manager, dsId, user);
      const result = await manager.delete(SteeringTarget, { deliveryServiceId: dsId, targetId });
      if (!result.affected) {
        throw new NotFoundException('steering target not found');
      }
    });
  }

  /** lib/go-tc SteeringTargetNullable.Validate: every problem, joined with `; `. */
  private async validate(
    manager: EntityManager,
    fields: { typeId: number | null; value: number | null },
  ): Promise<ValidTarget> {
    const problems: string[] = [];
    if (fields.typeId === null) {
      problems.push('missing typeId');
    } else {
      const rows: { use_in_table: string | null }[] = await manager.query(
        'SELECT use_in_table FROM type WHERE id = ?',
        [fields.typeId],
      );
      if (rows.length === 0) {
        problems.push('type not found');
      } else if (rows[0].use_in_table !== 'steering_target') {
        problems.push('type is not a valid steering_target type');
      }
    }
    if (fields.value === null) {
      problems.push('missing value');
    }
    if (problems.length > 0) {
      throw new BadRequestException(problems.join('; '));
    }
    return { typeId: fields.typeId!, value: fields.value! };
  }

  /**
   * The steering delivery service, which must exist (404 `delivery service <id> not found`, as the
   * original's tenancy check words it) and be within the user's tenancy (403).
   */
  private async steeringDeliveryService(
    manager: EntityManager,
    dsId: number,
    user: CurrentUser,
  ): Promise<void> {
    const rows: { tenant_id: number | string }[] = await manager.query(
      'SELECT ds.tenant_id FROM deliveryservice ds WHERE ds.id = ?',
      [dsId],
    );
    if (rows.length === 0) {
      throw new NotFoundException(`delivery service ${dsId} not found`);
    }
    await this.tenancy.assertWithinReach(user.tenantId, Number(rows[0].tenant_id), manager);
  }

  private async one(manager: EntityManager, dsId: number, targetId: number): Promise<SteeringTargetRow> {
    const row = await this.rows(manager)
      .where('st.deliveryservice = :dsId', { dsId })
      .andWhere('st.target = :targetId', { targetId })
      .getRawOne<SteeringTargetRow>();
    if (!row) {
      throw new NotFoundException('steering target not found');
    }
    return row;
  }

  /** The original's select: the target joined with both delivery services' xmlIds and its type. */
  private rows(manager: EntityManager): SelectQueryBuilder<SteeringTarget> {
    return manager
      .createQueryBuilder(SteeringTarget, 'st')
      .innerJoin('deliveryservice', 'ds', 'ds.id = st.deliveryservice')
      .innerJoin('deliveryservice', 'dst', 'dst.id = st.target')
      .innerJoin('type', 'tp', 'tp.id = st.type')
      .select('ds.xml_id', 'deliveryService')
      .addSelect('st.deliveryservice', 'deliveryServiceId')
      .addSelect('dst.xml_id', 'target')
      .addSelect('st.target', 'targetId')
      .addSelect('tp.name', 'type')
      .addSelect('st.type', 'typeId')
      .addSelect('st.value', 'value');
  }
}
