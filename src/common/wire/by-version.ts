import type { ApiVersion, ApiVersionString } from 'src/common/versioning/api-version';
import { formatRfc3339 } from 'src/common/time/timestamps';

/**
 * One resource's wire mappers, one per version where the original's shape changes
 * (docs/decisions.md#d5b). `byVersion({ '3.0': toV3, '5.0': toV5 })` answers, for a requested
 * version, the mapper of the newest listed version not after it: 3.0, 3.1, 4.0 and 4.1 get `toV3`,
 * 5.0 gets `toV5`. Every mapper takes the same row and returns that version's wire type.
 */
export type VersionedMapper<Row, Wire> = (row: Row, version: ApiVersion) => Wire;

export function byVersion<Row, Wire>(
  mappers: Partial<Record<ApiVersionString, (row: Row) => Wire>> & { '3.0': (row: Row) => Wire },
): VersionedMapper<Row, Wire> {
  const ordered = (Object.keys(mappers) as ApiVersionString[])
    .map((key) => ({ key, map: mappers[key]! }))
    .sort((a, b) => compareVersions(b.key, a.key));
  const cache = new Map<string, (row: Row) => Wire>();
  return (row, version) => {
    const text = version.toString();
    let map = cache.get(text);
    if (!map) {
      const found = ordered.find((entry) => version.atLeast(entry.key));
      if (!found) {
        throw new Error(`no wire mapper for version ${text}`);
      }
      map = found.map;
      cache.set(text, map);
    }
    return map(row);
  };
}

function compareVersions(a: string, b: string): number {
  const [aMajor, aMinor] = a.split('.').map(Number);
  const [bMajor, bMinor] = b.split('.').map(Number);
  return aMajor - bMajor || aMinor - bMinor;
}

/**
 * A timestamp the original writes as RFC 3339 (Go `time.Time`, e.g. `2024-05-25T15:59:33.709Z`)
 * rather than in its custom `YYYY-MM-DD HH:MM:SS+00` form (`tc.TimeNoMod`, which the envelope writes
 * for every `Date`, docs/decisions.md#d4). `null` stays `null`.
 */
export function rfc3339(date: Date): string;
export function rfc3339(date: Date | null | undefined): string | null;
export function rfc3339(date: Date | null | undefined): string | null {
  return date ? formatRfc3339(date) : null;
}
