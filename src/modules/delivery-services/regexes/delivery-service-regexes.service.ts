import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import type { ListQuery } from 'src/common/list-query/list-query';
import type { CurrentUser } from 'src/common/types/current-user';
import type { DeferredBody } from 'src/common/validation/valid-body';
import { TenancyService } from 'src/modules/tenants/tenancy.service';
import {
  defaultHostRegex,
  type MatchListEntry,
} from 'src/modules/delivery-services/core/delivery-service-match-list';
import { DeliveryServiceRegexDto } from './delivery-service-regex.dto';
import type { DeliveryServiceIdRegex, DeliveryServiceRegexes } from './delivery-service-regex.response';
import {
  DeliveryServiceRegexesRepository,
  HOST_REGEXP,
  type RegexRow,
} from './delivery-service-regexes.repository';
import { type TransactionManager, UnitOfWork } from 'src/common/database/unit-of-work';

export const REGEX_NOT_FOUND = 'regex not found for this delivery service';
const SAME_ORDER = 'cannot add regex, another regex with the same order exists';
const FIRST_HOST_REGEX = 'cannot change/ delete a regex with an order of 0 and type name of HOST_REGEXP';

/**
 * The regexes of delivery services (`regex`, `deliveryservice_regex`): every write to those tables,
 * the default HOST_REGEXP of a new delivery service included, and the routes of
 * docs/original-behaviour.md#deliveryservices-regexes.
 */
@Injectable()
export class DeliveryServiceRegexesService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly regexes: DeliveryServiceRegexesRepository,
    private readonly tenancy: TenancyService,
  ) {}

  /** The HOST_REGEXP every new delivery service starts with, at set number 0; answers it as listed. */
  async createDefault(manager: TransactionManager, dsId: number, xmlId: string): Promise<MatchListEntry> {
    const pattern = defaultHostRegex(xmlId);
    await this.regexes.addDefault(manager, dsId, pattern);
    return { type: HOST_REGEXP, setNumber: 0, pattern };
  }

  /** Deletes the regexes of a delivery service about to be deleted (their links cascade). */
  removeAllOf(manager: TransactionManager, dsId: number): Promise<void> {
    return this.regexes.removeAllOf(manager, dsId);
  }

  /** GET deliveryservices_regexes: the regexes of every delivery service within reach, by xmlId. */
  async listAll(user: CurrentUser): Promise<DeliveryServiceRegexes[]> {
    const rows = await this.regexes.listAll(user.tenantId);
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
    return (await this.regexes.listOf(dsId, query, user.tenantId)).map(toIdRegex);
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
      const regexId = await this.regexes.add(manager, dsId, {
        pattern: input.pattern,
        typeId: input.type,
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
      await this.regexes.change(manager, dsId, regexId, {
        pattern: input.pattern,
        typeId: input.type,
        setNumber: input.setNumber,
      });
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
      const count = await this.regexes.count(manager, dsId);
      if (count < 2) {
        throw new BadRequestException('a delivery service must have at least one regex');
      }
      await this.regexes.remove(manager, dsId, regexId);
      return current;
    });
  }

  /**
   * The delivery service, locked so that concurrent regex writes on it are serialized (the set-number
   * rule reads before it writes): missing → 404 `Not Found`, out of reach → 403.
   */
  private async lockDeliveryService(
    manager: TransactionManager,
    dsId: number,
    user: CurrentUser,
  ): Promise<void> {
    const ds = await this.regexes.lockedDeliveryService(manager, dsId);
    if (!ds) {
      throw new NotFoundException('Not Found');
    }
    await this.tenancy.assertWithinReach(user.tenantId, ds.tenantId, manager);
  }

  private async current(
    manager: TransactionManager,
    dsId: number,
    regexId: number,
  ): Promise<DeliveryServiceIdRegex> {
    const row = await this.regexes.one(manager, dsId, regexId);
    if (!row) {
      throw new NotFoundException(REGEX_NOT_FOUND);
    }
    return toIdRegex(row);
  }

  private async load(
    manager: TransactionManager,
    dsId: number,
    regexId: number,
  ): Promise<DeliveryServiceIdRegex> {
    return this.current(manager, dsId, regexId);
  }

  /**
   * The original's rules, in the order of the body's fields (docs/decisions.md#d7): a negative set
   * number alone; then the type, the set number (free among the delivery service's other regexes,
   * docs/decisions.md#d51) and the pattern.
   */
  private async validate(
    manager: TransactionManager,
    dsId: number,
    dto: DeliveryServiceRegexDto,
    regexId: number | undefined,
  ): Promise<{ type: number; setNumber: number; pattern: string }> {
    const input = { type: dto.type ?? 0, setNumber: dto.setNumber ?? 0, pattern: dto.pattern ?? '' };
    if (input.setNumber < 0) {
      throw new BadRequestException('cannot add regex with order < 0');
    }
    const errors: string[] = [];
    const type = await this.regexes.type(manager, input.type);
    if (!type) {
      errors.push("'type' type not found");
    } else if (type.useInTable !== 'regex') {
      errors.push("'type' type is not a valid regex type");
    }
    if (regexId !== undefined && type?.name === HOST_REGEXP && input.setNumber === 0) {
      errors.push("'setNumber' cannot update regex with set number 0 and type HOST_REGEXP");
    } else {
      if (await this.regexes.setNumberTaken(manager, dsId, input.setNumber, regexId)) {
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
