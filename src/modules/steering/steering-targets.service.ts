import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { UnitOfWork, type TransactionManager } from 'src/common/database/unit-of-work';
import type { ListQuery } from 'src/common/list-query/list-query';
import type { CurrentUser } from 'src/common/types/current-user';
import { TenancyService } from 'src/modules/tenants/tenancy.service';
import { isStorableId, type SteeringTargetFields } from './dto/steering-target.dto';
import type { SteeringTargetRow } from './dto/steering-target.response';
import { SteeringRepository } from './steering.repository';

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
    private readonly targets: SteeringRepository,
    private readonly tenancy: TenancyService,
  ) {}

  /** The targets of `dsId` the user may see; an unknown or unreachable delivery service has none. */
  async list(
    dsId: number,
    query: ListQuery,
    user: CurrentUser,
    targetId?: number,
  ): Promise<SteeringTargetRow[]> {
    return this.targets.list(dsId, query, user.tenantId, targetId);
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
      await this.targets.add(manager, {
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
      if (
        !(await this.targets.change(manager, dsId, targetId, { value: valid.value, typeId: valid.typeId }))
      ) {
        throw new NotFoundException('no steering target found with this id');
      }
      return this.one(manager, dsId, targetId);
    });
  }

  async remove(dsId: number, targetId: number, user: CurrentUser): Promise<void> {
    await this.unitOfWork.run(async (manager) => {
      await this.steeringDeliveryService(manager, dsId, user);
      if (!(await this.targets.remove(manager, dsId, targetId))) {
        throw new NotFoundException('steering target not found');
      }
    });
  }

  /** lib/go-tc SteeringTargetNullable.Validate: every problem, joined with `; `. */
  private async validate(
    manager: TransactionManager,
    fields: { typeId: number | null; value: number | null },
  ): Promise<ValidTarget> {
    const problems: string[] = [];
    if (fields.typeId === null) {
      problems.push('missing typeId');
    } else {
      const type = await this.targets.typeTable(manager, fields.typeId);
      if (!type) {
        problems.push('type not found');
      } else if (type.useInTable !== 'steering_target') {
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
    manager: TransactionManager,
    dsId: number,
    user: CurrentUser,
  ): Promise<void> {
    const tenantId = await this.targets.deliveryServiceTenant(manager, dsId);
    if (tenantId === undefined) {
      throw new NotFoundException(`delivery service ${dsId} not found`);
    }
    await this.tenancy.assertWithinReach(user.tenantId, tenantId, manager);
  }

  private async one(manager: TransactionManager, dsId: number, targetId: number): Promise<SteeringTargetRow> {
    const row = await this.targets.one(manager, dsId, targetId);
    if (!row) {
      throw new NotFoundException('steering target not found');
    }
    return row;
  }
}
