import { Controller, Get, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ConditionalOn } from 'src/common/conditional/conditional.decorator';
import { PrivLevel, RequirePermissions, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { ApiResult } from 'src/common/http/alerts';
import { cookieFrom } from 'src/common/http/cookies';
import { ALL_VERSIONS } from 'src/common/versioning/api-version';
import { ChangeLogService } from './change-log.service';
import { LOG_LIST, LOG_QUERY, type LogKeys, logQuery } from './logs.query';
import { WireTimes } from 'src/common/wire/wire-times';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { type DeferredInput, ValidQuery } from 'src/common/request-input/request-input';
import { ListParams, type ListQuery } from 'src/common/list-query/list-query';

/** Remembers when the user last read the change log, for GET /logs/newcount (a week, as the original). */
export const LAST_SEEN_COOKIE = 'last_seen_log';
const LAST_SEEN_MS = 7 * 86_400_000;

function setLastSeen(res: Response): void {
  res.cookie(LAST_SEEN_COOKIE, new Date().toISOString(), {
    path: '/',
    expires: new Date(Date.now() + LAST_SEEN_MS),
    encode: String,
  });
}

@WireTimes({ rfc3339From: '5.0' })
@Controller({ path: 'logs', version: ALL_VERSIONS })
@ApiTags('change logs')
export class LogsController {
  constructor(private readonly changeLog: ChangeLogService) {}

  @Get()
  @ApiOperation({ summary: 'List the change log entries' })
  @ConditionalOn('log')
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('LOG:READ')
  async list(
    @ListParams(LOG_LIST) list: ListQuery,
    @ValidQuery(LOG_QUERY, { deferred: true }) keys: DeferredInput<LogKeys>,
    @Res({ passthrough: true }) res: Response,
  ) {
    // The list's keys are checked first, then `days`, as the original does.
    const query = logQuery(list, keys.read());
    const { entries, count } = await this.changeLog.list(query);
    setLastSeen(res);
    return ApiResult.list(entries, count);
  }

  /** Entries written since the `last_seen_log` cookie; without one, 0 and the cookie is set. */
  @Get('newcount')
  @ApiOperation({ summary: 'Count the change log entries written since the last visit' })
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('LOG:READ')
  async newCount(@Req() req: Request, @Res({ passthrough: true }) res: Response) {
    const raw = cookieFrom(req.headers.cookie, LAST_SEEN_COOKIE);
    const lastSeen = raw === undefined ? undefined : new Date(raw);
    if (lastSeen === undefined || Number.isNaN(lastSeen.getTime())) {
      setLastSeen(res);
      return { newLogcount: 0 };
    }
    return { newLogcount: await this.changeLog.countSince(lastSeen) };
  }
}
