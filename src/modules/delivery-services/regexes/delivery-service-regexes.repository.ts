import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityNotFoundError, In } from 'typeorm';
import { translateDbErrors } from 'src/common/database/db-error';
import { insertRow, insertRows } from 'src/common/database/insert-rows';
import { writeLock } from 'src/common/database/locks';
import type { TransactionManager } from 'src/common/database/unit-of-work';
import { applyListQuery, type ListQuery } from 'src/common/list-query/list-query';
import { withinTenancy } from 'src/modules/tenants/tenants.repository';
import { Type } from 'src/modules/types/type.entity';
import { DeliveryService } from 'src/modules/delivery-services/delivery-service.entity';
import { DeliveryServiceRegex } from './delivery-service-regex.entity';
import { Regex } from './regex.entity';

export const HOST_REGEXP = 'HOST_REGEXP';
/** The id of the HOST_REGEXP type, as an SQL expression (NULL without the type). */
const HOST_REGEXP_ID = `(SELECT t.id FROM type t WHERE t.name = '${HOST_REGEXP}')`;

/** A regex of a delivery service as read, with its set number and type. */
export interface RegexRow {
  id: number | string;
  pattern: string;
  setNumber: number | string | null;
  typeId: number | string;
  typeName: string;
}

/** A regex of GET deliveryservices_regexes: with its delivery service's XML id. */
export interface DsRegexRow {
  xmlId: string;
  setNumber: number | string | null;
  pattern: string;
  typeName: string;
}

/** A regex's columns as the routes write them. */
export interface RegexColumns {
  pattern: string;
  typeId: number;
  setNumber: number;
}

/**
 * The regex and deliveryservice_regex tables: the only file of the folder that runs SQL
 * (docs/architecture.md#data-access). Writes take the caller's TransactionManager.
 */
@Injectable()
export class DeliveryServiceRegexesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Adds the HOST_REGEXP `pattern` at set number 0 to delivery service `dsId`. The INSERT looks the
   * type up itself (one statement, not two); without the type it fails as the lookup on its own would.
   */
  async addDefault(manager: TransactionManager, dsId: number, pattern: string): Promise<void> {
    const regexId = await translateDbErrors(
      () => insertRow(manager, Regex, { pattern, typeId: () => HOST_REGEXP_ID }),
      (failure) =>
        failure.kind === 'notNull' && failure.column === 'type'
          ? new EntityNotFoundError(Type, { name: HOST_REGEXP })
          : undefined,
    );
    await insertRows(manager, DeliveryServiceRegex, { deliveryServiceId: dsId, regexId, setNumber: 0 });
  }

  /** Deletes the regexes of a delivery service (their links cascade). */
  async removeAllOf(manager: TransactionManager, dsId: number): Promise<void> {
    const links = await manager.find(DeliveryServiceRegex, { where: { deliveryServiceId: dsId } });
    if (links.length > 0) {
      await manager.delete(Regex, { id: In(links.map((l) => l.regexId)) });
    }
  }

  /** The regexes of every delivery service within the tenant's reach, by XML id, set number and id. */
  listAll(tenantId: number): Promise<DsRegexRow[]> {
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
    return withinTenancy(qb, 'ds.tenant_id', tenantId).getRawMany<DsRegexRow>();
  }

  /** The regexes of delivery service `dsId` within the tenant's reach that a list query asks for. */
  listOf(dsId: number, query: ListQuery, tenantId: number): Promise<RegexRow[]> {
    const qb = this.regexQuery(this.dataSource.manager).where('dsr.deliveryservice = :dsId', { dsId });
    withinTenancy(qb, 'ds.tenant_id', tenantId);
    applyListQuery(qb, query);
    qb.orderBy('dsr.set_number', 'ASC').addOrderBy('r.id', 'ASC');
    return qb.getRawMany<RegexRow>();
  }

  /** Regex `regexId` of delivery service `dsId`, or undefined. */
  one(manager: TransactionManager, dsId: number, regexId: number): Promise<RegexRow | undefined> {
    return this.regexQuery(manager)
      .where('dsr.deliveryservice = :dsId AND r.id = :regexId', { dsId, regexId })
      .getRawOne<RegexRow>();
  }

  /**
   * The tenant of delivery service `dsId`, its row locked so that concurrent regex writes on it are
   * serialized; undefined when there is none.
   */
  async lockedDeliveryService(
    manager: TransactionManager,
    dsId: number,
  ): Promise<{ tenantId: number } | undefined> {
    const ds = await manager.findOne(DeliveryService, {
      select: { id: true, tenantId: true },
      where: { id: dsId },
      lock: writeLock(this.dataSource),
    });
    return ds ?? undefined;
  }

  /** The type `id`, or undefined. */
  async type(manager: TransactionManager, id: number): Promise<Type | undefined> {
    return (await manager.findOne(Type, { where: { id } })) ?? undefined;
  }

  /** Whether another regex of delivery service `dsId` than `regexId` has the set number. */
  async setNumberTaken(
    manager: TransactionManager,
    dsId: number,
    setNumber: number,
    regexId: number | undefined,
  ): Promise<boolean> {
    const qb = manager
      .createQueryBuilder()
      .select('dsr.id', 'id')
      .from('deliveryservice_regex', 'dsr')
      .where('dsr.deliveryservice = :dsId AND dsr.set_number = :setNumber', { dsId, setNumber });
    if (regexId !== undefined) {
      qb.andWhere('dsr.regex <> :regexId', { regexId });
    }
    return (await qb.limit(1).getRawMany()).length > 0;
  }

  /** How many regexes delivery service `dsId` has. */
  count(manager: TransactionManager, dsId: number): Promise<number> {
    return manager.count(DeliveryServiceRegex, { where: { deliveryServiceId: dsId } });
  }

  /** Adds a regex to delivery service `dsId`: its id. */
  async add(manager: TransactionManager, dsId: number, columns: RegexColumns): Promise<number> {
    const regexId = await insertRow(manager, Regex, { pattern: columns.pattern, typeId: columns.typeId });
    await insertRows(manager, DeliveryServiceRegex, {
      deliveryServiceId: dsId,
      regexId,
      setNumber: columns.setNumber,
    });
    return regexId;
  }

  async change(
    manager: TransactionManager,
    dsId: number,
    regexId: number,
    columns: RegexColumns,
  ): Promise<void> {
    await manager.update(Regex, { id: regexId }, { pattern: columns.pattern, typeId: columns.typeId });
    await manager.update(
      DeliveryServiceRegex,
      { deliveryServiceId: dsId, regexId },
      { setNumber: columns.setNumber },
    );
  }

  /** Deletes the link and the regex itself (it belongs to this delivery service only). */
  async remove(manager: TransactionManager, dsId: number, regexId: number): Promise<void> {
    await manager.delete(DeliveryServiceRegex, { deliveryServiceId: dsId, regexId });
    await manager.delete(Regex, { id: regexId });
  }

  private regexQuery(manager: TransactionManager) {
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
