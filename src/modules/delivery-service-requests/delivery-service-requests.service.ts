import { BadRequestException, ForbiddenException, Injectable, NotFoundException } from '@nestjs/common';
import type { ListQuery } from 'src/common/list-query/list-query';
import type { CurrentUser } from 'src/common/types/current-user';
import { DeliveryServicesService } from 'src/modules/delivery-services/core/delivery-services.service';
import { LONG_DESC_REMOVED } from 'src/modules/delivery-services/core/delivery-service-checks';
import type { DeliveryServiceBody } from 'src/modules/delivery-services/core/delivery-service.dto';
import type { DeliveryServiceWrite } from 'src/modules/delivery-services/core/delivery-service.input';
import type {
  DeliveryServiceView,
  DeliveryServiceWire,
} from 'src/modules/delivery-services/core/delivery-service.response';
import { NOT_AUTHORIZED_ON_TENANT, TenancyService } from 'src/modules/tenants/tenancy.service';
import type { DeliveryServiceRequest } from './delivery-service-request.entity';
import {
  DeliveryServiceRequestsRepository,
  type RequestColumns,
} from './delivery-service-requests.repository';
import type { AssignmentBody, DeliveryServiceRequestBody } from './dto/delivery-service-request.dto';
import type { DeliveryServiceRequestRow } from './dto/delivery-service-request.response';
import {
  hasLongDesc12,
  isOpen,
  type Json,
  liveId,
  numberOf,
  parse,
  tenantOf,
  toRow,
  transitionProblem,
  xmlIdOf,
} from './delivery-service-request-rules';

/**
 * How the request's API version writes and shows a delivery service (the controller's choice): a
 * requested body as a version-free write, and a delivery service in the version's shape, which a
 * request answers and a closed request keeps as its `original`.
 */
export interface DeliveryServiceShape {
  write(body: DeliveryServiceBody): DeliveryServiceWrite;
  show(view: DeliveryServiceView): DeliveryServiceWire;
}

/**
 * Delivery service requests (docs/original-behaviour.md#deliveryservice-requests), 4.0 and later.
 * The delivery services are the delivery-services module's: its validation judges a requested one,
 * its views and wire mapper give the original of an open `update` or `delete` request.
 */
@Injectable()
export class DeliveryServiceRequestsService {
  constructor(
    private readonly requests: DeliveryServiceRequestsRepository,
    private readonly deliveryServices: DeliveryServicesService,
    private readonly tenancy: TenancyService,
  ) {}

  async list(
    query: ListQuery,
    user: CurrentUser,
    shape: DeliveryServiceShape,
  ): Promise<DeliveryServiceRequestRow[]> {
    const rows = (await this.requests.list(query, user.tenantId)).map(toRow);
    await this.withLiveOriginals(rows, shape);
    return rows;
  }

  async create(body: DeliveryServiceRequestBody, user: CurrentUser, shape: DeliveryServiceShape) {
    const assigneeId = await this.validate(body, shape, 'draft');
    if (body.status !== 'draft' && body.status !== 'submitted') {
      throw new BadRequestException(
        `invalid initial request status '${body.status}' - must be 'draft' or 'submitted'`,
      );
    }
    const { requested, original } = this.kept(body);
    await this.assertReach(user, body.changeType, requested, original);
    const xmlId = xmlIdOf(body.changeType, requested, original);
    if (await this.requests.openExists(xmlId)) {
      throw new BadRequestException(`an open Delivery Service Request for XMLID '${xmlId}' already exists`);
    }
    const id = await this.requests.add({
      assigneeId,
      authorId: user.id,
      changeType: body.changeType,
      lastEditedById: user.id,
      requested: requested ? JSON.stringify(requested) : null,
      original: original ? JSON.stringify(original) : null,
      status: body.status,
      xmlId,
      tenantId: tenantOf(body.changeType, requested, original),
    });
    return this.answerWritten(id, shape, xmlId);
  }

