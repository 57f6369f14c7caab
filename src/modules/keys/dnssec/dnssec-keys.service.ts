import { BadRequestException, Injectable, NotFoundException, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { inRequestTransaction } from 'src/common/database/request-transaction';
import type { CurrentUser } from 'src/common/types/current-user';
import { processLogger } from 'src/common/logging/logger';
import { CdnLocksService } from 'src/modules/cdn-locks/cdn-locks.service';
import { ChangeLogService } from 'src/modules/change-log/change-log.service';
import {
  type CreatedDeliveryService,
  DeliveryServicesService,
} from 'src/modules/delivery-services/core/delivery-services.service';
import {
  exampleUrls,
  isDnsType,
  isHttpType,
  isSteeringType,
  type MatchListEntry,
} from 'src/modules/delivery-services/core/delivery-service.validation';
import {
  dsZoneName,
  KEY_STATUS_EXISTING,
  KEY_STATUS_EXPIRED,
  KEY_STATUS_NEW,
  newDnssecKey,
  type StoredDnssecKey,
  type StoredDnssecKeySet,
} from './dnssec';
import { CdnDnssecGenerateDto, CdnGenerateKskDto } from './dnssec-keys.dto';
import { type CdnDnssecKeys, toCdnDnssecKeys } from './dnssec-keys.response';
import { KeyStoreService } from 'src/modules/keys/store/key-store.service';

const DAY_MS = 86_400_000;
const KIND = 'dnssec';
/** The owner of a CDN's own key set in the key store (a delivery service's is its xmlId). */
const CDN_OWNER = '';
/** Traffic Router's default DS TTL, used when the CDN's snapshot names none (DefaultDSTTL). */
const DEFAULT_DS_TTL_SECONDS = 60;
/** CreateDNSSECKeys' defaults when the CDN's keys carry none. */
const DEFAULT_KSK_EXPIRATION_MS = 365 * DAY_MS;
const DEFAULT_ZSK_EXPIRATION_MS = 30 * DAY_MS;
/** regenExpiredKeys' TTL of a key without a predecessor. */
const DEFAULT_REGEN_TTL_SECONDS = 60;
/** The refresh's defaults without the Traffic Router profile's parameters. */
const REFRESH_DEFAULT_TTL_SECONDS = 60;
const REFRESH_DEFAULT_GENERATION_MULTIPLIER = 10;
const REFRESH_DEFAULT_EFFECTIVE_MULTIPLIER = 10;

interface CdnRow {
  id: number;
  name: string;
  domainName: string;
  dnssecEnabled: boolean;
}

interface CdnDeliveryService {
  xmlId: string;
  protocol: number | null;
  typeName: string;
  routingName: string;
}

/** A CDN's key sets by name: its own under its name, each delivery service's under its xmlId. */
type KeySets = Map<string, StoredDnssecKeySet>;

/** The outcome of a refresh, in the original's words. */
export interface RefreshOutcome {
  updated: number;
  errors: number;
}

const unixDate = (seconds: number): Date => new Date(seconds * 1000);
const keysOf = (set: StoredDnssecKeySet | undefined, kind: 'ksk' | 'zsk'): StoredDnssecKey[] =>
  set?.[kind] ?? [];

/**
 * The DNSSEC keys of CDNs and their delivery services (docs/original-behaviour.md#dnssec-keys),
 * kept in the encrypted key store as one entry per key set, grouped by the CDN's id
 * (docs/decisions.md#d110). Keys are RSA keys generated in Node's thread pool before anything is
 * written; nothing here logs a key.
 */
@Injectable()
export class DnssecKeysService implements OnModuleInit {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly store: KeyStoreService,
    private readonly locks: CdnLocksService,
    private readonly changeLog: ChangeLogService,
    private readonly deliveryServicesService: DeliveryServicesService,
  ) {}

  onModuleInit(): void {
    this.deliveryServicesService.onCreated((created) => this.createForDeliveryService(created));
  }

  /**
   * A new delivery service of a CDN with DNSSEC enabled, of a type that uses DNSSEC keys, gets its
   * keys in its create transaction (the original's PutDNSSecKeys): the CDN's keys' lifetimes and its
   * current KSK's TTL. Without the CDN's keys the create is refused with the original's 400.
   */
  async createForDeliveryService(created: CreatedDeliveryService): Promise<void> {
    const cdn: CdnRow = {
      id: created.cdn.id,
      name: created.cdn.name,
      domainName: created.cdn.domainName,
      dnssecEnabled: created.cdn.dnssecEnabled,
    };
    const ds: CdnDeliveryService = {
      xmlId: created.xmlId,
      protocol: created.protocol,
      typeName: created.type.name,
      routingName: created.routingName,
    };
    if (
      !cdn.dnssecEnabled ||
      !(isHttpType(ds.typeName) || isDnsType(ds.typeName) || isSteeringType(ds.typeName))
    ) {
      return;
    }
    this.requireStore('cannot create DNSSEC keys for delivery service');
    const cdnKeys = (await this.keySets(cdn)).get(cdn.name);
    if (!cdnKeys) {
      throw new BadRequestException(
        `there are no DNSSec keys for the CDN ${cdn.name} which is required to create keys for the deliveryservice`,
      );
    }
    const lifetime = (kind: 'ksk' | 'zsk', fallback: number): number => {
      const current = keysOf(cdnKeys, kind).find((k) => k.status === KEY_STATUS_NEW);
      return current ? (current.expirationDate - current.inceptionDate) * 1000 : fallback;
    };
    const matchList = (await this.matchLists([ds.xmlId])).get(ds.xmlId) ?? [];
    const urls = exampleUrls(ds.protocol, ds.typeName, ds.routingName, matchList, cdn.domainName);
    // The original's default TTL here is 30 ns: 0 s when the CDN has no current KSK to take it from.
    const keys = await this.deliveryServiceKeys(
      ds.xmlId,
      urls,
      cdnKeys,
      lifetime('ksk', DEFAULT_KSK_EXPIRATION_MS),
      lifetime('zsk', DEFAULT_ZSK_EXPIRATION_MS),
      0,
      false,
    );
    await this.store.putGroup(KIND, String(cdn.id), [{ owner: ds.xmlId, document: keys }], { cdn: cdn.name });
  }

  /** Without KEY_STORE_KEY every route answers as the original without a Traffic Vault: a bare 500. */
  requireStore(what: string): void {
    if (!this.store.configured) {
      throw new Error(`${what}: Traffic Vault is not configured (KEY_STORE_KEY is not set)`);
    }
  }

  /** GET cdns/name/{name}/dnsseckeys: undefined when the CDN has no keys (or there is no such CDN). */
  async get(cdnName: string): Promise<CdnDnssecKeys | undefined> {
    const cdn = await this.cdnByName(cdnName);
    const sets = cdn ? await this.keySets(cdn) : new Map<string, StoredDnssecKeySet>();
    if (sets.size === 0) {
      return undefined;
    }
    return toCdnDnssecKeys(sets, await this.dsRecordTtl(cdn!.name));
  }

  /** POST cdns/dnsseckeys/generate: new keys for the CDN and each of its HTTP and DNS delivery services. */
  async generate(dto: CdnDnssecGenerateDto, user: CurrentUser): Promise<string> {
    const cdn = await this.cdnByName(dto.key);
    if (!cdn) {
      throw new NotFoundException('Not Found');
    }
    await this.locks.assertCanModifyCdn(cdn.id, user);
    const ttl = dto.ttl;
    const kExp = dto.kskExpirationDays * DAY_MS;
    const zExp = dto.zskExpirationDays * DAY_MS;
    const effective = dto.effectiveDate === undefined ? new Date() : unixDate(dto.effectiveDate);
    const old = await this.keySets(cdn);
    const deliveryServices = (await this.deliveryServices(cdn.name)).filter(
      (ds) => isHttpType(ds.typeName) || isDnsType(ds.typeName),
    );
    const matchLists = await this.matchLists(deliveryServices.map((ds) => ds.xmlId));

    let zone = cdn.domainName.endsWith('.') ? cdn.domainName : `${cdn.domainName}.`;
    zone = zone.toLowerCase();
    const inception = new Date();
    const [zsk, ksk] = await Promise.all([
      newDnssecKey('zsk', {
        name: zone,
        ttlSeconds: ttl,
        inception,
        expiration: new Date(inception.getTime() + zExp),
        status: KEY_STATUS_NEW,
        effective,
        tld: false,
      }),
      newDnssecKey('ksk', {
        name: zone,
        ttlSeconds: ttl,
        inception,
        expiration: new Date(inception.getTime() + kExp),
        status: KEY_STATUS_NEW,
        effective,
        tld: true,
      }),
    ]);
    const cdnSet: StoredDnssecKeySet = { zsk: [zsk], ksk: [ksk] };
    // The previous first keys stay as "existing" until the new ones take effect.
    const previous = old.get(cdn.name);
    const [oldKsk] = keysOf(previous, 'ksk');
    const [oldZsk] = keysOf(previous, 'zsk');
    const retire = (key: StoredDnssecKey): StoredDnssecKey => ({
      ...key,
      status: KEY_STATUS_EXISTING,
      ttl: String(ttl),
      expirationDate: Math.floor(effective.getTime() / 1000),
    });
    if (oldKsk) {
      cdnSet.ksk!.push(retire(oldKsk));
    }
    if (oldZsk) {
      cdnSet.zsk!.push(retire(oldZsk));
    }

    const jobs = deliveryServices.map((ds) => {
      const matchList = matchLists.get(ds.xmlId);
      if (!matchList) {
        throw new Error(
          `generating and storing DNSSEC CDN keys: no regex match list found for delivery service '${ds.xmlId}`,
        );
      }
      const urls = exampleUrls(ds.protocol, ds.typeName, ds.routingName, matchList, cdn.domainName);
      return this.deliveryServiceKeys(ds.xmlId, urls, cdnSet, kExp, zExp, ttl, true);
    });
    const dsSets = await Promise.all(jobs);
    const documents = [
      { owner: CDN_OWNER, document: cdnSet },
      ...deliveryServices.map((ds, i) => ({ owner: ds.xmlId, document: dsSets[i] })),
    ];
    await this.store.putGroup(KIND, String(cdn.id), documents, { cdn: cdn.name, replaceAll: true });
    return `Successfully created dnssec keys for ${cdn.name}`;
  }

  /** POST cdns/{name}/dnsseckeys/ksk/generate: a new CDN KSK; the previous one expires when it takes effect. */
  async generateKsk(cdnName: string, dto: CdnGenerateKskDto, user: CurrentUser): Promise<string> {
    const cdn = await this.cdnByName(cdnName);
    if (!cdn) {
      throw new NotFoundException(`cdn '${cdnName}' not found`);
    }
    await this.locks.assertCanModifyCdn(cdn.id, user);
    const sets = await this.keySets(cdn);
    const effective = dto.effectiveDate ?? new Date();
    const set = await regenExpiredKeys(
      'ksk',
      `${cdn.domainName}.`,
      sets.get(cdn.name),
      effective,
      true,
      true,
    );
    await this.store.putGroup(KIND, String(cdn.id), [{ owner: CDN_OWNER, document: set }], { cdn: cdn.name });
    return `Successfully generated ksk dnssec keys for ${cdn.name}`;
  }

  /** DELETE cdns/name/{name}/dnsseckeys: every key set of the CDN. */
  async delete(cdnName: string, user: CurrentUser): Promise<string> {
    const cdn = await this.cdnByName(cdnName);
    if (!cdn) {
      throw new NotFoundException('Not Found');
    }
    await this.locks.assertCanModifyCdn(cdn.id, user);
    await this.store.deleteGroup(KIND, String(cdn.id));
    return `Successfully deleted dnssec for ${cdn.name}`;
  }

  /**
   * cdns/dnsseckeys/refresh: for every CDN with keys, renews the CDN's ZSKs that expire within the
   * TTL times the generation multiplier; for the delivery services of the CDNs with DNSSEC enabled,
   * creates missing key sets and renews expiring KSKs and ZSKs. Done within the request
   * (docs/decisions.md#d110).
   */
  async refresh(): Promise<RefreshOutcome> {
    const outcome: RefreshOutcome = { updated: 0, errors: 0 };
    const cdns: CdnRow[] = (
      await this.dataSource.query<Record<string, unknown>[]>(
        'SELECT id, name, domain_name AS domainName, dnssec_enabled AS dnssecEnabled FROM cdn ORDER BY name',
      )
    ).map(toCdnRow);
    for (const cdn of cdns) {
      const sets = await this.keySets(cdn);
      if (sets.size === 0) {
        continue;
      }
      const changed = new Set<string>();
      const params = await this.refreshParams(cdn.id);
      const ttl = params.ttl ?? REFRESH_DEFAULT_TTL_SECONDS;
      const generation = params.generationMultiplier ?? REFRESH_DEFAULT_GENERATION_MULTIPLIER;
      const effectiveMultiplier = params.effectiveMultiplier ?? REFRESH_DEFAULT_EFFECTIVE_MULTIPLIER;
      const horizon = Date.now() + ttl * generation * 1000;
      const effectiveBefore = (expirationSeconds: number) =>
        new Date(expirationSeconds * 1000 - ttl * effectiveMultiplier * 1000);

      const cdnSet = sets.get(cdn.name);
      const cdnKsk = keysOf(cdnSet, 'ksk').find((k) => k.status === KEY_STATUS_NEW);
      const kskExpiration = cdnKsk
        ? (cdnKsk.expirationDate - cdnKsk.inceptionDate) * 1000
        : DEFAULT_KSK_EXPIRATION_MS;
      let zskExpiration = DEFAULT_ZSK_EXPIRATION_MS;
      for (const key of keysOf(cdnSet, 'zsk')) {
        if (key.status !== KEY_STATUS_NEW) {
          continue;
        }
        zskExpiration = (key.expirationDate - key.inceptionDate) * 1000;
        if (key.expirationDate * 1000 > horizon) {
          continue;
        }
        const renewed = await regenExpiredKeys(
          'zsk',
          `${cdn.domainName}.`,
          sets.get(cdn.name),
          effectiveBefore(key.expirationDate),
          false,
          false,
        );
        sets.set(cdn.name, renewed);
        changed.add(cdn.name);
        outcome.updated++;
      }

      if (cdn.dnssecEnabled) {
        const deliveryServices = (await this.deliveryServices(cdn.name)).filter(
          (ds) => isHttpType(ds.typeName) || isDnsType(ds.typeName) || isSteeringType(ds.typeName),
        );
        const matchLists = await this.matchLists(deliveryServices.map((ds) => ds.xmlId));
        for (const ds of deliveryServices) {
          const dsKeys = sets.get(ds.xmlId);
          if (!dsKeys) {
            const cdnKeys = sets.get(cdn.name);
            const urls = exampleUrls(
              ds.protocol,
              ds.typeName,
              ds.routingName,
              matchLists.get(ds.xmlId) ?? [],
              cdn.domainName,
            );
            try {
              if (!cdnKeys) {
                throw new Error('cdn has no keys, cannot create ds keys');
              }
              sets.set(
                ds.xmlId,
                await this.deliveryServiceKeys(
                  ds.xmlId,
                  urls,
                  cdnKeys,
                  kskExpiration,
                  zskExpiration,
                  ttl,
                  false,
                ),
              );
              changed.add(ds.xmlId);
              outcome.updated++;
            } catch (error) {
              processLogger().error(
                `refreshing DNSSEC Keys: creating missing ds keys for '${ds.xmlId}': ${(error as Error).message}`,
              );
              outcome.errors++;
            }
            continue;
          }
          for (const kind of ['ksk', 'zsk'] as const) {
            for (const key of keysOf(dsKeys, kind)) {
              if (key.status !== KEY_STATUS_NEW || key.expirationDate * 1000 > horizon) {
                continue;
              }
              const renewed = await regenExpiredKeys(
                kind,
                ds.xmlId,
                dsKeys,
                effectiveBefore(key.expirationDate),
                false,
                false,
              );
              const current = sets.get(ds.xmlId)!;
              sets.set(ds.xmlId, { ...current, [kind]: renewed[kind] });
              changed.add(ds.xmlId);
              outcome.updated++;
            }
          }
        }
      }
      if (changed.size > 0) {
        const documents = [...changed].map((name) => ({
          owner: name === cdn.name ? CDN_OWNER : name,
          document: sets.get(name),
        }));
        await this.store.putGroup(KIND, String(cdn.id), documents, { cdn: cdn.name });
      }
    }
    return outcome;
  }

  /**
   * The 3.x refresh, a GET: the same in a transaction of its own, with the original's change-log
   * entry when it changed or failed anything (a GET has no request transaction and no entry).
   */
  refreshInTransaction(user: CurrentUser): Promise<RefreshOutcome> {
    return inRequestTransaction(this.dataSource, async (runner) => {
      const outcome = await this.refresh();
      if (outcome.updated > 0 || outcome.errors > 0) {
        const message =
          outcome.errors > 0
            ? `Refreshed ${outcome.updated} DNSSEC keys, but ${outcome.errors} errors occurred`
            : `Refreshed ${outcome.updated} DNSSEC keys`;
        await this.changeLog.record(runner.manager, user, message, 'cdns');
      }
      return outcome;
    });
  }

  /** The original's CreateDNSSECKeys: a delivery service's new KSK and ZSK, effective now. */
  private async deliveryServiceKeys(
    xmlId: string,
    urls: string[],
    cdnKeys: StoredDnssecKeySet,
    kskExpirationMs: number,
    zskExpirationMs: number,
    ttlSeconds: number,
    overrideTtl: boolean,
  ): Promise<StoredDnssecKeySet> {
    if (keysOf(cdnKeys, 'zsk').length === 0 || keysOf(cdnKeys, 'ksk').length === 0) {
      throw new Error(`creating DNSSEC keys for delivery service ${xmlId}: no DNSSec keys for CDN`);
    }
    let ttl = ttlSeconds;
    if (!overrideTtl) {
      const current = keysOf(cdnKeys, 'ksk').find((k) => k.status === KEY_STATUS_NEW);
      ttl = current ? Number(current.ttl) : ttl;
    }
    const zone = dsZoneName(urls);
    if (zone === undefined) {
      throw new Error(`creating DNSSEC keys for delivery service ${xmlId}: creating DS domain name failed`);
    }
    const inception = new Date();
    const common = {
      name: zone,
      ttlSeconds: ttl,
      inception,
      status: KEY_STATUS_NEW,
      effective: inception,
      tld: false,
    };
    const [zsk, ksk] = await Promise.all([
      newDnssecKey('zsk', { ...common, expiration: new Date(inception.getTime() + zskExpirationMs) }),
      newDnssecKey('ksk', { ...common, expiration: new Date(inception.getTime() + kskExpirationMs) }),
    ]);
    return { zsk: [zsk], ksk: [ksk] };
  }

  /** The CDN's key sets by name, its own under the CDN's name. */
  private async keySets(cdn: CdnRow): Promise<KeySets> {
    const entries = await this.store.group<StoredDnssecKeySet>(KIND, String(cdn.id));
    return new Map(entries.map((e) => [e.owner === CDN_OWNER ? cdn.name : e.owner, e.document]));
  }

  private async cdnByName(name: string): Promise<CdnRow | undefined> {
    const [row] = await this.dataSource.query<Record<string, unknown>[]>(
      'SELECT id, name, domain_name AS domainName, dnssec_enabled AS dnssecEnabled FROM cdn WHERE name = ?',
      [name],
    );
    return row ? toCdnRow(row) : undefined;
  }

  private async deliveryServices(cdnName: string): Promise<CdnDeliveryService[]> {
    const rows = await this.dataSource.query<Record<string, unknown>[]>(
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
  private async matchLists(xmlIds: string[]): Promise<Map<string, MatchListEntry[]>> {
    const lists = new Map<string, MatchListEntry[]>();
    if (xmlIds.length === 0) {
      return lists;
    }
    const rows = await this.dataSource.query<Record<string, unknown>[]>(
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
  private async dsRecordTtl(cdnName: string): Promise<number> {
    const [row] = await this.dataSource.query<{ crconfig: string }[]>(
      'SELECT crconfig FROM snapshot WHERE cdn = ?',
      [cdnName],
    );
    let value: unknown;
    try {
      const crconfig = row
        ? (JSON.parse(row.crconfig) as { config?: { ttls?: Record<string, unknown> } })
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

  /** tld.ttls.DNSKEY, DNSKEY.generation.multiplier and DNSKEY.effective.multiplier of the CDN's router profile. */
  private async refreshParams(
    cdnId: number,
  ): Promise<{ ttl?: number; generationMultiplier?: number; effectiveMultiplier?: number }> {
    const rows = await this.dataSource.query<{ name: string; value: string }[]>(
      'SELECT pa.name AS name, pa.value AS value FROM parameter pa ' +
        'JOIN profile_parameter pp ON pp.parameter = pa.id ' +
        "WHERE pp.profile = (SELECT MAX(p.id) FROM profile p WHERE p.cdn = ? AND p.type = 'TR_PROFILE') " +
        "AND pa.name IN ('tld.ttls.DNSKEY', 'DNSKEY.generation.multiplier', 'DNSKEY.effective.multiplier') " +
        'ORDER BY pa.id',
      [cdnId],
    );
    const params: { ttl?: number; generationMultiplier?: number; effectiveMultiplier?: number } = {};
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
}

function toCdnRow(row: Record<string, unknown>): CdnRow {
  return {
    id: Number(row.id),
    name: String(row.name),
    domainName: String(row.domainName),
    dnssecEnabled: row.dnssecEnabled === true || Number(row.dnssecEnabled) === 1,
  };
}

/**
 * The original's regenExpiredKeys: a new key of `kind` replacing the set's current ("new") one,
 * which is kept as "expired" (its expiration moved to the new key's effective date with
 * `resetExpiration`); the new key has the old one's name, TTL and lifetime in whole days, or the
 * defaults without one. The set's keys of the other kind are kept as they are.
 */
export async function regenExpiredKeys(
  kind: 'ksk' | 'zsk',
  name: string,
  existing: StoredDnssecKeySet | undefined,
  effective: Date,
  tld: boolean,
  resetExpiration: boolean,
): Promise<StoredDnssecKeySet> {
  const old = keysOf(existing, kind).find((k) => k.status === KEY_STATUS_NEW);
  const inception = new Date();
  let expiration = new Date(
    inception.getTime() + (kind === 'ksk' ? DEFAULT_KSK_EXPIRATION_MS : DEFAULT_ZSK_EXPIRATION_MS),
  );
  let ttl = DEFAULT_REGEN_TTL_SECONDS;
  let zone = name;
  if (old) {
    const days = Math.trunc((old.expirationDate - old.inceptionDate) / 86_400);
    zone = old.name;
    ttl = Number(old.ttl);
    expiration = new Date(Date.now() + days * DAY_MS);
  }
  const key = await newDnssecKey(kind, {
    name: zone,
    ttlSeconds: ttl,
    inception,
    expiration,
    status: KEY_STATUS_NEW,
    effective,
    tld,
  });
  const keys = [key];
  if (old) {
    keys.push({
      ...old,
      status: KEY_STATUS_EXPIRED,
      ...(resetExpiration ? { expirationDate: Math.floor(effective.getTime() / 1000) } : {}),
    });
  }
  return kind === 'ksk'
    ? { zsk: existing?.zsk ?? null, ksk: keys }
    : { zsk: keys, ksk: existing?.ksk ?? null };
}
