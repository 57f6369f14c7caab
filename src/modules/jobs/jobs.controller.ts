import {
  Controller,
  createParamDecorator,
  Delete,
  type ExecutionContext,
  Get,
  HttpCode,
  MethodNotAllowedException,
  Post,
  Put,
  Query,
  Req,
  Res,
} from '@nestjs/common';
import type { Request, Response } from 'express';
import { ConditionalOn } from 'src/common/conditional/conditional.decorator';
import { RequestedVersion } from 'src/common/decorators/api-version.decorator';
import { PrivLevel, RequirePermissions, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { CurrentUser } from 'src/common/decorators/current-user.decorator';
import { ApiResult, successAlert, warningAlert } from 'src/common/http/alerts';
import { ListParams, type ListQuery } from 'src/common/list-query/list-query';
import type { CurrentUser as SessionUser } from 'src/common/types/current-user';
import { DeferredBody, ValidBody } from 'src/common/validation/valid-body';
import { ALL_VERSIONS, type ApiVersion } from 'src/common/versioning/api-version';
import { JobCreateV3Body, JobCreateV4Body, JobV3Body, JobV4Body } from './dto/job.dto';
import { type JobView, toJobResponse } from './dto/job.response';
import { JOB_LIST } from './jobs.list';
import type { JobUpdateInput } from './job.input';
import { JOB_UPDATE_ID, JOB_WORDING, jobCreateInput, jobUpdateInput, requiredJobId } from './job-versions';
import { type JobWrite, JobsService } from './jobs.service';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { WireTimes } from 'src/common/wire/wire-times';

/** The raw `id` query parameter (its first value), read as text (no pipe converts it). */
const RawJobId = createParamDecorator((_data: unknown, ctx: ExecutionContext): string | undefined => {
  const raw: unknown = ctx.switchToHttp().getRequest<Request>().query.id;
  const first: unknown = Array.isArray(raw) ? raw[0] : raw;
  return typeof first === 'string' ? first : undefined;
});

/** Content invalidation jobs (docs/original-behaviour.md#jobs). */
@ConditionalOn('job')
@WireTimes({ rfc3339From: '4.0' })
@Controller({ path: 'jobs', version: ALL_VERSIONS })
@ApiTags('jobs')
export class JobsController {
  constructor(private readonly jobs: JobsService) {}

  @Get()
  @ApiOperation({ summary: 'List the content invalidation jobs' })
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('JOB:READ', 'DELIVERY-SERVICE:READ')
  async list(
    @ListParams(JOB_LIST) query: ListQuery,
    @Query('maxRevalDurationDays') maxRevalDurationDays: unknown,
    @RequestedVersion() version: ApiVersion,
    @CurrentUser() user: SessionUser,
  ) {
    const jobs = await this.jobs.list(query, user, maxRevalDurationDays !== undefined);
    return jobs.map((job) => toJobResponse(job, version));
  }

  @Post()
  @ApiOperation({ summary: 'Create a content invalidation job' })
  @HttpCode(200)
  @RequirePrivLevel(PrivLevel.Portal)
  @RequirePermissions('JOB:CREATE', 'JOB:READ', 'DELIVERY-SERVICE:READ')
  async create(
    @ValidBody({ '3.0': JobCreateV3Body, '4.0': JobCreateV4Body }) body: JobCreateV3Body | JobCreateV4Body,
    @RequestedVersion() version: ApiVersion,
    @CurrentUser() user: SessionUser,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    const write = await this.jobs.create(jobCreateInput(body), user, JOB_WORDING(version));
    // Where the new job can be read, as the original says.
    res.setHeader(
      'Location',
      `${req.protocol}://${req.get('host')}/api/${version.toString()}/jobs?id=${write.job.id}`,
    );
    return this.answer(write, version);
  }

  @Put()
  @ApiOperation({ summary: 'Update a content invalidation job' })
  @RequirePrivLevel(PrivLevel.Portal)
  @RequirePermissions('JOB:UPDATE', 'JOB:READ', 'DELIVERY-SERVICE:READ')
  async update(
    @RawJobId() rawId: string | undefined,
    @ValidBody({ '3.0': JobV3Body, '4.0': JobV4Body }, { deferred: true })
    body: DeferredBody<JobV3Body> | DeferredBody<JobV4Body>,
    @RequestedVersion() version: ApiVersion,
    @CurrentUser() user: SessionUser,
    @Res({ passthrough: true }) res: Response,
  ) {
    try {
      const id = JOB_UPDATE_ID(version)(rawId);
      const input = new DeferredBody<JobUpdateInput>(async () => jobUpdateInput(await body.read()));
      const write = await this.jobs.update(id, input, user, JOB_WORDING(version));
      return this.answer(write, version);
    } catch (error) {
      if (error instanceof MethodNotAllowedException) {
        // A job that has started may still be read or deleted, as the original's 405 says.
        res.setHeader('Allow', 'GET,HEAD,DELETE');
      }
      throw error;
    }
  }

  @Delete()
  @ApiOperation({ summary: 'Delete a content invalidation job' })
  @RequirePrivLevel(PrivLevel.Portal)
  @RequirePermissions('JOB:DELETE', 'JOB:READ', 'DELIVERY-SERVICE:READ')
  async remove(
    @RawJobId() rawId: string | undefined,
    @RequestedVersion() version: ApiVersion,
    @CurrentUser() user: SessionUser,
  ) {
    const job: JobView = await this.jobs.remove(requiredJobId(rawId), user);
    return ApiResult.of(toJobResponse(job, version), successAlert('Content invalidation job was deleted'));
  }

  private answer(write: JobWrite, version: ApiVersion) {
    return ApiResult.of(
      toJobResponse(write.job, version),
      ...write.warnings.map(warningAlert),
      successAlert(write.success),
    );
  }
}