  async update(id: number, body: DeliveryServiceRequestBody, user: CurrentUser, shape: DeliveryServiceShape) {
    const current = await this.current(id, `no such Delivery Service Request: #${id}`);
    await this.assertReach(user, current.changeType, parse(current.requested), parse(current.original));
    if (!isOpen(current.status)) {
      throw new BadRequestException(`cannot change DeliveryServiceRequest in '${current.status}' status`);
    }
    const assigneeId = await this.validate(body, shape, await this.statusOf(body.id));
    if (body.status !== 'draft' && body.status !== 'submitted') {
      throw new BadRequestException(`cannot change DeliveryServiceRequest status to '${body.status}'`);
    }
    const { requested, original } = this.kept(body);
    await this.assertReach(user, body.changeType, requested, original);
    // As the original's update (requests exist from 4.0): the long description's second and third fields are gone.
    if ([body.original, body.requested].some(hasLongDesc12)) {
      throw new BadRequestException(LONG_DESC_REMOVED);
    }
    const xmlId = xmlIdOf(body.changeType, requested, original);
    await this.requests.change(id, {
      assigneeId,
      changeType: body.changeType,
      lastEditedById: user.id,
      requested: requested ? JSON.stringify(requested) : null,
      original: original ? JSON.stringify(original) : null,
      status: body.status,
      xmlId,
      tenantId: tenantOf(body.changeType, requested, original),
    });
    return this.answerWritten(id, shape, xmlId);
  }

  async remove(
    id: number,
    user: CurrentUser,
    shape: DeliveryServiceShape,
  ): Promise<DeliveryServiceRequestRow> {
    const current = await this.current(id, `no such Delivery Service Request: #${id}`);
    await this.assertReach(user, current.changeType, parse(current.requested), parse(current.original));
    const row = await this.row(id);
    await this.requests.remove(id);
    await this.withLiveOriginals([row], shape);
    return row;
  }

  /** GET …/assign and …/status: the request, within reach. */
  async get(id: number, user: CurrentUser): Promise<DeliveryServiceRequestRow> {
    const current = await this.current(id, `no such Delivery Service Request: ${id}`, false);
    await this.assertReach(user, current.changeType, parse(current.requested), parse(current.original));
    return this.row(id);
  }

  async assign(id: number, body: AssignmentBody, user: CurrentUser, shape: DeliveryServiceShape) {
    const current = await this.current(id, `no such Delivery Service Request: ${id}`);
    await this.assertReach(user, current.changeType, parse(current.requested), parse(current.original));
    let assigneeId: number | null = null;
    let message = `Unassigned '${current.xmlId}' Delivery Service Request`;
    if (body.assigneeId !== undefined && body.assigneeId !== null) {
      const username = await this.requests.usernameOf(body.assigneeId);
      if (username === undefined) {
        throw new BadRequestException(`no such user #${body.assigneeId}`);
      }
      assigneeId = body.assigneeId;
      message = `Changed assignee of '${current.xmlId}' Delivery Service Request to '${username}'`;
    } else if (body.assignee !== undefined && body.assignee !== null) {
      const found = await this.requests.userIdOf(body.assignee);
      if (found === undefined) {
        throw new BadRequestException(`no such user '${body.assignee}'`);
      }
      assigneeId = found;
      message = `Changed assignee of '${current.xmlId}' Delivery Service Request to '${body.assignee}'`;
    }
    await this.requests.change(id, { assigneeId });
    return { row: await this.answerWritten(id, shape, current.xmlId), message };
  }

  /**
   * Moves the request along the workflow. Closing an `update` or `delete` request keeps the
   * delivery service as it is then as its `original`.
   */
  async changeStatus(id: number, status: string, user: CurrentUser, shape: DeliveryServiceShape) {
    const current = await this.current(id, `no such Delivery Service Request: ${id}`);
    const problem = transitionProblem(current.status, status);
    if (problem) {
      throw new BadRequestException(problem);
    }
    await this.assertReach(user, current.changeType, parse(current.requested), parse(current.original));
    const changes: RequestColumns = { status, lastEditedById: user.id };
    if (
      isOpen(current.status) &&
      status !== 'draft' &&
      status !== 'submitted' &&
      current.changeType !== 'create'
    ) {
      const id = liveId(current.changeType, parse(current.requested), parse(current.original));
      const [view] = id === undefined ? [] : await this.deliveryServices.viewsOf({ ids: [id] });
      if (view) {
        changes.original = JSON.stringify(shape.show(view));
      }
    }
    await this.requests.change(id, changes);
    const row = await this.row(id);
    await this.withLiveOriginals([row], shape);
    return {
      row,
      message: `Changed status of '${current.xmlId}' Delivery Service Request from '${current.status}' to '${status}'`,
    };
  }

