import { insertRow } from 'src/common/database/insert-rows';
import {
  BadRequestException,
  ConflictException,
  Injectable,
  MethodNotAllowedException,
  NotFoundException,
} from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { writeLock } from 'src/common/database/locks';
import { applyListQuery, type ListQuery } from 'src/common/list-query/list-query';
import type { CurrentUser } from 'src/common/types/current-user';
import type { DeferredBody } from 'src/common/validation/valid-body';
import { ServersQueueService } from 'src/modules/servers/servers-queue.service';
import { TenancyService } from 'src/modules/tenants/tenancy.service';
import { withinTenancy } from 'src/modules/tenants/tenants.repository';
import type { JobView } from './dto/job.response';
import { goTimeString } from './go-formats';
import type { JobCreateInput, JobUpdateInput, JobWording } from './job.input';
import { REFETCH } from './job-rules';
import {
  deliveryServiceOf,
  jobQuery,
  type JobRow,
  loadJob,
  maxRevalHours,
  originUrl,
  parameter,
  refetchAllowed,
  sqlDateTime,
  toView,
} from './job-queries';
import { Job } from './job.entity';
import { UnitOfWork } from 'src/common/database/unit-of-work';

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

/** One job as the update reads it: with its delivery service, creator and primary origin. */
interface JobForUpdate extends JobView {
  dsId: number;
  dsTenantId: number;
  userTenantId: number;
  originUrl: string;
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
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly tenancy: TenancyService,
    private readonly servers: ServersQueueService,
  ) {}

  /** The jobs on delivery services within reach; `recentOnly`: started within `maxRevalDurationDays`. */
  async list(query: ListQuery, user: CurrentUser, recentOnly: boolean): Promise<JobView[]> {
    const manager = this.dataSource.manager;
    const qb = withinTenancy(jobQuery(manager), 'ds.tenant_id', user.tenantId);
    if (recentOnly) {
      const days = Number(
        (await parameter(manager, 'maxRevalDurationDays', 'regex_revalidate.config')) ?? '',
      );
      const window = Number.isFinite(days) ? days : DEFAULT_MAX_REVAL_DAYS;
      qb.andWhere('job.start_time >= :cutoff', {
        cutoff: sqlDateTime(new Date(Date.now() - window * 24 * HOUR_MS)),
      });
    }
    return (await applyListQuery(qb, query).getRawMany<JobRow>()).map(toView);
  }

  /**
   * POST jobs: the body's problems with those only the database can tell (the delivery service's
   * lookup, the TTL's limit, whether REFETCH is allowed), then the job, its duplicates and the
   * servers of its CDN flagged.
   */
  async create(input: JobCreateInput, user: CurrentUser, wording: JobWording): Promise<JobWrite> {
    const manager = this.dataSource.manager;
    const errors = [...input.problems.beforeLookup];
    let dsId: number | undefined;
    if ('identifier' in input.deliveryService && input.deliveryService.identifier !== undefined) {
      const found = await this.identifiedDeliveryService(manager, input.deliveryService.identifier);
      if (typeof found === 'string') {
        errors.push(found);
      } else {
        dsId = found;
      }
    }
    errors.push(...input.problems.afterLookup);
    const ttlProblem = wording.ttlProblem(input.ttlHours, await maxRevalHours(manager));
    if (ttlProblem) {
      errors.push(ttlProblem);
    }
    if (input.invalidationType === REFETCH && !(await refetchAllowed(manager))) {
      errors.push(REFETCH_NOT_ALLOWED);
    }
    if (errors.length > 0) {
      throw new BadRequestException(errors.join(', '));
    }
    const ds = await deliveryServiceOf(
      manager,
      'xmlId' in input.deliveryService ? { xmlId: input.deliveryService.xmlId } : { id: dsId! },
    );
    if (!ds || !(await this.tenancy.isWithinReach(user.tenantId, ds.tenantId, manager))) {
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
        if (!(await refetchAllowed(manager))) {
          throw new BadRequestException('Invalidation Type REFETCH is disallowed');
        }
      }
      if (typeof input.ttlHours !== 'number') {
        throw new BadRequestException(input.ttlHours.problem);
      }
      await manager.update(
        Job,
        { id },
        {
          assetUrl: input.assetUrl,
          ttlHours: input.ttlHours,
          startTime: input.startTime!,
          ...(type === undefined ? {} : { invalidationType: type }),
        },
      );
      await this.flagServers(manager, job.dsId);
      const updated = await loadJob(manager, id);
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
      const row = await manager.findOne(Job, { where: { id }, lock: writeLock(this.dataSource) });
      if (!row) {
        throw new NotFoundException(`No job by id '${id}'!`);
      }
      const ds =
        row.deliveryServiceId === null
          ? null
          : await deliveryServiceOf(manager, { id: row.deliveryServiceId });
      if (!ds || !(await this.tenancy.isWithinReach(user.tenantId, ds.tenantId, manager))) {
        throw new NotFoundException(NO_SUCH_DS);
      }
      if (!(await this.creatorWithinReach(manager, row.userId, user))) {
        throw new NotFoundException(`No job by id '${id}'!`);
      }
      const job = await loadJob(manager, id);
      await manager.delete(Job, { id });
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
  private async loadForUpdate(manager: EntityManager, id: number, user: CurrentUser): Promise<JobForUpdate> {
    await manager.findOne(Job, { select: { id: true }, where: { id }, lock: writeLock(this.dataSource) });
    const row = await jobQuery(manager)
      .addSelect('ds.id', 'dsId')
      .addSelect('ds.tenant_id', 'dsTenantId')
      .addSelect('u.tenant_id', 'userTenantId')
      .addSelect('o.protocol', 'originProtocol')
      .addSelect('o.fqdn', 'originFqdn')
      .addSelect('o.port', 'originPort')
      .innerJoin('origin', 'o', 'o.deliveryservice = ds.id AND o.is_primary = 1')
      .where('job.id = :id', { id })
      .getRawOne<
        JobRow & {
          dsId: number | string;
          dsTenantId: number | string;
          userTenantId: number | string;
          originProtocol: string;
          originFqdn: string;
          originPort: number | string | null;
        }
      >();
    if (!row) {
      throw new NotFoundException(`No job by id '${id}'!`);
    }
    if (!(await this.tenancy.isWithinReach(user.tenantId, Number(row.dsTenantId), manager))) {
      throw new NotFoundException(NO_SUCH_DS);
    }
    if (!(await this.tenancy.isWithinReach(user.tenantId, Number(row.userTenantId), manager))) {
      throw new NotFoundException(`No job by id '${id}'!`);
    }
    const port = row.originPort === null ? '' : `:${row.originPort}`;
    return {
      ...toView(row),
      dsId: Number(row.dsId),
      dsTenantId: Number(row.dsTenantId),
      userTenantId: Number(row.userTenantId),
      originUrl: `${row.originProtocol}://${row.originFqdn}${port}`,
    };
  }

  private async creatorWithinReach(
    manager: EntityManager,
    userId: number,
    user: CurrentUser,
  ): Promise<boolean> {
    const [creator] = await manager.query<{ tenant_id: number | string | null }[]>(
      'SELECT tenant_id FROM tm_user WHERE id = ?',
      [userId],
    );
    return (
      creator !== undefined &&
      creator.tenant_id !== null &&
      this.tenancy.isWithinReach(user.tenantId, Number(creator.tenant_id), manager)
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
      const origin = await originUrl(manager, dsId);
      if (origin === undefined) {
        throw new BadRequestException('assetUrl is a required field');
      }
      const id = await insertRow(manager, Job, {
        ttlHours,
        assetUrl: `${origin}${regex}`,
        startTime,
        enteredTime: new Date(),
        userId: user.id,
        deliveryServiceId: dsId,
        invalidationType,
      });
      await this.flagServers(manager, dsId);
      return loadJob(manager, id);
    });
  }

  /** The flags of the servers that apply the delivery service's jobs (`use_reval_pending`, GLOBAL). */
  private async flagServers(manager: EntityManager, dsId: number): Promise<void> {
    const useReval = (await parameter(manager, 'use_reval_pending', 'global')) ?? '0';
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
    manager: EntityManager = this.dataSource.manager,
  ): Promise<string[]> {
    const jobs = await manager.find(Job, { where: { deliveryServiceId: dsId }, order: { id: 'ASC' } });
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
  private async identifiedDeliveryService(manager: EntityManager, value: unknown): Promise<number | string> {
    if (typeof value === 'number') {
      if (value < 0) {
        return 'Delivery Service ID cannot be negative';
      }
      const id = Math.trunc(value);
      const ds = id <= 2147483647 ? await deliveryServiceOf(manager, { id }) : null;
      return ds ? ds.id : `No Delivery Service exists matching identifier: ${value}`;
    }
    if (typeof value === 'string') {
      const ds = await deliveryServiceOf(manager, { xmlId: value });
      return ds ? ds.id : `No DeliveryService exists matching identifier: ${value}`;
    }
    return 'Unknown error occurred';
  }
}
