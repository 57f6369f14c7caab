import {
  BadRequestException,
  ConflictException,
  Injectable,
  MethodNotAllowedException,
  NotFoundException,
} from '@nestjs/common';
import { type TransactionManager, UnitOfWork } from 'src/common/database/unit-of-work';
import type { ListQuery } from 'src/common/list-query/list-query';
import type { CurrentUser } from 'src/common/types/current-user';
import type { DeferredBody } from 'src/common/validation/valid-body';
import { ServersQueueService } from 'src/modules/servers/servers-queue.service';
import { TenancyService } from 'src/modules/tenants/tenancy.service';
import type { JobView } from './dto/job.response';
import { goTimeString } from 'src/common/validation/go-formats';
import type { JobCreateInput, JobUpdateInput, JobWording } from './job.input';
import { MAX_TTL_HOURS, REFETCH } from './job-rules';
import { type JobForUpdate, JobsRepository } from './jobs.repository';

const HOUR_MS = 3600_000;
const TWO_DAYS_MS = 48 * HOUR_MS;
const DEFAULT_MAX_REVAL_DAYS = 90;
export const NO_SUCH_DS = 'No such Delivery Service!';
const REFETCH_NOT_ALLOWED =
  "invalidationType is not allowed since 'refetch_enabled' parameter doesn't exists or the value is not set to a case-insensitive 'true'";

/** A job and the alerts its write answers with: duplicates found (warnings), then the success text. */
export interface JobWrite {
  job: JobView;
  warnings: string[];
  success: string;
}

/**
 * Content invalidation jobs (docs/original-behaviour.md#jobs): the list, and the writes with the
 * original's rules (each version's body converted by the controller, job-versions.ts), tenancy
 * through the job's delivery service (and its creator's tenant for changes), duplicate warnings,
 * and the servers of the CDN flagged after each write.
 */
