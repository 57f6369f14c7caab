import type { DataSource } from 'typeorm';
import { processLogger } from 'src/common/logging/logger';
import type { MatchListEntry } from 'src/modules/delivery-services/core/delivery-service-match-list';

/*
 * The reads of the DNSSEC keys service: CDNs, their delivery services and match lists, and the
 * parameters it uses.
 */

/** Traffic Router's default DS TTL, used when the CDN's snapshot names none (DefaultDSTTL). */
const DEFAULT_DS_TTL_SECONDS = 60;

export interface CdnRow {
  id: number;
  name: string;
  domainName: string;
  dnssecEnabled: boolean;
}

export interface CdnDeliveryService {
  xmlId: string;
  protocol: number | null;
  typeName: string;
  routingName: string;
}

/** Every CDN, by name. */
export async function allCdns(dataSource: DataSource): Promise<CdnRow[]> {
  return (
    await dataSource.query<Record<string, unknown>[]>(
      'SELECT id, name, domain_name AS domainName, dnssec_enabled AS dnssecEnabled FROM cdn ORDER BY name',
    )
  ).map(toCdnRow);
}

export async function cdnByName(dataSource: DataSource, name: string): Promise<CdnRow | undefined> {
  const [row] = await dataSource.query<Record<string, unknown>[]>(
    'SELECT id, name, domain_name AS domainName, dnssec_enabled AS dnssecEnabled FROM cdn WHERE name = ?',
    [name],
  );
  return row ? toCdnRow(row) : undefined;
}

export async function cdnDeliveryServices(
  dataSource: DataSource,
  cdnName: string,
): Promise<CdnDeliveryService[]> {
  const rows = await dataSource.query<Record<string, unknown>[]>(
    'SELECT ds.xml_id AS xmlId, ds.protocol AS protocol, t.name AS typeName, ds.routing_name AS routingName ' +
      'FROM deliveryservice ds JOIN cdn c ON c.id = ds.cdn_id JOIN type t ON t.id = ds.type ' +
      'WHERE c.name = ? ORDER BY ds.xml_id',
    [cdnName],
  );
  return rows.map((row) => ({
    xmlId: String(row.xmlId),
    protocol: row.protocol === null ? null : Number(row.protocol),
    typeName: String(row.typeName),
    routingName: String(row.routingName),
  }));
}

/** GetDeliveryServicesMatchLists: each delivery service's regexes by set number. */
export async function matchListsOf(
  dataSource: DataSource,
  xmlIds: string[],
): Promise<Map<string, MatchListEntry[]>> {
  const lists = new Map<string, MatchListEntry[]>();
  if (xmlIds.length === 0) {
    return lists;
  }
  const rows = await dataSource.query<Record<string, unknown>[]>(
    'SELECT ds.xml_id AS xmlId, t.name AS type, r.pattern AS pattern, COALESCE(dsr.set_number, 0) AS setNumber ' +
      'FROM regex r JOIN deliveryservice_regex dsr ON dsr.regex = r.id ' +
      'JOIN deliveryservice ds ON ds.id = dsr.deliveryservice JOIN type t ON t.id = r.type ' +
      `WHERE ds.xml_id IN (${xmlIds.map(() => '?').join(', ')}) ORDER BY dsr.set_number, r.id`,
    xmlIds,
  );
  for (const row of rows) {
    const xmlId = String(row.xmlId);
    const list = lists.get(xmlId) ?? [];
    list.push({ type: String(row.type), pattern: String(row.pattern), setNumber: Number(row.setNumber) });
    lists.set(xmlId, list);
  }
  return lists;
}

/** GetDSRecordTTL: `config.ttls.DS` of the CDN's snapshot, else Traffic Router's default. */
export async function dsRecordTtl(dataSource: DataSource, cdnName: string): Promise<number> {
  const [row] = await dataSource.query<{ crconfig: string }[]>(
    'SELECT crconfig FROM snapshot WHERE cdn = ?',
    [cdnName],
  );
  let value: unknown;
  try {
    const crconfig = row ? (JSON.parse(row.crconfig) as { config?: { ttls?: Record<string, unknown> } }) : {};
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
 * tld.ttls.DNSKEY, DNSKEY.generation.multiplier and DNSKEY.effective.multiplier of the CDN's router
 * profile, each defaulting to the refresh's default (60 s, 10, 10) without the parameter.
 */
export async function refreshParams(
  dataSource: DataSource,
  cdnId: number,
): Promise<{ ttl: number; generationMultiplier: number; effectiveMultiplier: number }> {
  const rows = await dataSource.query<{ name: string; value: string }[]>(
    'SELECT pa.name AS name, pa.value AS value FROM parameter pa ' +
      'JOIN profile_parameter pp ON pp.parameter = pa.id ' +
      "WHERE pp.profile = (SELECT MAX(p.id) FROM profile p WHERE p.cdn = ? AND p.type = 'TR_PROFILE') " +
      "AND pa.name IN ('tld.ttls.DNSKEY', 'DNSKEY.generation.multiplier', 'DNSKEY.effective.multiplier') " +
      'ORDER BY pa.id',
    [cdnId],
  );
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

function toCdnRow(row: Record<string, unknown>): CdnRow {
  return {
    id: Number(row.id),
    name: String(row.name),
    domainName: String(row.domainName),
    dnssecEnabled: row.dnssecEnabled === true || Number(row.dnssecEnabled) === 1,
  };
}
