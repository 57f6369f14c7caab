import type { ApiVersion, ApiVersionString } from 'src/common/versioning/api-version';
import { byVersion } from 'src/common/wire/by-version';

/**
 * A version-free value chosen at the edge: the controller picks, for the requested version, the
 * value listed for the newest version not after it (the rule of `byVersion`), and hands the service
 * the value, never the version. `perVersion({ '3.0': a, '5.0': b })` gives `a` to 3.0–4.1 and `b`
 * to 5.0. The values are what changes between versions, said in the service's own terms (a text,
 * an order of checks), so services never import `ApiVersion` (eslint.config.mjs).
 */
export function perVersion<T>(
  values: Partial<Record<ApiVersionString, T>> & { '3.0': T },
): (version: ApiVersion) => T {
  const entries = Object.entries(values) as [ApiVersionString, T][];
  const pick = byVersion<undefined, T>(
    Object.fromEntries(entries.map(([key, value]) => [key, () => value])) as Partial<
      Record<ApiVersionString, () => T>
    > & { '3.0': () => T },
  );
  return (version) => pick(undefined, version);
}