@Injectable()
export class JobsService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly jobs: JobsRepository,
    private readonly tenancy: TenancyService,
    private readonly servers: ServersQueueService,
  ) {}

  /** The jobs on delivery services within reach; `recentOnly`: started within `maxRevalDurationDays`. */
  async list(query: ListQuery, user: CurrentUser, recentOnly: boolean): Promise<JobView[]> {
    let startedSince: Date | undefined;
    if (recentOnly) {
      const days = Number(
        (await this.jobs.parameter('maxRevalDurationDays', 'regex_revalidate.config')) ?? '',
      );
      const window = Number.isFinite(days) ? days : DEFAULT_MAX_REVAL_DAYS;
      startedSince = new Date(Date.now() - window * 24 * HOUR_MS);
    }
    return this.jobs.list(query, user.tenantId, startedSince);
  }

  /**
   * POST jobs: the body's problems with those only the database can tell (the delivery service's
   * lookup, the TTL's limit, whether REFETCH is allowed), then the job, its duplicates and the
   * servers of its CDN flagged.
   */
  async create(input: JobCreateInput, user: CurrentUser, wording: JobWording): Promise<JobWrite> {
    const errors = [...input.problems.beforeLookup];
    let dsId: number | undefined;
    if ('identifier' in input.deliveryService && input.deliveryService.identifier !== undefined) {
      const found = await this.identifiedDeliveryService(input.deliveryService.identifier);
      if (typeof found === 'string') {
        errors.push(found);
      } else {
        dsId = found;
      }
    }
    errors.push(...input.problems.afterLookup);
    const ttlProblem = wording.ttlProblem(input.ttlHours, await this.maxRevalHours());
    if (ttlProblem) {
      errors.push(ttlProblem);
    }
    if (input.invalidationType === REFETCH && !(await this.refetchAllowed())) {
      errors.push(REFETCH_NOT_ALLOWED);
    }
    if (errors.length > 0) {
      throw new BadRequestException(errors.join(', '));
    }
    const ds = await this.jobs.deliveryService(
      'xmlId' in input.deliveryService ? { xmlId: input.deliveryService.xmlId } : { id: dsId! },
    );
    if (!ds || !(await this.tenancy.isWithinReach(user.tenantId, ds.tenantId))) {
      throw new NotFoundException(wording.notFound);
    }
    const job = await this.insertJob(
      ds.id,
      input.regex,
      input.startTime!,
      input.ttlHours,
      input.invalidationType,
      user,
    );
    const end = new Date(job.startTime.getTime() + input.ttlHours * HOUR_MS);
    return {
      job,
      warnings: await this.duplicates(ds.id, job.startTime, job.assetUrl, input.ttlHours),
      success: wording.created(job, end),
    };
  }

  /**
   * PUT jobs?id=: the job is found and authorized before its body is read; then the body's
   * problems, the start window, the unchangeable fields, REFETCH's permission and the TTL.
   */
  async update(
    id: number,
    deferred: DeferredBody<JobUpdateInput>,
    user: CurrentUser,
    wording: JobWording,
  ): Promise<JobWrite> {
    return this.unitOfWork.run(async (manager) => {
      const job = await this.loadForUpdate(manager, id, user);
      const input = await deferred.read();
      this.checkStartWindow(input.structural, input.startTime);
      this.checkUnchangeable(job, input);
      const type = input.invalidationType;
      if (type !== undefined && job.invalidationType !== type && type === REFETCH) {
        if (!(await this.refetchAllowed(manager))) {
          throw new BadRequestException('Invalidation Type REFETCH is disallowed');
        }
      }
      if (typeof input.ttlHours !== 'number') {
        throw new BadRequestException(input.ttlHours.problem);
      }
      await this.jobs.change(manager, id, {
        assetUrl: input.assetUrl,
        ttlHours: input.ttlHours,
        startTime: input.startTime!,
        ...(type === undefined ? {} : { invalidationType: type }),
      });
      await this.flagServers(manager, job.dsId);
      const updated = await this.jobs.job(manager, id);
      const end = new Date(updated.startTime.getTime() + input.windowHours * HOUR_MS);
      return {
        job: updated,
        warnings: await this.duplicates(
          job.dsId,
          input.startTime!,
          input.assetUrl,
          input.windowHours,
          manager,
        ),
        success: wording.updated(updated, end),
      };
    });
  }

  /** DELETE jobs?id= (every version). */
  async remove(id: number, user: CurrentUser): Promise<JobView> {
    return this.unitOfWork.run(async (manager) => {
      const row = await this.jobs.lockedById(manager, id);
      if (!row) {
        throw new NotFoundException(`No job by id '${id}'!`);
      }
      const ds =
        row.deliveryServiceId === null
          ? null
          : await this.jobs.deliveryService({ id: row.deliveryServiceId }, manager);
      if (!ds || !(await this.tenancy.isWithinReach(user.tenantId, ds.tenantId, manager))) {
        throw new NotFoundException(NO_SUCH_DS);
      }
      if (!(await this.creatorWithinReach(manager, row.userId, user))) {
        throw new NotFoundException(`No job by id '${id}'!`);
      }
      const job = await this.jobs.job(manager, id);
      await this.jobs.remove(manager, id);
      await this.flagServers(manager, ds.id);
      return job;
    });
  }

  private checkStartWindow(structural: string | undefined, startTime: Date | undefined): void {
    const errors = structural ? [structural] : [];
    if (!startTime) {
      errors.push('startTime: cannot be blank');
    } else {
      if (startTime.getTime() > Date.now() + TWO_DAYS_MS) {
        errors.push('startTime: must be within two days from now');
      }
      if (startTime.getTime() < Date.now()) {
        errors.push('startTime: cannot be in the past');
      }
    }
    if (errors.length > 0) {
      throw new BadRequestException(errors.join(', '));
    }
  }

  /** The checks of a job update after its body's own rules, in the original's order. */
  private checkUnchangeable(
    job: JobForUpdate,
    input: { assetUrl: string; deliveryService: string; createdBy: string; id: number },
  ): void {
    if (!input.assetUrl.startsWith(job.originUrl)) {
      throw new BadRequestException(
        `Cannot set asset URL that does not start with Delivery Service origin URL: ${job.originUrl}`,
      );
    }
    if (job.startTime.getTime() < Date.now()) {
      throw new MethodNotAllowedException('Cannot modify a job that has already started!');
    }
    if (job.deliveryService !== input.deliveryService) {
      throw new ConflictException("Cannot change 'deliveryService' of existing invalidation job!");
    }
    if (job.createdBy !== input.createdBy) {
      throw new ConflictException("Cannot change 'createdBy' of existing invalidation jobs!");
    }
    if (job.id !== input.id) {
      throw new ConflictException("Cannot change an invalidation job 'id'!");
    }
  }

  /**
   * The job an update addresses, locked, with its primary origin (a job whose delivery service has
   * none is not found, as in the original); its delivery service and its creator must be within reach.
   */
  private async loadForUpdate(
    manager: TransactionManager,
    id: number,
    user: CurrentUser,
  ): Promise<JobForUpdate> {
    const job = await this.jobs.lockedForUpdate(manager, id);
    if (!job) {
      throw new NotFoundException(`No job by id '${id}'!`);
    }
    if (!(await this.tenancy.isWithinReach(user.tenantId, job.dsTenantId, manager))) {
      throw new NotFoundException(NO_SUCH_DS);
    }
    if (!(await this.tenancy.isWithinReach(user.tenantId, job.userTenantId, manager))) {
      throw new NotFoundException(`No job by id '${id}'!`);
    }
    return job;
  }

  private async creatorWithinReach(
    manager: TransactionManager,
    userId: number,
    user: CurrentUser,
  ): Promise<boolean> {
    const tenantId = await this.jobs.userTenant(manager, userId);
    return (
      tenantId !== undefined &&
      tenantId !== null &&
      this.tenancy.isWithinReach(user.tenantId, tenantId, manager)
    );
  }

  /** Inserts a job: its asset URL is the delivery service's primary origin followed by the regex. */
  private async insertJob(
    dsId: number,
    regex: string,
    startTime: Date,
    ttlHours: number,
    invalidationType: string,
    user: CurrentUser,
  ): Promise<JobView> {
    return this.unitOfWork.run(async (manager) => {
      const origin = await this.jobs.originUrl(manager, dsId);
      if (origin === undefined) {
        throw new BadRequestException('assetUrl is a required field');
      }
      const id = await this.jobs.add(manager, {
        ttlHours,
        assetUrl: `${origin}${regex}`,
        startTime,
        enteredTime: new Date(),
        userId: user.id,
        deliveryServiceId: dsId,
        invalidationType,
      });
      await this.flagServers(manager, dsId);
      return this.jobs.job(manager, id);
    });
  }

  /** The flags of the servers that apply the delivery service's jobs (`use_reval_pending`, GLOBAL). */
  private async flagServers(manager: TransactionManager, dsId: number): Promise<void> {
    const useReval = (await this.jobs.parameter('use_reval_pending', 'global', manager)) ?? '0';
    await this.servers.flagInvalidation(dsId, useReval !== '0');
  }

  /**
   * The original's duplicate check (lib/go-tc ValidateJobUniqueness): the delivery service's jobs
   * whose asset URL ends with this one and whose time window overlaps an end of this one's.
   */
  private async duplicates(
    dsId: number,
    start: Date,
    assetUrl: string,
    ttlHours: number,
    manager?: TransactionManager,
  ): Promise<string[]> {
    const jobs = await this.jobs.ofDeliveryService(dsId, manager);
    const jobStart = start.getTime();
    const jobEnd = jobStart + ttlHours * HOUR_MS;
    const found: string[] = [];
    for (const other of jobs) {
      if (!other.assetUrl.endsWith(assetUrl) || !other.ttlHours) {
        continue;
      }
      const otherStart = other.startTime.getTime();
      const otherEnd = otherStart + other.ttlHours * HOUR_MS;
      if ((otherStart < jobStart && jobStart < otherEnd) || (otherStart < jobEnd && jobEnd < otherEnd)) {
        found.push(
          `Invalidation request duplicate found for ${other.assetUrl}, start:${goTimeString(other.startTime)} end:${goTimeString(new Date(otherEnd))}`,
        );
      }
    }
    return found;
  }

  /** A delivery service named by id (a number) or xmlId (a string): its id, or the original's text of why it names none. */
  private async identifiedDeliveryService(value: unknown): Promise<number | string> {
    if (typeof value === 'number') {
      if (value < 0) {
        return 'Delivery Service ID cannot be negative';
      }
      const id = Math.trunc(value);
      const ds = id <= 2147483647 ? await this.jobs.deliveryService({ id }) : null;
      return ds ? ds.id : `No Delivery Service exists matching identifier: ${value}`;
    }
    if (typeof value === 'string') {
      const ds = await this.jobs.deliveryService({ xmlId: value });
      return ds ? ds.id : `No DeliveryService exists matching identifier: ${value}`;
    }
    return 'Unknown error occurred';
  }

  /** `maxRevalDurationDays` (regex_revalidate.config) in hours; undefined when missing or not a number. */
  private async maxRevalHours(): Promise<number | undefined> {
    const value = await this.jobs.parameter('maxRevalDurationDays', 'regex_revalidate.config');
    return value !== undefined && /^\d{1,15}$/.test(value)
      ? Math.min(Number(value) * 24, MAX_TTL_HOURS)
      : undefined;
  }

  /** `refetch_enabled` (GLOBAL) is a case-insensitive `true`. */
  private async refetchAllowed(manager?: TransactionManager): Promise<boolean> {
    const value = await this.jobs.parameter('refetch_enabled', 'global', manager);
    return value?.trim().toLowerCase() === 'true';
  }
}
