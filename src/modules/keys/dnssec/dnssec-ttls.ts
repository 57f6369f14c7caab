import { processLogger } from 'src/common/logging/logger';

/*
 * The TTLs and multipliers the DNSSEC keys service reads from a CDN's snapshot and router profile
 * (dnssec.repository.ts), with the original's defaults.
 */

/** Traffic Router's default DS TTL, used when the CDN's snapshot names none (DefaultDSTTL). */
const DEFAULT_DS_TTL_SECONDS = 60;

/** GetDSRecordTTL: `config.ttls.DS` of the CDN's snapshot (its CRConfig text), else Traffic Router's default. */
export function dsRecordTtl(crconfigText: string | undefined, cdnName: string): number {
  let value: unknown;
  try {
    const crconfig =
      crconfigText !== undefined
        ? (JSON.parse(crconfigText) as { config?: { ttls?: Record<string, unknown> } })
        : {};
    value = crconfig.config?.ttls?.DS;
  } catch {
    value = undefined;
  }
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value : '';
  if (/^\d+$/.test(text) && Number(text) <= 2_147_483_647) {
    return Number(text);
  }
  processLogger().warn(
    `Getting DNSSEC Keys: no DS Record TTL in the CRConfig snapshot of cdn '${cdnName}', using the default ` +
      `${DEFAULT_DS_TTL_SECONDS}s; set the tld.ttls.DS parameter and take a snapshot`,
  );
  return DEFAULT_DS_TTL_SECONDS;
}

/**
 * tld.ttls.DNSKEY, DNSKEY.generation.multiplier and DNSKEY.effective.multiplier from the router
 * profile's parameters, each defaulting to the refresh's default (60 s, 10, 10) without the parameter.
 */
export function refreshParams(rows: { name: string; value: string }[]): {
  ttl: number;
  generationMultiplier: number;
  effectiveMultiplier: number;
} {
  const params = { ttl: 60, generationMultiplier: 10, effectiveMultiplier: 10 };
  for (const { name, value } of rows) {
    if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value))) {
      continue;
    }
    const n = Number(value);
    if (name === 'tld.ttls.DNSKEY') {
      params.ttl = n;
    } else if (name === 'DNSKEY.generation.multiplier') {
      params.generationMultiplier = n;
    } else {
      params.effectiveMultiplier = n;
    }
  }
  return params;
}
