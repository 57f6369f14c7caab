import { Controller, Delete, Get, HttpCode, Post } from '@nestjs/common';
import { ConditionalOn } from 'src/common/conditional/conditional.decorator';
import { CurrentUser } from 'src/common/decorators/current-user.decorator';
import { PrivLevel, RequirePermissions, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { ApiResult, successAlert } from 'src/common/http/alerts';
import { ListParams, type ListQuery } from 'src/common/list-query/list-query';
import { ValidBody } from 'src/common/validation/valid-body';
import { versionsFrom } from 'src/common/versioning/api-version';
import { CDN_NOTIFICATION_LIST } from './cdn-notifications.list';
import { CdnNotificationsService } from './cdn-notifications.service';
import { CdnNotificationDto } from './dto/cdn-notification.dto';
import { toCdnNotificationResponse } from './dto/cdn-notification.response';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { IntParam } from 'src/common/request-input/param-rules';
import { ValidQuery } from 'src/common/request-input/request-input';
import { CreatedFrom } from 'src/common/wire/created-from';

/** `cdn_notifications` (4.0+; docs/original-behaviour.md#cdn-notifications). */
@Controller({ path: 'cdn_notifications', version: versionsFrom('4.0') })
@ApiTags('cdn notifications')
export class CdnNotificationsController {
  constructor(private readonly notifications: CdnNotificationsService) {}

  @Get()
  @ApiOperation({ summary: 'List the CDN notifications' })
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('CDN:READ')
  async list(@ListParams(CDN_NOTIFICATION_LIST) query: ListQuery) {
    return (await this.notifications.list(query)).map(toCdnNotificationResponse);
  }

  @Post()
  @CreatedFrom('4.0')
  @ApiOperation({ summary: 'Create a CDN notification' })
  @HttpCode(200)
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('CDN:UPDATE')
  async create(@ValidBody(CdnNotificationDto) dto: CdnNotificationDto, @CurrentUser() user: CurrentUser) {
    const created = await this.notifications.create(dto, user);
    return ApiResult.of(
      toCdnNotificationResponse(created),
      successAlert(`CDN notification created [ User = ${created.user} ] for CDN: ${created.cdn}`),
    );
  }

  /** `DELETE cdn_notifications?id=<id>` (the id is a required query parameter). */
  @Delete()
  @ApiOperation({ summary: 'Delete a CDN notification' })
  @ConditionalOn('cdn_notification')
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('CDN:UPDATE')
  async remove(@ValidQuery('id', IntParam({ emptyIsMissing: true })) id: number) {
    const deleted = await this.notifications.remove(id);
    return ApiResult.of(
      toCdnNotificationResponse(deleted),
      successAlert(`CDN notification deleted [ User = ${deleted.user} ] for CDN: ${deleted.cdn}`),
    );
  }
}
