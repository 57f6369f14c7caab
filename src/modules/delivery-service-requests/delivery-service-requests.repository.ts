import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository, type SelectQueryBuilder } from 'typeorm';
import { insertRow } from 'src/common/database/insert-rows';
import { writeLock } from 'src/common/database/locks';
import { applyListQuery, type ListQuery } from 'src/common/list-query/list-query';
import { withinTenancy } from 'src/modules/tenants/tenants.repository';
import { DeliveryServiceRequestComment } from './delivery-service-request-comment.entity';
import { DeliveryServiceRequest } from './delivery-service-request.entity';
import type { RawRequest } from './delivery-service-request-rules';

/** A comment as read: with its author's name and its request's XML id. */
export interface RawComment {
  id: number | string;
  authorId: number | string;
  author: string;
  deliveryServiceRequestId: number | string;
  value: string;
  xmlId: string;
  lastUpdated: Date | string;
}

/** The columns a request is written with. */
export type RequestColumns = Partial<
  Pick<
    DeliveryServiceRequest,
    | 'assigneeId'
    | 'authorId'
    | 'changeType'
    | 'lastEditedById'
    | 'requested'
    | 'original'
    | 'status'
    | 'xmlId'
    | 'tenantId'
  >
>;

/** The columns a comment is written with. */
export type CommentColumns = Partial<
  Pick<DeliveryServiceRequestComment, 'authorId' | 'deliveryServiceRequestId' | 'value'>
>;

/**
 * The deliveryservice_request and deliveryservice_request_comment tables: the only file of the module
 * that runs SQL (docs/architecture.md#data-access). The users' names are read joins of tm_user.
 */
@Injectable()
export class DeliveryServiceRequestsRepository {
  constructor(
    @InjectRepository(DeliveryServiceRequest)
    private readonly requests: Repository<DeliveryServiceRequest>,
    @InjectRepository(DeliveryServiceRequestComment)
    private readonly comments: Repository<DeliveryServiceRequestComment>,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /** The page of requests within the tenant's reach a list query asks for. */
  list(query: ListQuery, tenantId: number): Promise<RawRequest[]> {
    const qb = withinTenancy(this.selectRequests(), 'r.tenant_id', tenantId);
    return applyListQuery(qb, query).getRawMany<RawRequest>();
  }

  /** The request `id` as listed, or undefined. */
  async byId(id: number): Promise<RawRequest | undefined> {
    const [row] = await this.selectRequests().where('r.id = :id', { id }).getRawMany<RawRequest>();
    return row;
  }

  /** The request `id`, locked for a change (`lock`) or not, or undefined. */
  async lockedById(id: number, lock = true): Promise<DeliveryServiceRequest | undefined> {
    const row = await this.requests.findOne({
      where: { id },
      lock: lock ? writeLock(this.dataSource) : undefined,
    });
    return row ?? undefined;
  }

  /** Whether an open request about an existing delivery service names the XML id. */
  async openExists(xmlId: string): Promise<boolean> {
    const open = await this.dataSource.query<unknown[]>(
      `SELECT 1 FROM deliveryservice_request WHERE status <> 'complete' AND status <> 'rejected' ` +
        'AND deliveryservice IS NOT NULL AND xml_id = ?',
      [xmlId],
    );
    return open.length > 0;
  }

  /** The status of request `id`, or undefined without one. */
  async statusOf(id: number): Promise<string | undefined> {
    const rows = await this.dataSource.query<{ status: string }[]>(
      'SELECT status FROM deliveryservice_request WHERE id = ?',
      [id],
    );
    return rows[0]?.status;
  }

  /** Adds a request: its id. */
  add(columns: RequestColumns): Promise<number> {
    return insertRow(this.requests.manager, DeliveryServiceRequest, columns);
  }

  async change(id: number, columns: RequestColumns): Promise<void> {
    await this.requests.update({ id }, columns);
  }

  async remove(id: number): Promise<void> {
    await this.requests.delete({ id });
  }

  /** The name of user `id`, or undefined. */
  async usernameOf(id: number): Promise<string | undefined> {
    const rows = await this.dataSource.query<{ username: string }[]>(
      'SELECT username FROM tm_user WHERE id = ?',
      [id],
    );
    return rows[0]?.username;
  }

  /** The id of the user named `username`, or undefined. */
  async userIdOf(username: string): Promise<number | undefined> {
    const rows = await this.dataSource.query<{ id: number | string }[]>(
      'SELECT id FROM tm_user WHERE username = ?',
      [username],
    );
    return rows.length === 0 ? undefined : Number(rows[0].id);
  }

  /** The page of comments a list query asks for. */
  listComments(query: ListQuery): Promise<RawComment[]> {
    return applyListQuery(this.selectComments(), query).getRawMany<RawComment>();
  }

  /** The comment `id` as listed, or undefined. */
  async comment(id: number): Promise<RawComment | undefined> {
    const [row] = await this.selectComments().where('c.id = :id', { id }).getRawMany<RawComment>();
    return row;
  }

  /** The comment `id`, locked for a change, or undefined. */
  async lockedComment(id: number): Promise<DeliveryServiceRequestComment | undefined> {
    const row = await this.comments.findOne({ where: { id }, lock: writeLock(this.dataSource) });
    return row ?? undefined;
  }

  /** Adds a comment: its id. */
  addComment(columns: CommentColumns): Promise<number> {
    return insertRow(this.comments.manager, DeliveryServiceRequestComment, columns);
  }

  async changeComment(id: number, columns: CommentColumns): Promise<void> {
    await this.comments.update({ id }, columns);
  }

  async removeComment(id: number): Promise<void> {
    await this.comments.delete({ id });
  }

  private selectRequests(): SelectQueryBuilder<DeliveryServiceRequest> {
    return this.requests
      .createQueryBuilder('r')
      .innerJoin('tm_user', 'a', 'a.id = r.author_id')
      .leftJoin('tm_user', 's', 's.id = r.assignee_id')
      .leftJoin('tm_user', 'e', 'e.id = r.last_edited_by_id')
      .select([
        'r.id AS id',
        's.username AS assignee',
        'r.assignee_id AS assigneeId',
        'a.username AS author',
        'e.username AS lastEditedBy',
        'r.change_type AS changeType',
        'r.status AS status',
        'r.created_at AS createdAt',
        'r.last_updated AS lastUpdated',
        'r.deliveryservice AS requested',
        'r.original AS original',
      ]);
  }

  private selectComments(): SelectQueryBuilder<DeliveryServiceRequestComment> {
    return this.comments
      .createQueryBuilder('c')
      .innerJoin('tm_user', 'a', 'a.id = c.author_id')
      .innerJoin('deliveryservice_request', 'r', 'r.id = c.deliveryservice_request_id')
      .select([
        'c.id AS id',
        'c.author_id AS authorId',
        'a.username AS author',
        'c.deliveryservice_request_id AS deliveryServiceRequestId',
        'c.value AS value',
        'r.xml_id AS xmlId',
        'c.last_updated AS lastUpdated',
      ]);
  }
}
