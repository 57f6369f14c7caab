import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { insertRow } from 'src/common/database/insert-rows';
import { writeLock } from 'src/common/database/locks';
import { applyListQuery, type ListQuery } from 'src/common/list-query/list-query';
import { toDate } from 'src/common/time/timestamps';
import { withinTenancy } from 'src/modules/tenants/tenants.repository';
import type { JobView } from './dto/job.response';
import { Job } from './job.entity';

interface JobRow {
  id: number | string;
  assetUrl: string;
  createdBy: string;
  deliveryService: string | null;
  ttlHours: number | string | null;
  invalidationType: string;
  startTime: Date | string;
}

/** One job as an update reads it: with its delivery service, its creator's tenant and primary origin. */
export interface JobForUpdate extends JobView {
  dsId: number;
  dsTenantId: number;
  userTenantId: number;
  originUrl: string;
}

/** The columns a job is written with. */
export type JobColumns = Pick<
  Job,
  'ttlHours' | 'assetUrl' | 'startTime' | 'enteredTime' | 'userId' | 'deliveryServiceId' | 'invalidationType'
>;

/**
 * The job table, and what the jobs' rules read of delivery services, origins, users and parameters:
 * the only file of the module that runs SQL (docs/architecture.md#data-access). Methods taking a
 * `manager` run in the caller's transaction; where it is optional, the data source's is used.
 */
@Injectable()
export class JobsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * The page of jobs on delivery services within the tenant's reach; with `startedSince`, only those
   * started at or after it.
   */
  async list(query: ListQuery, tenantId: number, startedSince?: Date): Promise<JobView[]> {
    const qb = withinTenancy(this.jobQuery(this.dataSource.manager), 'ds.tenant_id', tenantId);
    if (startedSince) {
      qb.andWhere('job.start_time >= :cutoff', { cutoff: sqlDateTime(startedSince) });
    }
    return (await applyListQuery(qb, query).getRawMany<JobRow>()).map(toView);
  }

  /** One job with its creator and delivery service; it must exist. */
  async job(manager: EntityManager, id: number): Promise<JobView> {
    const row = await this.jobQuery(manager).where('job.id = :id', { id }).getRawOne<JobRow>();
    return toView(row!);
  }

  /**
   * The job an update addresses, locked, with its primary origin; undefined when there is no such
   * job or its delivery service has no primary origin.
   */
  async lockedForUpdate(manager: EntityManager, id: number): Promise<JobForUpdate | undefined> {
    await manager.findOne(Job, { select: { id: true }, where: { id }, lock: writeLock(this.dataSource) });
    const row = await this.jobQuery(manager)
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
      return undefined;
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

  /** The job's row, locked for the rest of the unit of work, or null. */
  lockedById(manager: EntityManager, id: number): Promise<Job | null> {
    return manager.findOne(Job, { where: { id }, lock: writeLock(this.dataSource) });
  }

  /** The delivery service's jobs, by id. */
  ofDeliveryService(dsId: number, manager: EntityManager = this.dataSource.manager): Promise<Job[]> {
    return manager.find(Job, { where: { deliveryServiceId: dsId }, order: { id: 'ASC' } });
  }

  /** Adds a job: its id. */
  add(manager: EntityManager, columns: JobColumns): Promise<number> {
    return insertRow(manager, Job, columns);
  }

  /** Changes a job. */
  async change(
    manager: EntityManager,
    id: number,
    columns: Pick<Job, 'assetUrl' | 'ttlHours' | 'startTime'> & Partial<Pick<Job, 'invalidationType'>>,
  ): Promise<void> {
    await manager.update(Job, { id }, columns);
  }

  /** Deletes a job. */
  async remove(manager: EntityManager, id: number): Promise<void> {
    await manager.delete(Job, { id });
  }

  /** A delivery service by id or xmlId, with its tenant, or null. */
  async deliveryService(
    key: { id: number } | { xmlId: string },
    manager: EntityManager = this.dataSource.manager,
  ): Promise<{ id: number; tenantId: number } | null> {
    const [row] = await manager.query<{ id: number | string; tenant_id: number | string }[]>(
      'id' in key
        ? 'SELECT id, tenant_id FROM deliveryservice WHERE id = ?'
        : 'SELECT id, tenant_id FROM deliveryservice WHERE xml_id = ?',
      ['id' in key ? key.id : key.xmlId],
    );
    return row ? { id: Number(row.id), tenantId: Number(row.tenant_id) } : null;
  }

  /** The URL of the delivery service's primary origin, or undefined when it has none. */
  async originUrl(manager: EntityManager, dsId: number): Promise<string | undefined> {
    const [origin] = await manager.query<{ protocol: string; fqdn: string; port: number | string | null }[]>(
      'SELECT protocol, fqdn, port FROM origin WHERE deliveryservice = ? AND is_primary = 1',
      [dsId],
    );
    if (!origin) {
      return undefined;
    }
    return `${origin.protocol}://${origin.fqdn}${origin.port === null ? '' : `:${origin.port}`}`;
  }

  /** A user's tenant: undefined when there is no such user, null when it has none. */
  async userTenant(manager: EntityManager, userId: number): Promise<number | null | undefined> {
    const [user] = await manager.query<{ tenant_id: number | string | null }[]>(
      'SELECT tenant_id FROM tm_user WHERE id = ?',
      [userId],
    );
    return user === undefined ? undefined : user.tenant_id === null ? null : Number(user.tenant_id);
  }

  /** The value of the first parameter (by id) of that name and config file, or undefined. */
  async parameter(
    name: string,
    configFile: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<string | undefined> {
    const [row] = await manager.query<{ value: string }[]>(
      'SELECT value FROM parameter WHERE name = ? AND config_file = ? ORDER BY id LIMIT 1',
      [name, configFile],
    );
    return row?.value;
  }

  private jobQuery(manager: EntityManager) {
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
