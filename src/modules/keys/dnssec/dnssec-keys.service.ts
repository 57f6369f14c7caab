import { BadRequestException, Injectable, NotFoundException, type OnModuleInit } from '@nestjs/common';
import type { CurrentUser } from 'src/common/types/current-user';
import { processLogger } from 'src/common/logging/logger';
import { CdnLocksService } from 'src/modules/cdn-locks/cdn-locks.service';
import { ChangeLogService } from 'src/modules/change-log/change-log.service';
import {
  type CreatedDeliveryService,
  DeliveryServicesService,
} from 'src/modules/delivery-services/core/delivery-services.service';
import {
  isDnsType,
  isHttpType,
  isSteeringType,
} from 'src/modules/delivery-services/core/delivery-service-rules';
import { exampleUrls } from 'src/modules/delivery-services/core/delivery-service-match-list';
import {
  KEY_STATUS_EXISTING,
  KEY_STATUS_NEW,
  newDnssecKey,
  type StoredDnssecKey,
  type StoredDnssecKeySet,
} from './dnssec';
import { CdnDnssecGenerateDto, CdnGenerateKskDto } from './dnssec-keys.dto';
import {
  DEFAULT_KSK_EXPIRATION_MS,
  DEFAULT_ZSK_EXPIRATION_MS,
  deliveryServiceKeys,
  type KeySets,
  keysOf,
  regenExpiredKeys,
  unixDate,
} from './dnssec-key-sets';
import { type CdnDeliveryService, type CdnRow, DnssecRepository } from './dnssec.repository';
import { dsRecordTtl, refreshParams } from './dnssec-ttls';
import { type CdnDnssecKeys, toCdnDnssecKeys } from './dnssec-keys.response';
import { KeyStoreService } from 'src/modules/keys/store/key-store.service';
import { UnitOfWork } from 'src/common/database/unit-of-work';

const DAY_MS = 86_400_000;
const KIND = 'dnssec';
/** The owner of a CDN's own key set in the key store (a delivery service's is its xmlId). */
const CDN_OWNER = '';

/** The outcome of a refresh, in the original's words. */
export interface RefreshOutcome {
  updated: number;
  errors: number;
}

/**
 * The DNSSEC keys of CDNs and their delivery services (docs/original-behaviour.md#dnssec-keys),
 * kept in the encrypted key store as one entry per key set, grouped by the CDN's id
 * (docs/decisions.md#d110). Keys are RSA keys generated in Node's thread pool before anything is
 * written; nothing here logs a key.
 */
@Injectable()
export class DnssecKeysService implements OnModuleInit {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly repository: DnssecRepository,
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
    const { id, name, domainName, dnssecEnabled } = created.cdn;
    const cdn: CdnRow = { id, name, domainName, dnssecEnabled };
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
    const matchList = (await this.repository.matchListsOf([ds.xmlId])).get(ds.xmlId) ?? [];
    const urls = exampleUrls(ds.protocol, ds.typeName, ds.routingName, matchList, cdn.domainName);
    // The original's default TTL here is 30 ns: 0 s when the CDN has no current KSK to take it from.
    const keys = await deliveryServiceKeys(
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
    this.store.requireStore(what);
  }

  /** GET cdns/name/{name}/dnsseckeys: undefined when the CDN has no keys (or there is no such CDN). */
  async get(cdnName: string): Promise<CdnDnssecKeys | undefined> {
    const cdn = await this.repository.cdnByName(cdnName);
    const sets = cdn ? await this.keySets(cdn) : new Map<string, StoredDnssecKeySet>();
    if (sets.size === 0) {
      return undefined;
    }
    return toCdnDnssecKeys(sets, dsRecordTtl(await this.repository.snapshotCrconfig(cdn!.name), cdn!.name));
  }

  /** POST cdns/dnsseckeys/generate: new keys for the CDN and each of its HTTP and DNS delivery services. */
  async generate(dto: CdnDnssecGenerateDto, user: CurrentUser): Promise<string> {
    const cdn = await this.repository.cdnByName(dto.key);
    if (!cdn) {
      throw new NotFoundException('Not Found');
    }
    await this.locks.assertCanModifyCdn(cdn.id, user);
    const ttl = dto.ttl;
    const kExp = dto.kskExpirationDays * DAY_MS;
    const zExp = dto.zskExpirationDays * DAY_MS;
    const effective = dto.effectiveDate === undefined ? new Date() : unixDate(dto.effectiveDate);
    const old = await this.keySets(cdn);
    const deliveryServices = (await this.repository.cdnDeliveryServices(cdn.name)).filter(
      (ds) => isHttpType(ds.typeName) || isDnsType(ds.typeName),
    );
    const matchLists = await this.repository.matchListsOf(deliveryServices.map((ds) => ds.xmlId));

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
      return deliveryServiceKeys(ds.xmlId, urls, cdnSet, kExp, zExp, ttl, true);
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
    const cdn = await this.repository.cdnByName(cdnName);
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
    const cdn = await this.repository.cdnByName(cdnName);
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
    const cdns = await this.repository.allCdns();
    for (const cdn of cdns) {
      const sets = await this.keySets(cdn);
      if (sets.size === 0) {
        continue;
      }
      const changed = new Set<string>();
      const {
        ttl,
        generationMultiplier: generation,
        effectiveMultiplier,
      } = refreshParams(await this.repository.refreshParameters(cdn.id));
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
        const deliveryServices = (await this.repository.cdnDeliveryServices(cdn.name)).filter(
          (ds) => isHttpType(ds.typeName) || isDnsType(ds.typeName) || isSteeringType(ds.typeName),
        );
        const matchLists = await this.repository.matchListsOf(deliveryServices.map((ds) => ds.xmlId));
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
                await deliveryServiceKeys(ds.xmlId, urls, cdnKeys, kskExpiration, zskExpiration, ttl, false),
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
    return this.unitOfWork.run(async (manager) => {
      const outcome = await this.refresh();
      if (outcome.updated > 0 || outcome.errors > 0) {
        const message =
          outcome.errors > 0
            ? `Refreshed ${outcome.updated} DNSSEC keys, but ${outcome.errors} errors occurred`
            : `Refreshed ${outcome.updated} DNSSEC keys`;
        await this.changeLog.record(manager, user, message, 'cdns');
      }
      return outcome;
    });
  }

  /** The CDN's key sets by name, its own under the CDN's name. */
  private async keySets(cdn: CdnRow): Promise<KeySets> {
    const entries = await this.store.group<StoredDnssecKeySet>(KIND, String(cdn.id));
    return new Map(entries.map((e) => [e.owner === CDN_OWNER ? cdn.name : e.owner, e.document]));
  }
}
