import { insertRow, insertRows } from 'src/common/database/insert-rows';
import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager, EntityNotFoundError, In } from 'typeorm';
import { translateDbErrors } from 'src/common/database/db-error';
import { writeLock } from 'src/common/database/locks';
import { applyListQuery, type ListQuery } from 'src/common/list-query/list-query';
import type { CurrentUser } from 'src/common/types/current-user';
import type { DeferredBody } from 'src/common/validation/valid-body';
import { TenancyService } from 'src/modules/tenants/tenancy.service';
import { withinTenancy } from 'src/modules/tenants/tenants.repository';
import { Type } from 'src/modules/types/type.entity';
import { DeliveryServiceRegex } from './delivery-service-regex.entity';
import { DeliveryService } from 'src/modules/delivery-services/delivery-service.entity';
import {
  defaultHostRegex,
  type MatchListEntry,
} from 'src/modules/delivery-services/core/delivery-service-match-list';
import { DeliveryServiceRegexDto } from './delivery-service-regex.dto';
import type { DeliveryServiceIdRegex, DeliveryServiceRegexes } from './delivery-service-regex.response';
import { Regex } from './regex.entity';
import { UnitOfWork } from 'src/common/database/unit-of-work';

const HOST_REGEXP = 'HOST_REGEXP';
/** The id of the HOST_REGEXP type, as an SQL expression (NULL without the type). */
const HOST_REGEXP_ID = `(SELECT t.id FROM type t WHERE t.name = '${HOST_REGEXP}')`;
export const REGEX_NOT_FOUND = 'regex not found for this delivery service';
const SAME_ORDER = 'cannot add regex, another regex with the same order exists';
const FIRST_HOST_REGEX = 'cannot change/ delete a regex with an order of 0 and type name of HOST_REGEXP';

interface RegexRow {
  id: number | string;
  pattern: string;
  setNumber: number | string | null;
  typeId: number | string;
  typeName: string;
}

interface DsRegexRow {
  xmlId: string;
  setNumber: number | string | null;
  pattern: string;
  typeName: string;
}

/**
 * The regexes of delivery services (`regex`, `deliveryservice_regex`): every write to those tables,
 * the default HOST_REGEXP of a new delivery service included, and the routes of
 * docs/original-behaviour.md#deliveryservices-regexes.
 */
