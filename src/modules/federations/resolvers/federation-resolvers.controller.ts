import { type Assignment, ResolverAssignmentBody } from 'src/modules/federations/assignment.dto';
import { Controller, Delete, Get, HttpCode, Post } from '@nestjs/common';
import { PrivLevel, RequirePermissions, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { ApiResult, successAlert } from 'src/common/http/alerts';
import { ListParams, type ListQuery } from 'src/common/list-query/list-query';
import { ALL_VERSIONS } from 'src/common/versioning/api-version';
import { type FederationResolverBody, FederationResolverBodyType } from './federation-resolver.dto';
import { ValidBody } from 'src/common/validation/valid-body';
import { FEDERATION_RESOLVER_LIST } from './federation-resolvers.list';
import { FederationResolversService } from './federation-resolvers.service';
import { ConditionalOn } from 'src/common/conditional/conditional.decorator';
import { WireTimes } from 'src/common/wire/wire-times';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { IntParam } from 'src/common/request-input/param-rules';
import { ValidPath, ValidQuery } from 'src/common/request-input/request-input';

/** The list answers If-Modified-Since; `DELETE ?id=` honours If-Unmodified-Since / If-Match. */
@ConditionalOn('federation_resolver')
@WireTimes({ rfc3339From: '5.0' })
@Controller({ path: 'federation_resolvers', version: ALL_VERSIONS })
@ApiTags('federation resolvers')
export class FederationResolversController {
  constructor(private readonly resolvers: FederationResolversService) {}

  @Get()
  @ApiOperation({ summary: 'List the federation resolvers' })
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('FEDERATION-RESOLVER:READ', 'TYPE:READ')
  async list(@ListParams(FEDERATION_RESOLVER_LIST) query: ListQuery) {
    return (await this.resolvers.list(query)).map((r) => ({
      id: r.id,
      ipAddress: r.ipAddress,
      lastUpdated: r.lastUpdated,
      type: r.type,
    }));
  }

  @Post()
  @ApiOperation({ summary: 'Create a federation resolver' })
  @HttpCode(200)
  @RequirePrivLevel(PrivLevel.Admin)
  @RequirePermissions('FEDERATION-RESOLVER:CREATE', 'TYPE:READ')
  async create(@ValidBody(FederationResolverBodyType) body: FederationResolverBody) {
    const created = await this.resolvers.create(body);
    return ApiResult.of(
      { id: created.id, ipAddress: created.ipAddress, type: created.type, typeId: created.typeId },
      successAlert(`Federation Resolver created [ IP = ${created.ipAddress} ] with id: ${created.id}`),
    );
  }

  /** `DELETE federation_resolvers?id=<id>` (the id is a required query parameter). */
  @Delete()
  @ApiOperation({ summary: 'Delete a federation resolver' })
  @RequirePrivLevel(PrivLevel.Admin)
  @RequirePermissions('FEDERATION-RESOLVER:DELETE', 'TYPE:READ')
  async remove(@ValidQuery('id', IntParam({ emptyIsMissing: true })) id: number) {
    const deleted = await this.resolvers.remove(id);
    return ApiResult.of(
      deleted,
      successAlert(`Federation resolver deleted [ IP = ${deleted.ipAddress} ] with id: ${deleted.id}`),
    );
  }
}

@WireTimes({ rfc3339From: '5.0' })
@Controller({ path: 'federations/:id/federation_resolvers', version: ALL_VERSIONS })
@ApiTags('federations')
export class FederationFederationResolversController {
  constructor(private readonly resolvers: FederationResolversService) {}

  @Get()
  @ApiOperation({ summary: 'List the resolvers assigned to a federation' })
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('FEDERATION:READ', 'FEDERATION-RESOLVER:READ')
  list(@ValidPath('id', IntParam()) id: number) {
    return this.resolvers.forFederation(id);
  }

  @Post()
  @ApiOperation({ summary: 'Assign resolvers to a federation' })
  @HttpCode(200)
  @RequirePrivLevel(PrivLevel.Admin)
  @RequirePermissions('FEDERATION:UPDATE', 'FEDERATION:READ', 'FEDERATION-RESOLVER:READ')
  async assign(@ValidPath('id', IntParam()) id: number, @ValidBody(ResolverAssignmentBody) body: Assignment) {
    const { assignment, federation } = await this.resolvers.assign(id, body);
    return ApiResult.of(
      { replace: assignment.replace ?? false, fedResolverIds: assignment.ids },
      successAlert(
        `${assignment.ids?.length ?? 0} resolver(s) were assigned to the ${federation.cname} federation`,
      ),
    );
  }
}
