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
import { toDate } from 'src/common/time/timestamps';
import type { CurrentUser } from 'src/common/types/current-user';
import type { DeferredBody } from 'src/common/validation/valid-body';
import { ServersQueueService } from 'src/modules/servers/servers-queue.service';
import { TenancyService, withinTenancy } from 'src/modules/tenants/tenancy.service';
import type { JobCreateV3Body, JobCreateV4Body, JobV3Body, JobV4Body } from './dto/job.dto';
import type { JobView } from './dto/job.response';
import { goTimeString, parseGoDuration } from './go-formats';
import { Job } from './job.entity';

export const REFRESH = 'REFRESH';
export const REFETCH = 'REFETCH';
const HOUR_MS = 3600_000;
const TWO_DAYS_MS = 48 * HOUR_MS;
/** Go's largest duration in hours (lib/go-tc MaxTTL). */
const MAX_TTL_HOURS = 2562047;
const DEFAULT_MAX_REVAL_DAYS = 90;
const NO_SUCH_DS = 'No such Delivery Service!';
const REFETCH_NOT_ALLOWED =
  "invalidationType is not allowed since 'refetch_enabled' parameter doesn't exists or the value is not set to a case-insensitive 'true'";
const TYPE_RULE = `must be either ${REFRESH} or ${REFETCH} (case sensitive)`;

/** A job and the alerts its write answers with: duplicates found (warnings), then the success text. */
export interface JobWrite {
  job: JobView;
  warnings: string[];
  success: string;
}

interface JobRow {
  id: number | string;
  assetUrl: string;
  createdBy: string;
  deliveryService: string | null;
  ttlHours: number | string | null;
  invalidationType: string;
  startTime: Date | string;
}

/** One job as the update reads it: with its delivery service, creator and primary origin. */
interface JobForUpdate extends JobView {
  dsId: number;
  dsTenantId: number;
  userTenantId: number;
  originUrl: string;
}

/** The ozzo-validation text of a struct's field errors: `a: x; b: y.` (keys in order). */
function ozzoErrors(errors: [field: string, problem: string | undefined][]): string | undefined {
  const found = errors.filter(([, problem]) => problem !== undefined).sort(([a], [b]) => (a < b ? -1 : 1));
  return found.length === 0 ? undefined : `${found.map(([f, p]) => `${f}: ${p}`).join('; ')}.`;
}

const blank = (value: string | number | undefined | null): string | undefined =>
  value === undefined || value === null || value === '' || value === 0 ? 'cannot be blank' : undefined;

/** ozzo's `is.URL` (govalidator.IsURL), near enough: an absolute URL, or a host and path without a scheme. */
function isUrl(text: string): boolean {
  if (/\s/.test(text) || text.length >= 2083 || text.startsWith('.')) {
    return false;
  }
  for (const candidate of [text, `http://${text}`]) {
    try {
      const url = new URL(candidate);
      if (url.hostname !== '') {
        return true;
      }
    } catch {
      // not this form
    }
  }
  return false;
}

function regexProblem(pattern: string): string | undefined {
  try {
    new RegExp(pattern);
    return undefined;
  } catch (error) {
    return `regex: is not a valid Regular Expression: ${(error as Error).message}`;
  }
}

/**
 * Content invalidation jobs (docs/original-behaviour.md#jobs): the list, and the writes of 3.x and
 * 4.0+ with the original's rules, tenancy through the job's delivery service (and its creator's
 * tenant for changes), duplicate warnings, and the servers of the CDN flagged after each write.
 */
