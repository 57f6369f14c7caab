import type { SnapshotsRepository } from './snapshots.repository';
import type { StaticDnsEntriesReader } from './crconfig.builder';
import type {
  CRConfigBypassDestination,
  CRConfigDeliveryService,
  CRConfigMatchSet,
  CRConfigProtocol,
  CRConfigSoa,
} from './dto/crconfig.response';
import {
  category,
  DEFAULT_TLD_TTL_NS,
  DEFAULT_TLD_TTL_SOA,
  GEO_PROVIDER,
  group,
  SOA,
  SOA_ADMIN,
  tf,
} from './crconfig-parts';
import { bool, type CdnRow, num, numOrNull, sortedObject, str, strOrNull } from './snapshot-queries';

/* The CRConfig's delivery services, read with a fixed number of queries over the whole CDN. */

export async function crConfigDeliveryServices(
  snapshots: SnapshotsRepository,
  readStaticDnsEntries: StaticDnsEntriesReader,
  cdn: CdnRow,
): Promise<Record<string, CRConfigDeliveryService>> {
  const override = cdn.ttlOverride !== null && cdn.ttlOverride > 0 ? cdn.ttlOverride : undefined;
  const capped = (seconds: number): number =>
    override === undefined ? seconds : Math.min(override, seconds);
  const soa: CRConfigSoa = {
    admin: SOA_ADMIN,
    expire: String(capped(SOA.expire)),
    minimum: String(capped(SOA.minimum)),
    refresh: String(capped(SOA.refresh)),
    retry: String(capped(SOA.retry)),
  };
  const dsParams = await dsParamsOf(snapshots, cdn);
  const { matchsets, domains } = await matchsetsOf(snapshots, cdn);
  const staticDnsEntries = await readStaticDnsEntries(cdn.id, cdn.ttlOverride);
  const queryParams = group(await snapshots.consistentHashQueryParams(cdn.id), 'deliveryservice_id', 'name');
  const dsRows = await snapshots.routedDeliveryServices(cdn.id);
  const out = new Map<string, CRConfigDeliveryService>();
  for (const row of dsRows) {
    const xmlId = str(row.xml_id);
    const type = str(row.type);
    const protocolKind = category(type);
    const ttl = numOrNull(row.ccr_dns_ttl);
    const cappedTtl = ttl === null ? null : capped(ttl);
    const protocol = protocolOf(numOrNull(row.protocol));
    const geoLimit = numOrNull(row.geo_limit) ?? 0;
    const redirectUrl = str(row.geolimit_redirect_url);
    let ns = DEFAULT_TLD_TTL_NS;
    let soaTtl = DEFAULT_TLD_TTL_SOA;
    if (row.profile !== null && row.profile !== undefined) {
      const soaParam = dsParams.get('tld.ttls.SOA');
      const nsParam = dsParams.get('tld.ttls.NS');
      if (soaParam !== undefined && /^[+-]?\d+$/.test(soaParam)) {
        soaTtl = Number(soaParam);
      }
      if (nsParam !== undefined && /^[+-]?\d+$/.test(nsParam)) {
        ns = Number(nsParam);
      }
    }
    const ds: CRConfigDeliveryService = {} as CRConfigDeliveryService;
    let bypass: Record<string, CRConfigBypassDestination> | undefined;
    if (protocolKind === 'HTTP') {
      ds.anonymousBlockingEnabled = tf(bool(row.anonymous_blocking_enabled));
      const fqdn = str(row.http_bypass_fqdn);
      if (fqdn !== '') {
        const [host, port] = fqdn.split(':');
        bypass = { HTTP: { fqdn: host, ...(port === undefined ? {} : { port }) } };
      }
    } else {
      const destination: CRConfigBypassDestination = {};
      if (str(row.dns_bypass_ip) !== '') {
        destination.ip = str(row.dns_bypass_ip);
      }
      if (str(row.dns_bypass_ip6) !== '') {
        destination.ip6 = str(row.dns_bypass_ip6);
      }
      if (str(row.dns_bypass_cname) !== '') {
        destination.cname = str(row.dns_bypass_cname);
      }
      const bypassTtl = numOrNull(row.dns_bypass_ttl);
      if (bypassTtl !== null) {
        destination.ttl = capped(bypassTtl);
      }
      if (Object.keys(destination).length > 0) {
        bypass = { DNS: destination };
      }
    }
    if (bypass) {
      ds.bypassDestination = bypass;
    }
    const hashParams = queryParams.get(num(row.id));
    if (hashParams) {
      ds.consistentHashQueryParams = hashParams;
    }
    const hashRegex = str(row.consistent_hash_regex);
    if (hashRegex !== '') {
      ds.consistentHashRegex = hashRegex;
    }
    ds.coverageZoneOnly = tf(geoLimit === 1);
    ds.deepCachingType = deepCachingType(strOrNull(row.deep_caching_type));
    const dispersion = numOrNull(row.initial_dispersion);
    if (protocolKind === 'HTTP' && dispersion !== null) {
      ds.dispersion = { limit: dispersion, shuffled: 'true' };
    }
    const dsDomains = domains.get(xmlId);
    if (dsDomains) {
      ds.domains = dsDomains;
    }
    ds.ecsEnabled = tf(bool(row.ecs_enabled));
    const countries = strOrNull(row.geo_limit_countries);
    if (geoLimit !== 0 && geoLimit !== 1 && countries !== null) {
      ds.geoEnabled = countries.split(',').map((code) => ({ countryCode: code.trim() }));
    }
    if (geoLimit !== 0 && protocolKind === 'HTTP') {
      ds.geoLimitRedirectURL = redirectUrl;
    }
    ds.geolocationProvider = GEO_PROVIDER;
    ds.ip6RoutingEnabled = tf(bool(row.ipv6_routing_enabled));
    const sets = matchsets.get(xmlId);
    if (sets) {
      ds.matchsets = sets;
    }
    const maxDns = numOrNull(row.max_dns_answers);
    if (protocolKind === 'DNS' && maxDns !== null) {
      ds.maxDnsIpsForLocation = maxDns;
    }
    const missLat = numOrNull(row.miss_lat);
    const missLong = numOrNull(row.miss_long);
    if (missLat !== null && missLong !== null) {
      ds.missLocation = { lat: missLat, long: missLong };
    }
    ds.protocol = protocol;
    if (protocolKind === 'HTTP') {
      ds.regionalGeoBlocking = tf(bool(row.regional_geo_blocking));
    }
    const requestHeaders = headerLines(strOrNull(row.tr_request_headers));
    if (requestHeaders) {
      ds.requestHeaders = requestHeaders.map((line) => line.split(':')[0].trim());
    }
    const responseHeaders = headerLines(strOrNull(row.tr_response_headers));
    if (responseHeaders) {
      const headers = new Map<string, string>();
      for (const line of responseHeaders) {
        const parts = line.split(':');
        headers.set(parts[0].trim(), parts.length > 1 ? trimChars(parts[1], ' \n"') : '');
      }
      ds.responseHeaders = sortedObject(headers);
    }
    ds.routingName = str(row.routing_name);
    ds.soa = soa;
    ds.sslEnabled = protocol.acceptHttps;
    const entries = staticDnsEntries.get(xmlId);
    if (entries) {
      ds.staticDnsEntries = entries;
    }
    const topology = strOrNull(row.topology);
    if (topology !== null) {
      ds.topology = topology;
    }
    if (cappedTtl !== null) {
      ds.ttl = cappedTtl;
    }
    const ttlText = cappedTtl === null ? '' : String(cappedTtl);
    ds.ttls = { A: ttlText, AAAA: ttlText, NS: String(capped(ns)), SOA: String(capped(soaTtl)) };
    out.set(xmlId, ds);
  }
  return sortedObject(out);
}

