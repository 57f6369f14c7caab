import { BadRequestException, NotFoundException } from '@nestjs/common';
import { INT32, parseIntText } from 'src/common/validation/integers';
import { perVersion } from 'src/common/versioning/per-version';
import { JobCreateV3Body, type JobCreateV4Body, JobV4Body, type JobV3Body } from './dto/job.dto';
import { goTimeString } from 'src/common/validation/go-formats';
import type { JobCreateInput, JobUpdateInput, JobWording } from './job.input';
import {
  blank,
  isEmpty,
  isUrl,
  legacyTtlHours,
  MAX_TTL_HOURS,
  ozzoErrors,
  REFETCH,
  REFRESH,
  regexProblem,
  regexStartProblem,
  ttlHoursOf,
  TYPE_RULE,
} from './job-rules';
import { NO_SUCH_DS } from './jobs.service';

/*
 * The edge of the jobs routes: each version's body becomes one version-free input (job.input.ts),
 * and the words that differ are picked per version. 3.x names the delivery service by id or xmlId
 * and the TTL as hours or a duration (POST) or as `parameters` `TTL:<n>h` (PUT); 4.0 names it by
 * xmlId, has `ttlHours` and `invalidationType`.
 */

const startRule = (startTime: Date | undefined): string | undefined =>
  startTime ? undefined : 'cannot be blank';

const typeRule = (type: string): string | undefined =>
  blank(type) ?? ([REFRESH, REFETCH].includes(type) ? undefined : TYPE_RULE);

/** POST jobs: the body of the requested version as one input. */
export function jobCreateInput(body: JobCreateV3Body | JobCreateV4Body): JobCreateInput {
  return body instanceof JobCreateV3Body ? createInputV3(body) : createInputV4(body);
}

function createInputV4(body: JobCreateV4Body): JobCreateInput {
  const problems: string[] = [];
  const structural = ozzoErrors([
    ['deliveryService', blank(body.deliveryService)],
    ['regex', blank(body.regex) ?? regexStartProblem(body.regex)],
    ['startTime', startRule(body.startTime)],
    ['ttlHours', blank(body.ttlHours)],
    ['invalidationType', typeRule(body.invalidationType)],
  ]);
  const badRegex = regexProblem(body.regex);
  const notFuture = !body.startTime || body.startTime.getTime() < Date.now();
  for (const problem of [structural, badRegex, notFuture ? 'startTime: must be in the future' : undefined]) {
    if (problem) {
      problems.push(problem);
    }
  }
  return {
    deliveryService: { xmlId: body.deliveryService },
    regex: body.regex,
    startTime: body.startTime,
    ttlHours: body.ttlHours,
    invalidationType: body.invalidationType,
    problems: { beforeLookup: problems, afterLookup: [] },
  };
}

function createInputV3(body: JobCreateV3Body): JobCreateInput {
  const structural = ozzoErrors([
    ['deliveryService', isEmpty(body.deliveryService) ? 'cannot be blank' : undefined],
    ['regex', blank(body.regex) ?? regexStartProblem(body.regex!)],
    ['ttl', isEmpty(body.ttl) ? 'cannot be blank' : undefined],
  ]);
  const after: string[] = [];
  const badRegex = body.regex ? regexProblem(body.regex) : undefined;
  if (badRegex) {
    after.push(badRegex);
  }
  if (!body.startTime) {
    after.push('startTime: cannot be blank');
  } else if (body.startTime.getTime() < Date.now()) {
    after.push('startTime: must be in the future');
  }
  let hours = 0;
  if (body.ttl !== undefined) {
    const parsed = ttlHoursOf(body.ttl);
    if (parsed === undefined) {
      after.push("ttl: must be a number of hours, or a duration string e.g. '48h'");
    } else {
      hours = parsed;
    }
  }
  return {
    deliveryService: { identifier: body.deliveryService },
    regex: body.regex ?? '',
    startTime: body.startTime,
    ttlHours: hours,
    invalidationType: REFRESH,
    problems: { beforeLookup: structural ? [structural] : [], afterLookup: after },
  };
}

/** PUT jobs: the body of the requested version as one input. */
export function jobUpdateInput(body: JobV3Body | JobV4Body): JobUpdateInput {
  return body instanceof JobV4Body ? updateInputV4(body) : updateInputV3(body);
}