  /** The original's validation (`validateV5`): every problem, keyed by field, in one 400. */
  private async validate(body: DeliveryServiceRequestBody, shape: DeliveryServiceShape, fromStatus: string) {
    const problems: Record<string, string> = {};
    let assigneeId: number | null = null;
    if (body.assignee !== undefined && body.assignee !== null) {
      const id = await this.requests.userIdOf(body.assignee);
      if (id === undefined) {
        problems.assignee = `no such user '${body.assignee}'`;
      } else {
        assigneeId = id;
      }
    }
    if (body.changeType === '') {
      problems.changeType = 'cannot be blank';
    }
    if (body.changeType === 'delete') {
      if (!body.original) {
        problems.original = "required for changeType='delete'";
      } else if (numberOf(body.original.json.id) === undefined) {
        problems.original = 'must be identified (specify ID)';
      }
    }
    if (body.changeType === 'create' || body.changeType === 'update') {
      if (!body.requested) {
        problems.requested = `required for changeType='${body.changeType}'`;
      } else {
        const problem = await this.deliveryServices.requestProblems(
          shape.write(body.requested.body),
          body.changeType === 'create',
        );
        if (problem) {
          problems.requested = problem;
        }
      }
    }
    const transition = transitionProblem(fromStatus, body.status);
    if (transition) {
      problems.status = transition;
    }
    const keys = Object.keys(problems).sort();
    if (keys.length > 0) {
      throw new BadRequestException(`${keys.map((k) => `${k}: ${problems[k]}`).join('; ')}.`);
    }
    return assigneeId;
  }

  /** `requested` for create and update, `original` for delete, as the original keeps them. */
  private kept(body: DeliveryServiceRequestBody): { requested: Json | null; original: Json | null } {
    return body.changeType === 'delete'
      ? { requested: null, original: body.original?.json ?? null }
      : { requested: body.requested?.json ?? null, original: null };
  }

  /** The original's `isTenantAuthorized`: the requested delivery service's tenant, then the original's. */
  private async assertReach(
    user: CurrentUser,
    changeType: string,
    requested: Json | null,
    original: Json | null,
  ) {
    const tenants: (number | undefined)[] = [];
    if (requested && (changeType === 'update' || changeType === 'create')) {
      tenants.push(numberOf(requested.tenantId) ?? 0);
    }
    if (original && changeType !== 'create') {
      tenants.push(numberOf(original.tenantId) ?? 0);
    }
    for (const tenantId of tenants) {
      if (!(await this.tenancy.isWithinReach(user.tenantId, tenantId!))) {
        throw new ForbiddenException(NOT_AUTHORIZED_ON_TENANT);
      }
    }
  }

  private async current(id: number, notFound: string, lock = true): Promise<DeliveryServiceRequest> {
    const row = await this.requests.lockedById(id, lock);
    if (!row) {
      throw new NotFoundException(notFound);
    }
    return row;
  }

  private async statusOf(id: number | undefined): Promise<string> {
    if (id === undefined || id <= 0) {
      return 'draft';
    }
    return (await this.requests.statusOf(id)) ?? 'draft';
  }

  /** The request `id` as listed (it exists: just read or written in this request). */
  private async row(id: number): Promise<DeliveryServiceRequestRow> {
    const [row] = [await this.requests.byId(id)].filter((raw) => raw !== undefined).map(toRow);
    return row;
  }

  /** The written request; an `update` request shows the delivery service it would change, which must exist. */
  private async answerWritten(
    id: number,
    shape: DeliveryServiceShape,
    xmlId: string,
  ): Promise<DeliveryServiceRequestRow> {
    const row = await this.row(id);
    if (row.changeType === 'update') {
      const [view] = await this.deliveryServices.viewsOf({ xmlId });
      if (!view) {
        throw new BadRequestException(`cannot update non-existent Delivery Service '${xmlId}'`);
      }
      row.original = shape.show(view);
    }
    return row;
  }

  /** Open `update` and `delete` requests show their delivery service as it is now. */
  private async withLiveOriginals(
    rows: DeliveryServiceRequestRow[],
    shape: DeliveryServiceShape,
  ): Promise<void> {
    const wanted = new Map<number, DeliveryServiceRequestRow[]>();
    for (const row of rows) {
      if (!isOpen(row.status) || row.changeType === 'create') {
        continue;
      }
      const id = liveId(row.changeType, row.requested, row.original);
      if (id !== undefined) {
        wanted.set(id, [...(wanted.get(id) ?? []), row]);
      }
    }
    const views = await this.deliveryServices.viewsOf({ ids: [...wanted.keys()] });
    for (const view of views) {
      for (const row of wanted.get(view.ds.id) ?? []) {
        row.original = shape.show(view);
      }
    }
  }
}