@Injectable()
export class JobsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly tenancy: TenancyService,
    private readonly servers: ServersQueueService,
  ) {}

  /** The jobs on delivery services within reach; `recentOnly`: started within `maxRevalDurationDays`. */
  async list(query: ListQuery, user: CurrentUser, recentOnly: boolean): Promise<JobView[]> {
    const manager = this.dataSource.manager;
    const qb = withinTenancy(this.query(manager), 'ds.tenant_id', user.tenantId);
    if (recentOnly) {
      const days = Number(
        (await this.parameter(manager, 'maxRevalDurationDays', 'regex_revalidate.config')) ?? '',
      );
      const window = Number.isFinite(days) ? days : DEFAULT_MAX_REVAL_DAYS;
      qb.andWhere('job.start_time >= :cutoff', {
        cutoff: sqlDateTime(new Date(Date.now() - window * 24 * HOUR_MS)),
      });
    }
    return (await applyListQuery(qb, query).getRawMany<JobRow>()).map(toView);
  }

  /** POST jobs, 4.0 and later. */
  async createV4(body: JobCreateV4Body, user: CurrentUser): Promise<JobWrite> {
    const manager = this.dataSource.manager;
    const errors: string[] = [];
    const structural = ozzoErrors([
      ['deliveryService', blank(body.deliveryService)],
      [
        'regex',
        blank(body.regex) ??
          (body.regex.startsWith('/') || body.regex.startsWith('\\/')
            ? undefined
            : "must start with '/' (or '\\/')"),
      ],
      ['startTime', body.startTime ? undefined : 'cannot be blank'],
      ['ttlHours', blank(body.ttlHours)],
      [
        'invalidationType',
        blank(body.invalidationType) ??
          ([REFRESH, REFETCH].includes(body.invalidationType) ? undefined : TYPE_RULE),
      ],
    ]);
    if (structural) {
      errors.push(structural);
    }
    const badRegex = regexProblem(body.regex);
    if (badRegex) {
      errors.push(badRegex);
    }
    if (!body.startTime || body.startTime.getTime() < Date.now()) {
      errors.push('startTime: must be in the future');
    }
    const maxHours = await this.maxRevalHours(manager);
    if (maxHours === undefined) {
      errors.push('TTL is invalid');
    } else if (body.ttlHours > maxHours) {
      errors.push(`TTL is invalid: cannot exceed ${maxHours}`);
    }
    if (body.invalidationType === REFETCH && !(await this.refetchAllowed(manager))) {
      errors.push(REFETCH_NOT_ALLOWED);
    }
    if (errors.length > 0) {
      throw new BadRequestException(errors.join(', '));
    }
    const ds = await this.deliveryService(manager, { xmlId: body.deliveryService });
    if (!ds || !(await this.tenancy.isWithinReach(user.tenantId, ds.tenantId, manager))) {
      throw new NotFoundException('failed to authorize based on tenancy');
    }
    const job = await this.insertJob(
      ds.id,
      body.regex,
      body.startTime!,
      body.ttlHours,
      body.invalidationType,
      user,
    );
    const end = new Date(job.startTime.getTime() + job.ttlHours * HOUR_MS);
    return {
      job,
      warnings: await this.duplicates(ds.id, job.startTime, job.assetUrl, job.ttlHours),
      success: `Invalidation (${job.invalidationType}) request created for ${job.assetUrl}, start:${goTimeString(job.startTime)} end ${goTimeString(end)}`,
    };
  }

  /** POST jobs, 3.x: the delivery service by id or xmlId, the TTL in hours or as a duration. */
  async createV3(body: JobCreateV3Body, user: CurrentUser): Promise<JobWrite> {
    const manager = this.dataSource.manager;
    const errors: string[] = [];
    const structural = ozzoErrors([
      ['deliveryService', isEmpty(body.deliveryService) ? 'cannot be blank' : undefined],
      [
        'regex',
        blank(body.regex) ??
          (body.regex!.startsWith('/') || body.regex!.startsWith('\\/')
            ? undefined
            : "must start with '/' (or '\\/')"),
      ],
      ['ttl', isEmpty(body.ttl) ? 'cannot be blank' : undefined],
    ]);
    if (structural) {
      errors.push(structural);
    }
    let dsId: number | undefined;
    if (body.deliveryService !== undefined) {
      const found = await this.deliveryServiceOfV3(manager, body.deliveryService);
      if (typeof found === 'string') {
        errors.push(found);
      } else {
        dsId = found;
      }
    }
    if (body.regex) {
      const badRegex = regexProblem(body.regex);
      if (badRegex) {
        errors.push(badRegex);
      }
    }
    if (!body.startTime) {
      errors.push('startTime: cannot be blank');
    } else if (body.startTime.getTime() < Date.now()) {
      errors.push('startTime: must be in the future');
    }
    let hours = 0;
    if (body.ttl !== undefined) {
      const parsed = ttlHoursOf(body.ttl);
      if (parsed === undefined) {
        errors.push("ttl: must be a number of hours, or a duration string e.g. '48h'");
      } else {
        hours = parsed;
      }
      const maxHours = await this.maxRevalHours(manager);
      if (maxHours !== undefined && hours > maxHours) {
        errors.push(`ttl: cannot exceed ${maxHours}!`);
      }
    }
    if (errors.length > 0) {
      throw new BadRequestException(errors.join(', '));
    }
    const ds = await this.deliveryService(manager, { id: dsId! });
    if (!ds || !(await this.tenancy.isWithinReach(user.tenantId, ds.tenantId, manager))) {
      throw new NotFoundException(NO_SUCH_DS);
    }
    const job = await this.insertJob(ds.id, body.regex!, body.startTime!, hours, REFRESH, user);
    const end = new Date(job.startTime.getTime() + hours * HOUR_MS);
    return {
      job,
      warnings: await this.duplicates(ds.id, job.startTime, job.assetUrl, hours),
      success: `Invalidation request created for ${job.assetUrl}, start:${goTimeString(job.startTime)} end ${goTimeString(end)}`,
    };
  }

  /** PUT jobs?id=, 4.0 and later. */
  async updateV4(id: number, deferred: DeferredBody<JobV4Body>, user: CurrentUser): Promise<JobWrite> {
    return this.dataSource.transaction(async (manager) => {
      const job = await this.loadForUpdate(manager, id, user);
      const input = await deferred.read();
      const structural = ozzoErrors([
        ['deliveryService', blank(input.deliveryService)],
        ['assetUrl', blank(input.assetUrl) ?? (isUrl(input.assetUrl) ? undefined : 'must be a valid URL')],
        ['createdBy', blank(input.createdBy)],
        ['id', blank(input.id)],
        ['ttlHours', blank(input.ttlHours)],
        ['startTime', input.startTime ? undefined : 'cannot be blank'],
        [
          'invalidationType',
          blank(input.invalidationType) ??
            ([REFRESH, REFETCH].includes(input.invalidationType) ? undefined : TYPE_RULE),
        ],
      ]);
      this.checkStartWindow(structural, input.startTime);
      this.checkUnchangeable(job, input);
      if (job.invalidationType !== input.invalidationType && input.invalidationType === REFETCH) {
        if (!(await this.refetchAllowed(manager))) {
          throw new BadRequestException('Invalidation Type REFETCH is disallowed');
        }
      }
      const ttlHours = Math.min(input.ttlHours, MAX_TTL_HOURS);
      await manager.update(
        Job,
        { id },
        {
          assetUrl: input.assetUrl,
          ttlHours,
          startTime: input.startTime!,
          invalidationType: input.invalidationType,
        },
      );
      await this.flagServers(manager, job.dsId);
      const updated = await this.load(manager, id);
      const end = new Date(updated.startTime.getTime() + updated.ttlHours * HOUR_MS);
      return {
        job: updated,
        warnings: await this.duplicates(job.dsId, input.startTime!, input.assetUrl, ttlHours, manager),
        success: `Invalidation request created for ${updated.assetUrl}, start: ${goTimeString(updated.startTime)} end: ${goTimeString(end)} invalidation type: ${updated.invalidationType}`,
      };
    });
  }

  /** PUT jobs?id=, 3.x: the TTL from `parameters` (`TTL:<hours>h`). */
  async updateV3(rawId: string, deferred: DeferredBody<JobV3Body>, user: CurrentUser): Promise<JobWrite> {
    const id = /^\d{1,9}$/.test(rawId) ? Number(rawId) : undefined;
    if (id === undefined) {
      throw new NotFoundException(`No job by id '${rawId}'!`);
    }
    return this.dataSource.transaction(async (manager) => {
      const job = await this.loadForUpdate(manager, id, user);
      const input = await deferred.read();
      const structural = ozzoErrors([
        ['assetUrl', blank(input.assetUrl) ?? (isUrl(input.assetUrl!) ? undefined : 'must be a valid URL')],
        ['createdBy', blank(input.createdBy)],
        ['deliveryService', blank(input.deliveryService)],
        ['id', blank(input.id)],
        ['keyword', blank(input.keyword)],
        ['parameters', blank(input.parameters)],
      ]);
      this.checkStartWindow(structural, input.startTime);
      this.checkUnchangeable(job, {
        assetUrl: input.assetUrl!,
        deliveryService: input.deliveryService!,
        createdBy: input.createdBy!,
        id: input.id!,
      });
      const ttlText = input.parameters!.replace(/^TTL:/, '').replace(/h$/, '');
      if (!/^\d{1,7}$/.test(ttlText) || Number(ttlText) > MAX_TTL_HOURS) {
        throw new BadRequestException("parameters: must be of the form 'TTL:<hours>h'");
      }
      await manager.update(
        Job,
        { id },
        { assetUrl: input.assetUrl!, ttlHours: Number(ttlText), startTime: input.startTime! },
      );
      await this.flagServers(manager, job.dsId);
      const updated = await this.load(manager, id);
      const hours = legacyTtlHours(input.parameters!);
      const end = new Date(updated.startTime.getTime() + hours * HOUR_MS);
      return {
        job: updated,
        warnings: await this.duplicates(job.dsId, input.startTime!, input.assetUrl!, hours, manager),
        success: `Invalidation request created for ${updated.assetUrl}, start:${goTimeString(updated.startTime)} end ${goTimeString(end)}`,
      };
    });
  }

  /** DELETE jobs?id= (every version). */
  async remove(id: number, user: CurrentUser): Promise<JobView> {
    return this.dataSource.transaction(async (manager) => {
      const row = await manager.findOne(Job, { where: { id }, lock: writeLock(this.dataSource) });
      if (!row) {
        throw new NotFoundException(`No job by id '${id}'!`);
      }
      const ds =
        row.deliveryServiceId === null
          ? null
          : await this.deliveryService(manager, { id: row.deliveryServiceId });
      if (!ds || !(await this.tenancy.isWithinReach(user.tenantId, ds.tenantId, manager))) {
        throw new NotFoundException(NO_SUCH_DS);
      }
      if (!(await this.creatorWithinReach(manager, row.userId, user))) {
        throw new NotFoundException(`No job by id '${id}'!`);
      }
      const job = await this.load(manager, id);
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
    const row = await this.query(manager)
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
    return this.dataSource.transaction(async (manager) => {
      const origin = await this.originUrl(manager, dsId);
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
      return this.load(manager, id);
    });
  }

  /** The flags of the servers that apply the delivery service's jobs (`use_reval_pending`, GLOBAL). */
  private async flagServers(manager: EntityManager, dsId: number): Promise<void> {
    const useReval = (await this.parameter(manager, 'use_reval_pending', 'global')) ?? '0';
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

  /** The 3.x `deliveryService`: its id, or the original's text of why it names none. */
  private async deliveryServiceOfV3(manager: EntityManager, value: unknown): Promise<number | string> {
    if (typeof value === 'number') {
      if (value < 0) {
        return 'Delivery Service ID cannot be negative';
      }
      const id = Math.trunc(value);
      const ds = id <= 2147483647 ? await this.deliveryService(manager, { id }) : null;
      return ds ? ds.id : `No Delivery Service exists matching identifier: ${value}`;
    }
    if (typeof value === 'string') {
      const ds = await this.deliveryService(manager, { xmlId: value });
      return ds ? ds.id : `No DeliveryService exists matching identifier: ${value}`;
    }
    return 'Unknown error occurred';
  }

  private async deliveryService(
    manager: EntityManager,
    key: { id: number } | { xmlId: string },
  ): Promise<{ id: number; tenantId: number } | null> {
    const [row] = await manager.query<{ id: number | string; tenant_id: number | string }[]>(
      'id' in key
        ? 'SELECT id, tenant_id FROM deliveryservice WHERE id = ?'
        : 'SELECT id, tenant_id FROM deliveryservice WHERE xml_id = ?',
      ['id' in key ? key.id : key.xmlId],
    );
    return row ? { id: Number(row.id), tenantId: Number(row.tenant_id) } : null;
  }

  private async originUrl(manager: EntityManager, dsId: number): Promise<string | undefined> {
    const [origin] = await manager.query<{ protocol: string; fqdn: string; port: number | string | null }[]>(
      'SELECT protocol, fqdn, port FROM origin WHERE deliveryservice = ? AND is_primary = 1',
      [dsId],
    );
    if (!origin) {
      return undefined;
    }
    return `${origin.protocol}://${origin.fqdn}${origin.port === null ? '' : `:${origin.port}`}`;
  }

  private async parameter(
    manager: EntityManager,
    name: string,
    configFile: string,
  ): Promise<string | undefined> {
    const [row] = await manager.query<{ value: string }[]>(
      'SELECT value FROM parameter WHERE name = ? AND config_file = ? ORDER BY id LIMIT 1',
      [name, configFile],
    );
    return row?.value;
  }

  /** `maxRevalDurationDays` (regex_revalidate.config) in hours; undefined when missing or not a number. */
  private async maxRevalHours(manager: EntityManager): Promise<number | undefined> {
    const value = await this.parameter(manager, 'maxRevalDurationDays', 'regex_revalidate.config');
    return value !== undefined && /^\d{1,15}$/.test(value)
      ? Math.min(Number(value) * 24, MAX_TTL_HOURS)
      : undefined;
  }

  /** `refetch_enabled` (GLOBAL) is a case-insensitive `true`. */
  private async refetchAllowed(manager: EntityManager): Promise<boolean> {
    const value = await this.parameter(manager, 'refetch_enabled', 'global');
    return value?.trim().toLowerCase() === 'true';
  }

  private async load(manager: EntityManager, id: number): Promise<JobView> {
    const row = await this.query(manager).where('job.id = :id', { id }).getRawOne<JobRow>();
    return toView(row!);
  }

  private query(manager: EntityManager) {
    return manager
      .createQueryBuilder()
      .select('job.id', 'id')
      .addSelect('job.asset_url', 'assetUrl')
      .addSelect('u.username', 'createdBy')
      .addSelect('ds.xml_id', 'deliveryService')
      .addSelect('job.ttl_hr', 'ttlHours')
      .addSelect('job.invalidation_type', 'invalidationType')
      .addSelect('job.start_time', 'startTime')
      .from('job', 'job')
      .innerJoin('tm_user', 'u', 'u.id = job.job_user')
      .innerJoin('deliveryservice', 'ds', 'ds.id = job.job_deliveryservice');
  }
}

/** A UTC time as both databases compare it with a DATETIME column: `YYYY-MM-DD HH:MM:SS.sss`. */
function sqlDateTime(date: Date): string {
  return date.toISOString().replace('T', ' ').replace('Z', '');
}

function toView(row: JobRow): JobView {
  return {
    id: Number(row.id),
    assetUrl: row.assetUrl,
    createdBy: row.createdBy,
    deliveryService: row.deliveryService ?? '',
    ttlHours: Number(row.ttlHours ?? 0),
    invalidationType: row.invalidationType,
    startTime: toDate(row.startTime),
  };
}

/** ozzo's Required on a JSON value of any type: absent, null, 0, '', false, [] and {} are blank. */
function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null || value === 0 || value === '' || value === false) {
    return true;
  }
  if (Array.isArray(value)) {
    return value.length === 0;
  }
  return typeof value === 'object' && Object.keys(value).length === 0;
}

/** A 3.x `ttl` in whole hours (lib/go-tc InvalidationJobInput.TTLHours); undefined when invalid. */
function ttlHoursOf(ttl: unknown): number | undefined {
  if (typeof ttl === 'number') {
    if (ttl < 0 || ttl >= MAX_TTL_HOURS) {
      return undefined;
    }
    return Math.trunc(ttl);
  }
  if (typeof ttl === 'string') {
    const ns = parseGoDuration(ttl);
    if (ns === undefined || ns < 3600e9) {
      return undefined;
    }
    return Math.trunc(ns / 3600e9);
  }
  return undefined;
}

/** The hours of a 3.x `parameters` text `TTL:<n>h`, 0 when it is not one (lib/go-tc InvalidationJob.TTLHours). */
function legacyTtlHours(parameters: string): number {
  const parts = parameters.split(':');
  if (parts.length !== 2) {
    return 0;
  }
  const hours = parts[1].slice(0, -1);
  return /^[+-]?\d+$/.test(hours) ? Math.max(0, Number(hours)) : 0;
}