@Injectable()
export class DeliveryServiceRegexesService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly tenancy: TenancyService,
  ) {}

  /** The HOST_REGEXP every new delivery service starts with, at set number 0; answers it as listed. */
  async createDefault(manager: EntityManager, dsId: number, xmlId: string): Promise<MatchListEntry> {
    const pattern = defaultHostRegex(xmlId);
    // The INSERT looks the type up itself (one statement, not two); without the type it fails as the
    // lookup on its own would.
    const regexId = await translateDbErrors(
      () => insertRow(manager, Regex, { pattern, typeId: () => HOST_REGEXP_ID }),
      (failure) =>
        failure.kind === 'notNull' && failure.column === 'type'
          ? new EntityNotFoundError(Type, { name: HOST_REGEXP })
          : undefined,
    );
    await insertRows(manager, DeliveryServiceRegex, { deliveryServiceId: dsId, regexId, setNumber: 0 });
    return { type: HOST_REGEXP, setNumber: 0, pattern };
  }

  /** Deletes the regexes of a delivery service about to be deleted (their links cascade). */
  async removeAllOf(manager: EntityManager, dsId: number): Promise<void> {
    const links = await manager.find(DeliveryServiceRegex, { where: { deliveryServiceId: dsId } });
    if (links.length > 0) {
      await manager.delete(Regex, { id: In(links.map((l) => l.regexId)) });
    }
  }

  /** GET deliveryservices_regexes: the regexes of every delivery service within reach, by xmlId. */
  async listAll(user: CurrentUser): Promise<DeliveryServiceRegexes[]> {
    const qb = this.dataSource
      .createQueryBuilder()
      .select('ds.xml_id', 'xmlId')
      .addSelect('dsr.set_number', 'setNumber')
      .addSelect('r.pattern', 'pattern')
      .addSelect('rt.name', 'typeName')
      .from('deliveryservice_regex', 'dsr')
      .innerJoin('deliveryservice', 'ds', 'ds.id = dsr.deliveryservice')
      .innerJoin('regex', 'r', 'r.id = dsr.regex')
      .innerJoin('type', 'rt', 'rt.id = r.type')
      .orderBy('ds.xml_id', 'ASC')
      .addOrderBy('dsr.set_number', 'ASC')
      .addOrderBy('r.id', 'ASC');
    const rows = await withinTenancy(qb, 'ds.tenant_id', user.tenantId).getRawMany<DsRegexRow>();
    const byDs = new Map<string, DeliveryServiceRegexes>();
    for (const row of rows) {
      let entry = byDs.get(row.xmlId);
      if (!entry) {
        entry = { dsName: row.xmlId, regexes: [] };
        byDs.set(row.xmlId, entry);
      }
      entry.regexes.push({ type: row.typeName, setNumber: Number(row.setNumber ?? 0), pattern: row.pattern });
    }
    return [...byDs.values()];
  }

  /** GET deliveryservices/{id}/regexes: empty for a delivery service missing or out of reach. */
  async listOf(dsId: number, query: ListQuery, user: CurrentUser): Promise<DeliveryServiceIdRegex[]> {
    const qb = this.regexQuery(this.dataSource.manager).where('dsr.deliveryservice = :dsId', { dsId });
    withinTenancy(qb, 'ds.tenant_id', user.tenantId);
    applyListQuery(qb, query);
    qb.orderBy('dsr.set_number', 'ASC').addOrderBy('r.id', 'ASC');
    return (await qb.getRawMany<RegexRow>()).map(toIdRegex);
  }

  async create(
    dsId: number,
    body: DeferredBody<DeliveryServiceRegexDto>,
    user: CurrentUser,
  ): Promise<DeliveryServiceIdRegex> {
    return this.unitOfWork.run(async (manager) => {
      await this.lockDeliveryService(manager, dsId, user);
      const dto = await body.read();
      const input = await this.validate(manager, dsId, dto, undefined);
      const regexId = await insertRow(manager, Regex, { pattern: input.pattern, typeId: input.type });
      await insertRows(manager, DeliveryServiceRegex, {
        deliveryServiceId: dsId,
        regexId,
        setNumber: input.setNumber,
      });
      return this.load(manager, dsId, regexId);
    });
  }

  async update(
    dsId: number,
    regexId: number,
    body: DeferredBody<DeliveryServiceRegexDto>,
    user: CurrentUser,
  ): Promise<DeliveryServiceIdRegex> {
    return this.unitOfWork.run(async (manager) => {
      await this.lockDeliveryService(manager, dsId, user);
      const dto = await body.read();
      const current = await this.current(manager, dsId, regexId);
      if (current.setNumber === 0 && current.typeName === HOST_REGEXP) {
        throw new BadRequestException(FIRST_HOST_REGEX);
      }
      const input = await this.validate(manager, dsId, dto, regexId);
      await manager.update(Regex, { id: regexId }, { pattern: input.pattern, typeId: input.type });
      await manager.update(
        DeliveryServiceRegex,
        { deliveryServiceId: dsId, regexId },
        { setNumber: input.setNumber },
      );
      return this.load(manager, dsId, regexId);
    });
  }

  /** DELETE …/regexes/{rid}: the link and the regex itself (it belongs to this delivery service only). */
  async remove(dsId: number, regexId: number, user: CurrentUser): Promise<DeliveryServiceIdRegex> {
    return this.unitOfWork.run(async (manager) => {
      await this.lockDeliveryService(manager, dsId, user);
      const current = await this.current(manager, dsId, regexId);
      if (current.setNumber === 0 && current.typeName === HOST_REGEXP) {
        throw new BadRequestException(`cannot delete regex: ${FIRST_HOST_REGEX}`);
      }
      const count = await manager.count(DeliveryServiceRegex, { where: { deliveryServiceId: dsId } });
      if (count < 2) {
        throw new BadRequestException('a delivery service must have at least one regex');
      }
      await manager.delete(DeliveryServiceRegex, { deliveryServiceId: dsId, regexId });
      await manager.delete(Regex, { id: regexId });
      return current;
    });
  }

  /**
   * The delivery service, locked so that concurrent regex writes on it are serialized (the set-number
   * rule reads before it writes): missing → 404 `Not Found`, out of reach → 403.
   */
  private async lockDeliveryService(manager: EntityManager, dsId: number, user: CurrentUser): Promise<void> {
    const ds = await manager.findOne(DeliveryService, {
      select: { id: true, tenantId: true },
      where: { id: dsId },
      lock: writeLock(this.dataSource),
    });
    if (!ds) {
      throw new NotFoundException('Not Found');
    }
    await this.tenancy.assertWithinReach(user.tenantId, ds.tenantId, manager);
  }

  private async current(
    manager: EntityManager,
    dsId: number,
    regexId: number,
  ): Promise<DeliveryServiceIdRegex> {
    const row = await this.regexQuery(manager)
      .where('dsr.deliveryservice = :dsId AND r.id = :regexId', { dsId, regexId })
      .getRawOne<RegexRow>();
    if (!row) {
      throw new NotFoundException(REGEX_NOT_FOUND);
    }
    return toIdRegex(row);
  }

  private async load(manager: EntityManager, dsId: number, regexId: number): Promise<DeliveryServiceIdRegex> {
    return this.current(manager, dsId, regexId);
  }

  /**
   * The original's rules, in the order of the body's fields (docs/decisions.md#d7): a negative set
   * number alone; then the type, the set number (free among the delivery service's other regexes,
   * docs/decisions.md#d51) and the pattern.
   */
  private async validate(
    manager: EntityManager,
    dsId: number,
    dto: DeliveryServiceRegexDto,
    regexId: number | undefined,
  ): Promise<{ type: number; setNumber: number; pattern: string }> {
    const input = { type: dto.type ?? 0, setNumber: dto.setNumber ?? 0, pattern: dto.pattern ?? '' };
    if (input.setNumber < 0) {
      throw new BadRequestException('cannot add regex with order < 0');
    }
    const errors: string[] = [];
    const type = await manager.findOne(Type, { where: { id: input.type } });
    if (!type) {
      errors.push("'type' type not found");
    } else if (type.useInTable !== 'regex') {
      errors.push("'type' type is not a valid regex type");
    }
    if (regexId !== undefined && type?.name === HOST_REGEXP && input.setNumber === 0) {
      errors.push("'setNumber' cannot update regex with set number 0 and type HOST_REGEXP");
    } else {
      const qb = manager
        .createQueryBuilder()
        .select('dsr.id', 'id')
        .from('deliveryservice_regex', 'dsr')
        .where('dsr.deliveryservice = :dsId AND dsr.set_number = :setNumber', {
          dsId,
          setNumber: input.setNumber,
        });
      if (regexId !== undefined) {
        qb.andWhere('dsr.regex <> :regexId', { regexId });
      }
      if ((await qb.limit(1).getRawMany()).length > 0) {
        errors.push(`'setNumber' ${SAME_ORDER}`);
      }
    }
    if (input.pattern === '') {
      errors.push("'pattern' cannot be blank");
    }
    if (errors.length > 0) {
      throw new BadRequestException(errors.join(', '));
    }
    return input;
  }

  private regexQuery(manager: EntityManager) {
    return manager
      .createQueryBuilder()
      .select('r.id', 'id')
      .addSelect('r.pattern', 'pattern')
      .addSelect('dsr.set_number', 'setNumber')
      .addSelect('rt.id', 'typeId')
      .addSelect('rt.name', 'typeName')
      .from('deliveryservice_regex', 'dsr')
      .innerJoin('deliveryservice', 'ds', 'ds.id = dsr.deliveryservice')
      .innerJoin('regex', 'r', 'r.id = dsr.regex')
      .innerJoin('type', 'rt', 'rt.id = r.type');
  }
}

function toIdRegex(row: RegexRow): DeliveryServiceIdRegex {
  return {
    id: Number(row.id),
    type: Number(row.typeId),
    typeName: row.typeName,
    setNumber: Number(row.setNumber ?? 0),
    pattern: row.pattern,
  };
}
