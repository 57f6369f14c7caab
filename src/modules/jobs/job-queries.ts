import type { EntityManager } from 'typeorm';
import { toDate } from 'src/common/time/timestamps';
import type { JobView } from './dto/job.response';
import { MAX_TTL_HOURS } from './job-rules';

/*
 * The reads of the jobs service: a job with its creator and delivery service, and the parameters
 * its rules use.
 */

export interface JobRow {
  id: number | string;
  assetUrl: string;
  createdBy: string;
  deliveryService: string | null;
  ttlHours: number | string | null;
  invalidationType: string;
  startTime: Date | string;
}

export async function deliveryServiceOf(
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

export async function originUrl(manager: EntityManager, dsId: number): Promise<string | undefined> {
  const [origin] = await manager.query<{ protocol: string; fqdn: string; port: number | string | null }[]>(
    'SELECT protocol, fqdn, port FROM origin WHERE deliveryservice = ? AND is_primary = 1',
    [dsId],
  );
  if (!origin) {
    return undefined;
  }
  return `${origin.protocol}://${origin.fqdn}${origin.port === null ? '' : `:${origin.port}`}`;
}

export async function parameter(
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
export async function maxRevalHours(manager: EntityManager): Promise<number | undefined> {
  const value = await parameter(manager, 'maxRevalDurationDays', 'regex_revalidate.config');
  return value !== undefined && /^\d{1,15}$/.test(value)
    ? Math.min(Number(value) * 24, MAX_TTL_HOURS)
    : undefined;
}

/** `refetch_enabled` (GLOBAL) is a case-insensitive `true`. */
export async function refetchAllowed(manager: EntityManager): Promise<boolean> {
  const value = await parameter(manager, 'refetch_enabled', 'global');
  return value?.trim().toLowerCase() === 'true';
}

export async function loadJob(manager: EntityManager, id: number): Promise<JobView> {
  const row = await jobQuery(manager).where('job.id = :id', { id }).getRawOne<JobRow>();
  return toView(row!);
}

export function jobQuery(manager: EntityManager) {
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

/** A UTC time as both databases compare it with a DATETIME column: `YYYY-MM-DD HH:MM:SS.sss`. */
export function sqlDateTime(date: Date): string {
  return date.toISOString().replace('T', ' ').replace('Z', '');
}

export function toView(row: JobRow): JobView {
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
