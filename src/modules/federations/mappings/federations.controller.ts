import { Controller, Delete, Get, HttpCode, Post, Put } from '@nestjs/common';
import { PrivLevel, RequirePermissions, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { CurrentUser } from 'src/common/decorators/current-user.decorator';
import { ApiResult, successAlert } from 'src/common/http/alerts';
import { ALL_VERSIONS } from 'src/common/versioning/api-version';
import { type ResolverMapping, ResolverMappingsBody } from './resolver-mappings.dto';
import { ValidBody } from 'src/common/validation/valid-body';
import { FederationsService } from './federations.service';
import { ApiOperation, ApiTags } from '@nestjs/swagger';

const createdMessage = (user: CurrentUser) => `${user.username} successfully created federation resolvers.`;
const deletedMessage = (user: CurrentUser, ips: string[]) =>
  `${user.username} successfully deleted all federation resolvers: [ ${ips.join(', ')} ]`;

/**
 * The signed-in user's federation resolver mappings (docs/original-behaviour.md#federations). Roles admin,
 * Federation, operations, Portal and Steering: level 15 (docs/decisions.md#d12).
 */
@Controller({ path: 'federations', version: ALL_VERSIONS })
@ApiTags('federations')
export class FederationsController {
  constructor(private readonly federations: FederationsService) {}

  @Get()
  @ApiOperation({ summary: "List the signed-in user's federation resolver mappings" })
  @RequirePrivLevel(PrivLevel.Portal)
  @RequirePermissions('FEDERATION-RESOLVER:READ', 'DELIVERY-SERVICE:READ')
  list(@CurrentUser() user: CurrentUser) {
    return this.federations.mappingsOf(user);
  }

  @Post()
  @ApiOperation({ summary: 'Add federation resolver mappings for the signed-in user' })
  @HttpCode(200)
  @RequirePrivLevel(PrivLevel.Portal)
  @RequirePermissions('FEDERATION-RESOLVER:CREATE', 'FEDERATION-RESOLVER:READ', 'DELIVERY-SERVICE:READ')
  async create(
    @ValidBody(ResolverMappingsBody) mappings: ResolverMapping[],
    @CurrentUser() user: CurrentUser,
  ) {
    await this.federations.create(user, mappings);
    const message = createdMessage(user);
    return ApiResult.of(message, successAlert(message));
  }

  @Put()
  @ApiOperation({ summary: "Replace the signed-in user's federation resolver mappings" })
  @RequirePrivLevel(PrivLevel.Portal)
  @RequirePermissions('FEDERATION-RESOLVER:DELETE', 'FEDERATION-RESOLVER:CREATE', 'DELIVERY-SERVICE:READ')
  async replace(
    @ValidBody(ResolverMappingsBody) mappings: ResolverMapping[],
    @CurrentUser() user: CurrentUser,
  ) {
    const deleted = await this.federations.replace(user, mappings);
    const created = createdMessage(user);
    return ApiResult.of(created, successAlert(deletedMessage(user, deleted)), successAlert(created));
  }

  @Delete()
  @ApiOperation({ summary: "Delete the signed-in user's federation resolver mappings" })
  @RequirePrivLevel(PrivLevel.Portal)
  @RequirePermissions('FEDERATION-RESOLVER:DELETE')
  async remove(@CurrentUser() user: CurrentUser) {
    const message = deletedMessage(user, await this.federations.remove(user));
    return ApiResult.of(message, successAlert(message));
  }
}
