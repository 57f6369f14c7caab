import { Controller, Delete, Get, HttpCode, Post, Put } from '@nestjs/common';
import { ConditionalOn } from 'src/common/conditional/conditional.decorator';
import { RequestedVersion } from 'src/common/decorators/api-version.decorator';
import { PrivLevel, RequirePermissions, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { CurrentUser } from 'src/common/decorators/current-user.decorator';
import { ApiResult, successAlert } from 'src/common/http/alerts';
import { ListParams, type ListQuery } from 'src/common/list-query/list-query';
import { ValidBody } from 'src/common/validation/valid-body';
import { ALL_VERSIONS, type ApiVersion } from 'src/common/versioning/api-version';
import { perVersion } from 'src/common/versioning/per-version';
import { COMMENT_LIST } from './delivery-service-request-comments.list';
import {
  DeliveryServiceRequestCommentsService,
  type NotAuthorText,
} from './delivery-service-request-comments.service';
import {
  COMMENT_BODIES,
  DeliveryServiceRequestCommentV3Dto,
  DeliveryServiceRequestCommentV5Dto,
} from './dto/delivery-service-request-comment.dto';
import { toCommentResponse } from './dto/delivery-service-request-comment.response';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { IntKey, intRule } from 'src/common/request-input/param-rules';
import { ValidQuery } from 'src/common/request-input/request-input';
import { WireTimes } from 'src/common/wire/wire-times';

/** `Comments can only be … by the author`, lower case on 5.0. */
const NOT_AUTHOR = perVersion<NotAuthorText>({
  '3.0': (action) => `Comments can only be ${action} by the author`,
  '5.0': (action) => `comments can only be ${action} by the author`,
});

/**
 * The `?id=` of a comment's update or delete: the generic handlers' texts before 5.0; on 5.0 the
 * hand-written ones, whose non-integer text differs between update and delete.
 */
const UPDATE_ID = { '3.0': IntKey(), '5.0': intRule('commentUpdate') };
const DELETE_ID = { '3.0': IntKey(), '5.0': intRule('commentDelete') };

/** `deliveryservice_request_comments` (docs/original-behaviour.md#deliveryservice-request-comments). */
@ConditionalOn('deliveryservice_request_comment')
@Controller({ path: 'deliveryservice_request_comments', version: ALL_VERSIONS })
@WireTimes({ rfc3339From: '5.0' })
@ApiTags('delivery service request comments')
export class DeliveryServiceRequestCommentsController {
  constructor(private readonly comments: DeliveryServiceRequestCommentsService) {}

  @Get()
  @ApiOperation({ summary: 'List the comments on delivery service requests' })
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('DS-REQUEST:READ', 'DELIVERY-SERVICE:READ', 'USER:READ')
  async list(@ListParams(COMMENT_LIST) query: ListQuery, @RequestedVersion() version: ApiVersion) {
    return (await this.comments.list(query)).map((c) => toCommentResponse(c, version));
  }

  @Post()
  @ApiOperation({ summary: 'Comment on a delivery service request' })
  @HttpCode(200)
  @RequirePrivLevel(PrivLevel.Portal)
  @RequirePermissions('DS-REQUEST:UPDATE', 'DELIVERY-SERVICE:READ', 'USER:READ')
  async create(
    @ValidBody(COMMENT_BODIES) body: DeliveryServiceRequestCommentV3Dto | DeliveryServiceRequestCommentV5Dto,
    @CurrentUser() user: CurrentUser,
    @RequestedVersion() version: ApiVersion,
  ) {
    const comment = await this.comments.create(body.deliveryServiceRequestId ?? 0, body.value ?? '', user);
    return ApiResult.of(
      toCommentResponse(comment, version),
      successAlert('deliveryservice_request_comment was created.'),
    );
  }

  @Put()
  @ApiOperation({ summary: 'Update a comment on a delivery service request' })
  @RequirePrivLevel(PrivLevel.Portal)
  @RequirePermissions('DS-REQUEST:UPDATE', 'DELIVERY-SERVICE:READ', 'USER:READ')
  async update(
    @ValidQuery('id', UPDATE_ID) id: number,
    @ValidBody(COMMENT_BODIES) body: DeliveryServiceRequestCommentV3Dto | DeliveryServiceRequestCommentV5Dto,
    @CurrentUser() user: CurrentUser,
    @RequestedVersion() version: ApiVersion,
  ) {
    const comment = await this.comments.update(
      id,
      body.deliveryServiceRequestId ?? 0,
      body.value ?? '',
      user,
      NOT_AUTHOR(version),
    );
    return ApiResult.of(
      toCommentResponse(comment, version),
      successAlert('deliveryservice_request_comment was updated.'),
    );
  }

  @Delete()
  @ApiOperation({ summary: 'Delete a comment on a delivery service request' })
  @RequirePrivLevel(PrivLevel.Portal)
  @RequirePermissions('DS-REQUEST:UPDATE', 'DELIVERY-SERVICE:READ', 'USER:READ')
  async remove(
    @ValidQuery('id', DELETE_ID) id: number,
    @CurrentUser() user: CurrentUser,
    @RequestedVersion() version: ApiVersion,
  ) {
    await this.comments.remove(id, user, NOT_AUTHOR(version));
    return ApiResult.alertsOnly(successAlert('deliveryservice_request_comment was deleted.'));
  }
}
