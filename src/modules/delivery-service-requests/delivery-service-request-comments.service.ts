import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import type { ListQuery } from 'src/common/list-query/list-query';
import { toDate } from 'src/common/time/timestamps';
import type { CurrentUser } from 'src/common/types/current-user';
import { DeliveryServiceRequestsRepository, type RawComment } from './delivery-service-requests.repository';
import type { CommentRow } from './dto/delivery-service-request-comment.response';

/**
 * Comments on delivery service requests (docs/original-behaviour.md#deliveryservice-request-comments):
 * anyone who may read requests reads them all; only their author changes or deletes one. An unknown
 * request is the foreign key's 404 `deliveryservice_request not found`.
 */
/** The refusal of a change to another user's comment (the wording is the controller's, per version). */
export type NotAuthorText = (action: 'updated' | 'deleted') => string;

@Injectable()
export class DeliveryServiceRequestCommentsService {
  constructor(private readonly requests: DeliveryServiceRequestsRepository) {}

  async list(query: ListQuery): Promise<CommentRow[]> {
    return (await this.requests.listComments(query)).map(toRow);
  }

  async create(requestId: number, value: string, user: CurrentUser): Promise<CommentRow> {
    return this.find(
      await this.requests.addComment({
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
    await this.requests.changeComment(id, { deliveryServiceRequestId: requestId, value });
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
    await this.requests.removeComment(id);
  }

  /** 400 unless the user wrote the comment, in the words of `notAuthor`. */
  private async ownOrRefuse(
    id: number,
    user: CurrentUser,
    notAuthor: NotAuthorText,
    action: 'updated' | 'deleted',
    notFound: string,
  ): Promise<void> {
    const current = await this.requests.lockedComment(id);
    if (!current) {
      throw new NotFoundException(notFound);
    }
    if (current.authorId !== user.id) {
      throw new BadRequestException(notAuthor(action));
    }
  }

  private async find(id: number): Promise<CommentRow> {
    const [row] = [await this.requests.comment(id)].filter((raw) => raw !== undefined).map(toRow);
    return row;
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
