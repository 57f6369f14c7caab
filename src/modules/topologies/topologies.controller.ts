import { Controller, Delete, Get, HttpCode, Post, Put } from '@nestjs/common';
import { ConditionalOn, paramOf } from 'src/common/conditional/conditional.decorator';
import { RequestedVersion } from 'src/common/decorators/api-version.decorator';
import { PrivLevel, RequirePermissions, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { ApiResult, successAlert, warningAlert } from 'src/common/http/alerts';
import { ListParams, type ListQuery } from 'src/common/list-query/list-query';
import { ValidBody } from 'src/common/validation/valid-body';
import { ALL_VERSIONS, type ApiVersion } from 'src/common/versioning/api-version';
import { TopologyBody, TopologyQueueUpdateBody } from './dto/topology.dto';
import { toTopologyResponse } from './dto/topology.response';
import { TOPOLOGY_LIST } from './topologies.list';
import { TopologiesService, type TopologyWrite } from './topologies.service';
import { CurrentUser } from 'src/common/decorators/current-user.decorator';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { PathText, TextParam } from 'src/common/request-input/param-rules';
import { ValidPath, ValidQuery } from 'src/common/request-input/request-input';

/** The first value of a query parameter given as text. */
/** Topologies, addressed by `?name=` on PUT and DELETE (docs/original-behaviour.md#topologies). */
@ConditionalOn({
  table: 'topology',
  row: (req) => {
    const name = paramOf(req, 'name');
    return name ? { name } : undefined;
  },
})
@Controller({ path: 'topologies', version: ALL_VERSIONS })
@ApiTags('topologies')
export class TopologiesController {
  constructor(private readonly topologies: TopologiesService) {}

  @Get()
  @ApiOperation({ summary: 'List the topologies' })
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('TOPOLOGY:READ', 'CACHE-GROUP:READ')
  async list(@ListParams(TOPOLOGY_LIST) query: ListQuery, @RequestedVersion() version: ApiVersion) {
    const topologies = await this.topologies.list(query);
    return topologies.map((t) => toTopologyResponse(t, version));
  }

  @Post()
  @ApiOperation({ summary: 'Create a topology' })
  @HttpCode(200)
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('TOPOLOGY:CREATE', 'TOPOLOGY:READ', 'CACHE-GROUP:READ')
  async create(@ValidBody(TopologyBody) body: TopologyBody, @RequestedVersion() version: ApiVersion) {
    return this.answer(await this.topologies.create(body), 'topology was created.', version);
  }

  @Put()
  @ApiOperation({ summary: 'Update a topology' })
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('TOPOLOGY:UPDATE', 'TOPOLOGY:READ', 'CACHE-GROUP:READ')
  async update(
    @ValidQuery('name', TextParam()) name: string | undefined,
    @ValidBody(TopologyBody) body: TopologyBody,
    @RequestedVersion() version: ApiVersion,
  ) {
    return this.answer(await this.topologies.update(name, body), 'topology was updated.', version);
  }

  /** 5.0 answers the deleted topology too; earlier versions the alert only. */
  @Delete()
  @ApiOperation({ summary: 'Delete a topology' })
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('TOPOLOGY:DELETE', 'TOPOLOGY:READ', 'CACHE-GROUP:READ')
  async remove(
    @ValidQuery('name', TextParam()) name: string | undefined,
    @RequestedVersion() version: ApiVersion,
  ) {
    const deleted = await this.topologies.remove(name);
    const alert = successAlert('topology was deleted.');
    return version.atLeast('5.0')
      ? ApiResult.of(toTopologyResponse(deleted, version), alert)
      : ApiResult.alertsOnly(alert);
  }

  /** Answers the request's action, CDN and topology, without alerts. */
  @Post(':name/queue_update')
  @ApiOperation({ summary: "Queue or dequeue updates on a topology's servers" })
  @HttpCode(200)
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('SERVER:QUEUE', 'TOPOLOGY:READ', 'SERVER:READ', 'CACHE-GROUP:READ')
  queueUpdates(
    @ValidPath('name', PathText()) name: string,
    @ValidBody(TopologyQueueUpdateBody) body: TopologyQueueUpdateBody,
    @CurrentUser() user: CurrentUser,
  ) {
    return this.topologies.queueUpdates(name, body, user);
  }

  private answer(written: TopologyWrite, text: string, version: ApiVersion) {
    return ApiResult.of(
      toTopologyResponse(written.view, version),
      successAlert(text),
      ...written.warnings.map(warningAlert),
    );
  }
}
