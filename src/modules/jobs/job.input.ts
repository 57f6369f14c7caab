import type { JobView } from './dto/job.response';

/**
 * A new job, whichever version's body asked for it (the controller converts each version's body,
 * job-versions.ts); the service applies the rules that need the database.
 */
export interface JobCreateInput {
  /**
   * The delivery service: by xmlId (missing or out of reach: 404 with `JobWording.notFound`), or by
   * an identifier, an id (a number) or an xmlId (a string), whose absence is a problem of the body.
   */
  deliveryService: { xmlId: string } | { identifier: unknown };
  regex: string;
  /** Present whenever `problems` are empty. */
  startTime: Date | undefined;
  ttlHours: number;
  invalidationType: string;
  /** The body's own problems, in its version's words: those listed before the delivery service's lookup and after it. */
  problems: { beforeLookup: string[]; afterLookup: string[] };
}

/** A job's new state, whichever version's body gave it; the unchangeable fields are compared with the job's. */
export interface JobUpdateInput {
  id: number;
  assetUrl: string;
  createdBy: string;
  deliveryService: string;
  startTime: Date | undefined;
  /** The body's own problems (ozzo's text), answered with those of the start window. */
  structural: string | undefined;
  /** The TTL to store, or what is wrong with the body's (answered after the unchangeable fields). */
  ttlHours: number | { problem: string };
  /** The hours the duplicate check and the success text's end count with. */
  windowHours: number;
  /** The new type; undefined: the job keeps its own. */
  invalidationType: string | undefined;
}

/** The words of a job write that differ between versions (picked by the controller). */
export interface JobWording {
  /** The TTL against `maxRevalDurationDays` in hours (undefined when that parameter is unusable). */
  ttlProblem(hours: number, maxHours: number | undefined): string | undefined;
  /** A delivery service named by xmlId that is missing or out of reach. */
  notFound: string;
  created(job: JobView, end: Date): string;
  updated(job: JobView, end: Date): string;
}