function updateInputV4(body: JobV4Body): JobUpdateInput {
  const structural = ozzoErrors([
    ['deliveryService', blank(body.deliveryService)],
    ['assetUrl', blank(body.assetUrl) ?? (isUrl(body.assetUrl) ? undefined : 'must be a valid URL')],
    ['createdBy', blank(body.createdBy)],
    ['id', blank(body.id)],
    ['ttlHours', blank(body.ttlHours)],
    ['startTime', startRule(body.startTime)],
    ['invalidationType', typeRule(body.invalidationType)],
  ]);
  const ttlHours = Math.min(body.ttlHours, MAX_TTL_HOURS);
  return {
    id: body.id,
    assetUrl: body.assetUrl,
    createdBy: body.createdBy,
    deliveryService: body.deliveryService,
    startTime: body.startTime,
    structural,
    ttlHours,
    windowHours: ttlHours,
    invalidationType: body.invalidationType,
  };
}

function updateInputV3(body: JobV3Body): JobUpdateInput {
  const structural = ozzoErrors([
    ['assetUrl', blank(body.assetUrl) ?? (isUrl(body.assetUrl!) ? undefined : 'must be a valid URL')],
    ['createdBy', blank(body.createdBy)],
    ['deliveryService', blank(body.deliveryService)],
    ['id', blank(body.id)],
    ['keyword', blank(body.keyword)],
    ['parameters', blank(body.parameters)],
  ]);
  const parameters = body.parameters ?? '';
  const ttlText = parameters.replace(/^TTL:/, '').replace(/h$/, '');
  const ttlHours =
    !/^\d{1,7}$/.test(ttlText) || Number(ttlText) > MAX_TTL_HOURS
      ? { problem: "parameters: must be of the form 'TTL:<hours>h'" }
      : Number(ttlText);
  return {
    id: body.id ?? 0,
    assetUrl: body.assetUrl ?? '',
    createdBy: body.createdBy ?? '',
    deliveryService: body.deliveryService ?? '',
    startTime: body.startTime,
    structural,
    ttlHours,
    windowHours: legacyTtlHours(parameters),
    invalidationType: undefined,
  };
}

/**
 * The `id` of PUT/DELETE jobs as the original's handlers read it: required and an integer (a number
 * beyond the ids names no job).
 */
export function requiredJobId(raw: string | undefined): number {
  if (raw === undefined) {
    throw new BadRequestException('required parameters missing: missing required parameters: id');
  }
  if (!/^[+-]?\d+$/.test(raw)) {
    throw new BadRequestException("getting integer parameters: parameter 'id' not an integer");
  }
  const id = parseIntText(raw, INT32);
  if (id === undefined) {
    throw new NotFoundException(`No job by id '${raw}'!`);
  }
  return id;
}

/** 3.x's PUT reads its `id` itself: anything but digits names no job. */
function legacyJobId(raw: string | undefined): number {
  const text = raw ?? '';
  if (!/^\d{1,9}$/.test(text)) {
    throw new NotFoundException(`No job by id '${text}'!`);
  }
  return Number(text);
}

/** The `id` of PUT jobs, read as the version's handler reads it. */
export const JOB_UPDATE_ID = perVersion<(raw: string | undefined) => number>({
  '3.0': legacyJobId,
  '4.0': requiredJobId,
});

const createdV3 = (job: { assetUrl: string; startTime: Date }, end: Date) =>
  `Invalidation request created for ${job.assetUrl}, start:${goTimeString(job.startTime)} end ${goTimeString(end)}`;

export const JOB_WORDING = perVersion<JobWording>({
  '3.0': {
    ttlProblem: (hours, max) => (max !== undefined && hours > max ? `ttl: cannot exceed ${max}!` : undefined),
    notFound: NO_SUCH_DS,
    created: createdV3,
    updated: createdV3,
  },
  '4.0': {
    ttlProblem: (hours, max) =>
      max === undefined ? 'TTL is invalid' : hours > max ? `TTL is invalid: cannot exceed ${max}` : undefined,
    notFound: 'failed to authorize based on tenancy',
    created: (job, end) =>
      `Invalidation (${job.invalidationType}) request created for ${job.assetUrl}, start:${goTimeString(job.startTime)} end ${goTimeString(end)}`,
    updated: (job, end) =>
      `Invalidation request created for ${job.assetUrl}, start: ${goTimeString(job.startTime)} end: ${goTimeString(end)} invalidation type: ${job.invalidationType}`,
  },
});
