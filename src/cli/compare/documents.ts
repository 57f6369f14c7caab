/**
 * The per-CDN documents `compare` reads on both APIs: the snapshot a CDN would have if taken now and
 * its monitoring configuration (what Traffic Router and Traffic Monitor load). They are compared leaf
 * by leaf: every primitive value is named by its path (`contentServers.edge-1.ip6`), arrays of
 * objects are matched by their name field (`trafficServers[edge-1].ip6`), other arrays as sets.
 */

type Json = unknown;

/** The documents of one CDN, as paths under `/api/<version>/`. */
export function documentPaths(cdn: string): string[] {
  const name = encodeURIComponent(cdn);
  return [`cdns/${name}/snapshot/new`, `cdns/${name}/configs/monitoring`];
}

/**
 * Leaves that say which instance made the document and when, not what it holds: the moment it was
 * computed, the Traffic Ops host (`tm.url`'s) and the software's version.
 */
const INSTANCE_LEAVES = new Set(['stats.date', 'stats.tm_host', 'stats.tm_version']);

/** The fields that name an element of an array of objects, most telling first (ids differ). */
const ELEMENT_NAMES = ['hostName', 'hostname', 'xmlId', 'name', 'id'];

function isObject(value: Json): value is Record<string, Json> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Equal JSON values, objects' keys in any order. */
export function canonical(value: Json): string {
  return JSON.stringify(value, (_key, v: Json) =>
    isObject(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v,
  );
}

/** The field naming every element of `items`, when one does so uniquely. */
function namingField(items: Json[]): string | undefined {
  return ELEMENT_NAMES.find((field) => {
    const names = items.map((item) => (isObject(item) ? item[field] : undefined));
    return (
      names.every((n) => typeof n === 'string' || typeof n === 'number') &&
      new Set(names).size === names.length
    );
  });
}

/** Every leaf of a document by its path, its value in canonical JSON. */
export function leavesOf(value: Json, path = '', out = new Map<string, string>()): Map<string, string> {
  if (Array.isArray(value)) {
    const field = value.length > 0 ? namingField(value) : undefined;
    if (field === undefined) {
      // An array without names is a set: its elements in canonical order, each a leaf.
      const elements = value.map(canonical).sort();
      elements.forEach((element, i) => out.set(`${path}[${i}]`, element));
      if (elements.length === 0) {
        out.set(path, '[]');
      }
      return out;
    }
    for (const item of value as Record<string, Json>[]) {
      leavesOf(item, `${path}[${String(item[field])}]`, out);
    }
    return out;
  }
  if (isObject(value)) {
    const entries = Object.entries(value);
    if (entries.length === 0) {
      out.set(path, '{}');
    }
    for (const [key, child] of entries) {
      leavesOf(child, path === '' ? key : `${path}.${key}`, out);
    }
    return out;
  }
  out.set(path, canonical(value));
  return out;
}

/** How many differing leaves of one document are printed; the rest are counted. */
const SHOWN = 40;

/** The differing leaves of two documents, as report lines (none when they agree). */
export function compareDocuments(other: Json, self: Json): string[] {
  const [there, here] = [leavesOf(other), leavesOf(self)];
  const paths = [...new Set([...there.keys(), ...here.keys()])].sort();
  const differ = paths.filter((p) => !INSTANCE_LEAVES.has(p) && there.get(p) !== here.get(p));
  const lines = differ
    .slice(0, SHOWN)
    .map((p) => `  ${p}: ${there.get(p) ?? '(absent)'} ≠ ${here.get(p) ?? '(absent)'}`);
  if (differ.length > SHOWN) {
    lines.push(`  (+${differ.length - SHOWN} more leaves differ)`);
  }
  return lines;
}
