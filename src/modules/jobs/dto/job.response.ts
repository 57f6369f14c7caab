import { byVersion } from 'src/common/wire/by-version';

/** A job as the service reads it: the row with its creator's name and its delivery service's xmlId. */
export interface JobView {
  id: number;
  assetUrl: string;
  createdBy: string;
  deliveryService: string;
  ttlHours: number;
  invalidationType: string;
  startTime: Date;
}

/** API 3.x (lib/go-tc InvalidationJob): the TTL as `TTL:<hours>h`; `startTime` as `lastUpdated` is written. */
export interface InvalidationJobV3 {
  assetUrl: string;
  createdBy: string;
  deliveryService: string;
  id: number;
  keyword: 'PURGE';
  parameters: string;
  startTime: Date;
}

/**
 * API 4.0 and later (lib/go-tc InvalidationJobV4): `startTime` is a Go time.Time, RFC 3339 (the
 * controller's `@WireTimes`).
 */
export interface InvalidationJobV4 {
  id: number;
  assetUrl: string;
  createdBy: string;
  deliveryService: string;
  ttlHours: number;
  invalidationType: string;
  startTime: Date;
}

export const ttlParameter = (hours: number): string => `TTL:${hours}h`;

const toV3 = (job: JobView): InvalidationJobV3 => ({
  assetUrl: job.assetUrl,
  createdBy: job.createdBy,
  deliveryService: job.deliveryService,
  id: job.id,
  keyword: 'PURGE',
  parameters: ttlParameter(job.ttlHours),
  startTime: job.startTime,
});

const toV4 = (job: JobView): InvalidationJobV4 => ({
  id: job.id,
  assetUrl: job.assetUrl,
  createdBy: job.createdBy,
  deliveryService: job.deliveryService,
  ttlHours: job.ttlHours,
  invalidationType: job.invalidationType,
  startTime: job.startTime,
});

export const toJobResponse = byVersion<JobView, InvalidationJobV3 | InvalidationJobV4>({
  '3.0': toV3,
  '4.0': toV4,
});
