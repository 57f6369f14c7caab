import { Controller, Delete, Get, HttpCode, Post } from '@nestjs/common';
import { CurrentUser } from 'src/common/decorators/current-user.decorator';
import { PrivLevel, RequirePermissions, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { ApiResult, successAlert } from 'src/common/http/alerts';
import { ListParams, type ListQuery } from 'src/common/list-query/list-query';
import { ValidBody } from 'src/common/validation/valid-body';
import { versionsFrom } from 'src/common/versioning/api-version';
import { CDN_LOCK_LIST } from './cdn-locks.list';
import { CdnLocksService } from './cdn-locks.service';
import { CdnLockBody, type CdnLockRequest } from './dto/cdn-lock.dto';
import { toCdnLockResponse } from './dto/cdn-lock.response';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { TextParam } from 'src/common/request-input/param-rules';
import { ValidQuery } from 'src/common/request-input/request-input';
import { CreatedFrom } from 'src/common/wire/created-from';

/** `cdn_locks` (4.0+; docs/original-behaviour.md#cdn-locks). */
@Controller({ path: 'cdn_locks', version: versionsFrom('4.0') })
@ApiTags('cdn locks')
export class CdnLocksController {
  constructor(private readonly locks: CdnLocksService) {}

  @Get()
  @ApiOperation({ summary: 'List the CDN locks' })
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('CDN:READ')
  async list(@ListParams(CDN_LOCK_LIST) query: ListQuery) {
    return (await this.locks.list(query)).map(toCdnLockResponse);
  }

  @Post()
  @CreatedFrom('4.0')
  @ApiOperation({ summary: 'Acquire a lock on a CDN' })
  @HttpCode(200)
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('CDN-LOCK:CREATE', 'CDN:READ')
  async create(@ValidBody(CdnLockBody) body: CdnLockRequest, @CurrentUser() user: CurrentUser) {
    const lock = await this.locks.create(body, user);
    return ApiResult.of(
      toCdnLockResponse(lock),
      successAlert(`${lock.soft ? 'soft' : 'hard'} CDN lock acquired!`),
    );
  }

  /** `DELETE cdn_locks?cdn=<name>`: the user's own lock, or anyone's with CDN-LOCK:DELETE-OTHERS. */
  @Delete()
  @ApiOperation({ summary: 'Release a lock on a CDN' })
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('CDN-LOCK:DELETE', 'CDN:READ')
  async remove(
    @ValidQuery('cdn', TextParam({ requiredBy: 'handWritten', emptyIsMissing: true })) cdn: string,
    @CurrentUser() user: CurrentUser,
  ) {
    const lock = await this.locks.remove(cdn, user);
    return ApiResult.of(toCdnLockResponse(lock), successAlert('cdn lock deleted'));
  }
}
