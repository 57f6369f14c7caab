import { BadRequestException, Controller, Get, Put } from '@nestjs/common';
import { ConditionalOn, paramOf } from 'src/common/conditional/conditional.decorator';
import { RequestedVersion } from 'src/common/decorators/api-version.decorator';
import { PrivLevel, RequirePermissions, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { CurrentUser } from 'src/common/decorators/current-user.decorator';
import { ALL_VERSIONS, type ApiVersion } from 'src/common/versioning/api-version';
import { type CRConfig, toComputedCRConfig, toStoredCRConfig } from './dto/crconfig.response';
import type { MonitoringConfig } from './dto/monitoring.response';
import { SnapshotsService } from './snapshots.service';
import { CdnLocksService } from 'src/modules/cdn-locks/cdn-locks.service';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { OptionalIntParam, PathText, TextParam } from 'src/common/request-input/param-rules';
import { ValidPath, ValidQuery } from 'src/common/request-input/request-input';

/** `PUT snapshot?cdn=<name>` or `?cdnID=<id>`: takes a snapshot of the CDN (docs/original-behaviour.md#snapshots). */
@Controller({ path: 'snapshot', version: ALL_VERSIONS })
@ApiTags('snapshots')
export class SnapshotController {
  constructor(
    private readonly snapshots: SnapshotsService,
    private readonly locks: CdnLocksService,
  ) {}

  /**
   * With If-Unmodified-Since / If-Match, `?cdn=` answers 412 when the CDN's snapshot was taken after
   * that instant (docs/decisions.md#d74); the `cdnID` form names no row of `snapshot` and is not checked.
   */
  @Put()
  @ApiOperation({ summary: 'Take a snapshot of a CDN' })
  @ConditionalOn({
    table: 'snapshot',
    row: (req) => {
      const cdn = paramOf(req, 'cdn');
      return cdn === undefined ? undefined : { cdn };
    },
  })
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('CDN-SNAPSHOT:CREATE', 'CDN-SNAPSHOT:READ')
  async take(
    // The original parses `id` and `cdnID` as integers before anything else.
    @ValidQuery({ id: OptionalIntParam(), cdnID: OptionalIntParam(), cdn: TextParam() })
    query: { id?: number; cdnID?: number; cdn?: string },
    @CurrentUser() user: CurrentUser,
  ): Promise<string> {
    let cdn = query.cdn;
    if (cdn === undefined) {
      if (query.cdnID === undefined) {
        throw new BadRequestException('CDN must be identified via the query parameter cdn or cdnID');
      }
      cdn = await this.snapshots.cdnNameOf(query.cdnID);
    }
    // Another user's lock on the CDN refuses its snapshot (the original's check; an unknown CDN passes
    // here and is answered by take's 404).
    await this.locks.assertHoldsLock(cdn, user);
    await this.snapshots.take(cdn, user.username);
    return 'SUCCESS';
  }
}

/** A CDN's CRConfig (last taken and computed now) and its monitoring configuration. */
@Controller({ path: 'cdns/:name', version: ALL_VERSIONS })
@ApiTags('snapshots')
export class CdnSnapshotsController {
  constructor(private readonly snapshots: SnapshotsService) {}

  @Get('snapshot')
  @ApiOperation({ summary: "Show a CDN's last snapshot" })
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('CDN-SNAPSHOT:READ')
  async stored(
    @ValidPath('name', PathText()) name: string,
    @RequestedVersion() version: ApiVersion,
  ): Promise<CRConfig> {
    return toStoredCRConfig({ cdn: name, document: await this.snapshots.storedCRConfig(name) }, version);
  }

  @Get('snapshot/new')
  @ApiOperation({ summary: 'Show the snapshot a CDN would have if taken now' })
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('CDN-SNAPSHOT:READ')
  async computed(
    @ValidPath('name', PathText()) name: string,
    @CurrentUser() user: CurrentUser,
    @RequestedVersion() version: ApiVersion,
  ): Promise<CRConfig> {
    return toComputedCRConfig(await this.snapshots.computeCRConfig(name, user.username), version);
  }

  @Get('configs/monitoring')
  @ApiOperation({ summary: "Show a CDN's monitoring configuration" })
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('MONITOR-CONFIG:READ')
  monitoring(@ValidPath('name', PathText()) name: string): Promise<MonitoringConfig> {
    return this.snapshots.monitoring(name);
  }
}
