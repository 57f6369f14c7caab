import { num, placeholders, ROUTED_STATUSES, str } from './snapshot-queries';

/* The constants and small helpers the CRConfig's parts share (crconfig.builder.ts and its parts). */

export const STATUS_LIST = placeholders(ROUTED_STATUSES);
export const ALL_LOCALIZATION_METHODS = ['GEO', 'CZ', 'DEEP_CZ'];
export const DEFAULT_WEIGHT = 0.999;
export const DEFAULT_WEIGHT_MULTIPLIER = 1000;
export const SOA_ADMIN = 'traffic_ops';
export const SOA = { expire: 604800, minimum: 30, refresh: 28800, retry: 7200 };
export const DEFAULT_TLD_TTL_SOA = 86400;
export const DEFAULT_TLD_TTL_NS = 3600;
export const GEO_PROVIDER = 'maxmindGeolocationService';
export const ANY_MAP = 'ANY_MAP';

export const isDnsType = (type: string): boolean => type.startsWith('DNS');
export const category = (type: string): 'DNS' | 'HTTP' => (isDnsType(type) ? 'DNS' : 'HTTP');
export const tf = (value: boolean): string => (value ? 'true' : 'false');

export function group(list: Record<string, unknown>[], key: string, value: string): Map<number, string[]> {
  const out = new Map<number, string[]>();
  for (const row of list) {
    const id = num(row[key]);
    out.set(id, [...(out.get(id) ?? []), str(row[value])]);
  }
  return out;
}
