import type { Request } from 'express';

/** The API versions this server answers (docs/decisions.md#d1). */
export const SERVED_VERSIONS = ['3.0', '3.1', '4.0', '4.1', '5.0'] as const;
export type ApiVersionString = (typeof SERVED_VERSIONS)[number];

/** `atLeast`'s arguments, parsed once: they are a handful of literals called per record of a list. */
const COMPARED = new Map<string, ApiVersion>();

export class ApiVersion {
  constructor(
    readonly major: number,
    readonly minor: number,
  ) {}

  static parse(raw: string): ApiVersion | undefined {
    const match = /^(\d+)\.(\d+)$/.exec(raw);
    return match ? new ApiVersion(Number(match[1]), Number(match[2])) : undefined;
  }

  /** True when this version is `version` or later. */
  atLeast(version: string): boolean {
    let other = COMPARED.get(version);
    if (!other) {
      other = ApiVersion.parse(version);
      if (!other) {
        throw new Error(`not a version: ${version}`);
      }
      if (COMPARED.size < 64) {
        COMPARED.set(version, other);
      }
    }
    return this.major > other.major || (this.major === other.major && this.minor >= other.minor);
  }

  toString(): string {
    return `${this.major}.${this.minor}`;
  }
}

/**
 * The versions a route exists in, from the version it was introduced in: every served version from
 * `first` on (a route of X.0 also exists on the later minors of X, docs/decisions.md#d1), up to `last`.
 */
export function versionsFrom(first: ApiVersionString, last?: ApiVersionString): ApiVersionString[] {
  const start = SERVED_VERSIONS.indexOf(first);
  const end = last ? SERVED_VERSIONS.indexOf(last) : SERVED_VERSIONS.length - 1;
  return SERVED_VERSIONS.slice(start, end + 1);
}

export const ALL_VERSIONS = versionsFrom('3.0');

const VERSION_IN_PATH = /^\/api\/(\d+\.\d+)(\/|$)/;

/** The version segment of an `/api/<major>.<minor>/…` path, served or not. */
export function versionInPath(path: string): string | undefined {
  return VERSION_IN_PATH.exec(path)?.[1];
}

/** The version the request addressed; only called for matched (so served) routes. */
export function requestedVersion(req: Pick<Request, 'path'>): ApiVersion {
  const raw = versionInPath(req.path);
  const version = raw === undefined ? undefined : ApiVersion.parse(raw);
  if (!version) {
    throw new Error(`no API version in ${req.path}`);
  }
  return version;
}

export function isServedVersion(raw: string): raw is ApiVersionString {
  return (SERVED_VERSIONS as readonly string[]).includes(raw);
}
