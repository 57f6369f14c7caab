import {
  Controller,
  Delete,
  Get,
  HttpCode,
  MethodNotAllowedException,
  Post,
  Put,
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
import { DeferredBody, ValidBody } from 'src/common/validation/valid-body';
import { ALL_VERSIONS, type ApiVersion } from 'src/common/versioning/api-version';
import { JobCreateV3Body, JobCreateV4Body, JobV3Body, JobV4Body } from './dto/job.dto';
import { type JobView, toJobResponse } from './dto/job.response';
import { JOB_LIST } from './jobs.list';
import type { JobUpdateInput } from './job.input';
import { JOB_UPDATE_ID, JOB_WORDING, jobCreateInput, jobUpdateInput } from './job-versions';
import { type JobWrite, JobsService } from './jobs.service';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { TextParam, intRule } from 'src/common/request-input/param-rules';
import { ValidQuery } from 'src/common/request-input/request-input';
import { WireTimes } from 'src/common/wire/wire-times';

/**
 * The `id` of PUT/DELETE jobs as the original's handlers read it: 4.0+ required and an integer (a
 * number beyond the ids names no job); 3.x as text, which the 3.x update reads itself.
 */
const JOB_ID = intRule('jobId', { atoi: true });
const JOB_IDS = { '3.0': TextParam({ default: '' }), '4.0': JOB_ID };

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
    @ValidQuery('maxRevalDurationDays', TextParam()) maxRevalDurationDays: string | undefined,
    @RequestedVersion() version: ApiVersion,
    @CurrentUser() user: CurrentUser,
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
    @CurrentUser() user: CurrentUser,
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
    @ValidQuery('id', JOB_IDS) id: string | number,
    @ValidBody({ '3.0': JobV3Body, '4.0': JobV4Body }, { deferred: true })
    body: DeferredBody<JobV3Body> | DeferredBody<JobV4Body>,
    @RequestedVersion() version: ApiVersion,
    @CurrentUser() user: CurrentUser,
    @Res({ passthrough: true }) res: Response,
  ) {
    try {
      // 4.0+ reads the id as a declared integer; 3.x reads its text itself.
      const jobId = typeof id === 'number' ? id : JOB_UPDATE_ID(version)(id);
      const input = new DeferredBody<JobUpdateInput>(async () => jobUpdateInput(await body.read()));
      const write = await this.jobs.update(jobId, input, user, JOB_WORDING(version));
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
    @ValidQuery('id', JOB_ID) id: number,
    @RequestedVersion() version: ApiVersion,
    @CurrentUser() user: CurrentUser,
  ) {
    const job: JobView = await this.jobs.remove(id, user);
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
