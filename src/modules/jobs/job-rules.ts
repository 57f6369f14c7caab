import { parseGoDuration } from 'src/common/validation/go-formats';

/*
 * The rules of a job's fields as the original words them (lib/go-tc, ozzo-validation), version-
 * free.
 */

export const REFRESH = 'REFRESH';
export const REFETCH = 'REFETCH';
/** Go's largest duration in hours (lib/go-tc MaxTTL). */
export const MAX_TTL_HOURS = 2562047;
export const TYPE_RULE = `must be either ${REFRESH} or ${REFETCH} (case sensitive)`;

/** The ozzo-validation text of a struct's field errors: `a: x; b: y.` (keys in order). */
export function ozzoErrors(errors: [field: string, problem: string | undefined][]): string | undefined {
  const found = errors.filter(([, problem]) => problem !== undefined).sort(([a], [b]) => (a < b ? -1 : 1));
  return found.length === 0 ? undefined : `${found.map(([f, p]) => `${f}: ${p}`).join('; ')}.`;
}

export const blank = (value: string | number | undefined | null): string | undefined =>
  value === undefined || value === null || value === '' || value === 0 ? 'cannot be blank' : undefined;

/** ozzo's `is.URL` (govalidator.IsURL), near enough: an absolute URL, or a host and path without a scheme. */
export function isUrl(text: string): boolean {
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

export function regexProblem(pattern: string): string | undefined {
  try {
    new RegExp(pattern);
    return undefined;
  } catch (error) {
    return `regex: is not a valid Regular Expression: ${(error as Error).message}`;
  }
}

/** The rule of a regex's start: `/` (or `\/`). */
export const regexStartProblem = (regex: string): string | undefined =>
  regex.startsWith('/') || regex.startsWith('\\/') ? undefined : "must start with '/' (or '\\/')";

/** ozzo's Required on a JSON value of any type: absent, null, 0, '', false, [] and {} are blank. */
export function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null || value === 0 || value === '' || value === false) {
    return true;
  }
  if (Array.isArray(value)) {
    return value.length === 0;
  }
  return typeof value === 'object' && Object.keys(value).length === 0;
}

/** A TTL given as hours or a Go duration, in whole hours (lib/go-tc InvalidationJobInput.TTLHours); undefined when invalid. */
export function ttlHoursOf(ttl: unknown): number | undefined {
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

/** The hours of a `parameters` text `TTL:<n>h`, 0 when it is not one (lib/go-tc InvalidationJob.TTLHours). */
export function legacyTtlHours(parameters: string): number {
  const parts = parameters.split(':');
  if (parts.length !== 2) {
    return 0;
  }
  const hours = parts[1].slice(0, -1);
  return /^[+-]?\d+$/.test(hours) ? Math.max(0, Number(hours)) : 0;
}