/** tld.ttls.SOA and tld.ttls.NS of the profiles of the CDN's servers (the first found of each). */
async function dsParamsOf(snapshots: SnapshotsRepository, cdn: CdnRow): Promise<Map<string, string>> {
  const params = await snapshots.tldTtlParameters(cdn.id);
  const out = new Map<string, string>();
  for (const row of params) {
    if (!out.has(str(row.name))) {
      out.set(str(row.name), str(row.value));
    }
  }
  return out;
}

/**
 * Each regex of an active delivery service is one match set (by set number); a regex type other
 * than HOST, PATH or HEADER gives `null`. HOST_REGEXPs of set number 0 name the domains.
 */
async function matchsetsOf(
  snapshots: SnapshotsRepository,
  cdn: CdnRow,
): Promise<{ matchsets: Map<string, (CRConfigMatchSet | null)[]>; domains: Map<string, string[]> }> {
  const regexes = await snapshots.activeRegexes(cdn.id);
  const matchsets = new Map<string, (CRConfigMatchSet | null)[]>();
  const domains = new Map<string, string[]>();
  const matchTypes: Record<string, string> = {
    HOST_REGEXP: 'HOST',
    PATH_REGEXP: 'PATH',
    HEADER_REGEXP: 'HEADER',
  };
  for (const row of regexes) {
    const xmlId = str(row.xml_id);
    const pattern = str(row.pattern);
    const type = str(row.type);
    const list = matchsets.get(xmlId) ?? [];
    const matchType = matchTypes[type];
    list.push(
      matchType
        ? { protocol: category(str(row.ds_type)), matchlist: [{ regex: pattern, 'match-type': matchType }] }
        : null,
    );
    matchsets.set(xmlId, list);
    if (type === 'HOST_REGEXP' && (numOrNull(row.set_number) ?? 0) === 0) {
      const host = pattern.replaceAll('\\', '').replaceAll('.*', '').replaceAll('.', '');
      domains.set(xmlId, [...(domains.get(xmlId) ?? []), `${host}.${cdn.domainName}`]);
    }
  }
  return { matchsets, domains };
}

function protocolOf(protocol: number | null): CRConfigProtocol {
  switch (protocol) {
    case 1:
      return { acceptHttp: 'false', acceptHttps: 'true', redirectToHttps: 'false' };
    case 2:
      return { acceptHttps: 'true', redirectToHttps: 'false' };
    case 3:
      return { acceptHttps: 'true', redirectToHttps: 'true' };
    default:
      return { acceptHttps: 'false', redirectToHttps: 'false' };
  }
}

function deepCachingType(value: string | null): string {
  switch ((value ?? '').toLowerCase()) {
    case 'always':
      return 'ALWAYS';
    case 'never':
    case '':
      return 'NEVER';
    default:
      return 'INVALID';
  }
}

/** The lines of a header list the original stores with `__RETURN__` or newlines between them. */
function headerLines(value: string | null): string[] | undefined {
  if (value === null || value === '') {
    return undefined;
  }
  return value.replaceAll('__RETURN__', '\n').split('\n');
}

function trimChars(value: string, chars: string): string {
  let start = 0;
  let end = value.length;
  while (start < end && chars.includes(value[start])) {
    start++;
  }
  while (end > start && chars.includes(value[end - 1])) {
    end--;
  }
  return value.slice(start, end);
}
