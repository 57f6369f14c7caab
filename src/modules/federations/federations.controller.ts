import { Controller, Delete, Get, HttpCode, Post, Put } from '@nestjs/common';
import { PrivLevel, RequirePermissions, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { CurrentUser } from 'src/common/decorators/current-user.decorator';
import { ApiResult, successAlert } from 'src/common/http/alerts';
import type { CurrentUser as SessionUser } from 'src/common/types/current-user';
import { ALL_VERSIONS } from 'src/common/versioning/api-version';
import { type ResolverMapping, ResolverMappingsBody } from './dto/resolver-mappings.body';
import { ValidBody } from 'src/common/validation/valid-body';
import { FederationsService } from './federations.service';

const createdMessage = (user: SessionUser) => `${user.username} successfully created federation resolvers.`;
const deletedMessage = (user: SessionUser, ips: string[]) =>
  `${user.username} successfully deleted all federation resolvers: [ ${ips.join(', ')} ]`;

/**
 * The signed-in user's federation resolver mappings (docs/original-behaviour.md#federations). Roles admin,
 * Federation, operations, Portal and Steering: level 15 (docs/decisions.md#d12).
 */
@Controller({ path: 'federations', version: ALL_VERSIONS })
export class FederationsController {
  constructor(private readonly federations: FederationsService) {}

  @Get()
  @RequirePrivLevel(PrivLevel.Portal)
  @RequirePermissions('FEDERATION-RESOLVER:READ', 'DELIVERY-SERVICE:READ')
  list(@CurrentUser() user: SessionUser) {
    return this.federations.mappingsOf(user);
  }

  @Post()
  @HttpCode(200)
  @RequirePrivLevel(PrivLevel.Portal)
  @RequirePermissions('FEDERATION-RESOLVER:CREATE', 'FEDERATION-RESOLVER:READ', 'DELIVERY-SERVICE:READ')
  async create(
    @ValidBody(ResolverMappingsBody) mappings: ResolverMapping[],
    @CurrentUser() user: SessionUser,
  ) {
    await this.federations.create(user, mappings);
    const message = createdMessage(user);
    return ApiResult.of(message, successAlert(message));
  }

  @Put()
  @RequirePrivLevel(PrivLevel.Portal)
  @RequirePermissions('FEDERATION-RESOLVER:DELETE', 'FEDERATION-RESOLVER:CREATE', 'DELIVERY-SERVICE:READ')
  async replace(
    @ValidBody(ResolverMappingsBody) mappings: ResolverMapping[],
    @CurrentUser() user: SessionUser,
  ) {
    const deleted = await this.federations.replace(user, mappings);
    const created = createdMessage(user);
    return ApiResult.of(created, successAlert(deletedMessage(user, deleted)), successAlert(created));
  }

  @Delete()
  @RequirePrivLevel(PrivLevel.Portal)
  @RequirePermissions('FEDERATION-RESOLVER:DELETE')
  async remove(@CurrentUser() user: SessionUser) {
    const message = deletedMessage(user, await this.federations.remove(user));
    return ApiResult.of(message, successAlert(message));
  }
}
