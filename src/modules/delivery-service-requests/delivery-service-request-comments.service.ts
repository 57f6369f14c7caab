import { insertRow } from 'src/common/database/insert-rows';
import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type SelectQueryBuilder } from 'typeorm';
import { writeLock } from 'src/common/database/locks';
import { applyListQuery, type ListQuery } from 'src/common/list-query/list-query';
import { toDate } from 'src/common/time/timestamps';
import type { CurrentUser } from 'src/common/types/current-user';
import { DeliveryServiceRequestComment } from './delivery-service-request-comment.entity';
import type { CommentRow } from './dto/delivery-service-request-comment.response';

interface RawComment {
  id: number | string;
  authorId: number | string;
  author: string;
  deliveryServiceRequestId: number | string;
  value: string;
  xmlId: string;
  lastUpdated: Date | string;
}

/**
 * Comments on delivery service requests (docs/original-behaviour.md#deliveryservice-request-comments):
 * anyone who may read requests reads them all; only their author changes or deletes one. An unknown
 * request is the foreign key's 404 `deliveryservice_request not found`.
 */
/** The refusal of a change to another user's comment (the wording is the controller's, per version). */
export type NotAuthorText = (action: 'updated' | 'deleted') => string;

@Injectable()
export class DeliveryServiceRequestCommentsService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async list(query: ListQuery): Promise<CommentRow[]> {
    return (await applyListQuery(this.select(), query).getRawMany<RawComment>()).map(toRow);
  }

  async create(requestId: number, value: string, user: CurrentUser): Promise<CommentRow> {
    return this.find(
      await insertRow(this.dataSource.manager, DeliveryServiceRequestComment, {
        authorId: user.id,
        deliveryServiceRequestId: requestId,
        value,
      }),
    );
  }

  async update(id: number, requestId: number, value: string, user: CurrentUser, notAuthor: NotAuthorText) {
    await this.ownOrRefuse(
      id,
      user,
      notAuthor,
      'updated',
      'no deliveryservice_request_comment found with this id',
    );
    await this.dataSource
      .getRepository(DeliveryServiceRequestComment)
      .update({ id }, { deliveryServiceRequestId: requestId, value });
    return this.find(id);
  }

  async remove(id: number, user: CurrentUser, notAuthor: NotAuthorText): Promise<void> {
    await this.ownOrRefuse(
      id,
      user,
      notAuthor,
      'deleted',
      'no deliveryservice_request_comment with that key found',
    );
    await this.dataSource.getRepository(DeliveryServiceRequestComment).delete({ id });
  }

  /** 400 unless the user wrote the comment, in the words of `notAuthor`. */
  private async ownOrRefuse(
    id: number,
    user: CurrentUser,
    notAuthor: NotAuthorText,
    action: 'updated' | 'deleted',
    notFound: string,
  ): Promise<void> {
    const current = await this.dataSource
      .getRepository(DeliveryServiceRequestComment)
      .findOne({ where: { id }, lock: writeLock(this.dataSource) });
    if (!current) {
      throw new NotFoundException(notFound);
    }
    if (current.authorId !== user.id) {
      throw new BadRequestException(notAuthor(action));
    }
  }

  private async find(id: number): Promise<CommentRow> {
    const [row] = (await this.select().where('c.id = :id', { id }).getRawMany<RawComment>()).map(toRow);
    return row;
  }

  private select(): SelectQueryBuilder<DeliveryServiceRequestComment> {
    return this.dataSource
      .getRepository(DeliveryServiceRequestComment)
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

function toRow(raw: RawComment): CommentRow {
  return {
    id: Number(raw.id),
    authorId: Number(raw.authorId),
    author: raw.author,
    deliveryServiceRequestId: Number(raw.deliveryServiceRequestId),
    value: raw.value,
    xmlId: raw.xmlId,
    lastUpdated: toDate(raw.lastUpdated),
  };
}
