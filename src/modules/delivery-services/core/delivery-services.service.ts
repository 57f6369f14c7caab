import { insertRow, insertRows } from 'src/common/database/insert-rows';
import type { DeferredBody } from 'src/common/validation/valid-body';
import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { writeLock } from 'src/common/database/locks';
import { inRequestTransactionOrJoin } from 'src/common/database/request-transaction';
import { distinctAsStored } from 'src/common/database/text-order';
import { getPlainMany, getPlainOne, groupBy, rowsForIds } from 'src/common/database/plain-rows';
import { applyListQuery, type ListQuery } from 'src/common/list-query/list-query';
import type { CurrentUser } from 'src/common/types/current-user';
import { CdnLocksService } from 'src/modules/cdn-locks/cdn-locks.service';
import { ParametersService } from 'src/modules/parameters/parameters.service';
import { RequiredCapabilitiesService } from 'src/modules/server-capabilities/required-capabilities.service';
import { TenancyService, withinTenancy } from 'src/modules/tenants/tenancy.service';
import { Type } from 'src/modules/types/type.entity';
import { TopologiesService } from 'src/modules/topologies/topologies.service';
import { ConsistentHashQueryParam } from './consistent-hash-query-param.entity';
import type { DeliveryServiceInput, DeliveryServiceWrite } from './delivery-service.input';
import { DeliveryServiceRegexesService } from 'src/modules/delivery-services/regexes/delivery-service-regexes.service';
import { DeliveryServiceTlsVersion } from './delivery-service-tls-version.entity';
import { DeliveryService } from 'src/modules/delivery-services/delivery-service.entity';
import {
  ACTIVE_STATES,
  countryCodes,
  type DsTypeInfo,
  hasSslKeys,
  parseOrgServerFqdn,
  sanitize,
  tlsVersionWarnings,
  validateDeliveryService,
} from './delivery-service.validation';
import type { DeliveryServiceView } from './delivery-service.response';
import type { SafeUpdate } from 'src/modules/delivery-services/safe/safe-update.body';
import { Origin } from 'src/modules/delivery-services/origins/origin.entity';

export const LONG_DESC_REMOVED =
  'the longDesc1 and longDesc2 fields are no longer supported in API 4.0 onwards';
const SSL_KEYS =
  'delivery service has ssl keys that cannot be automatically changed, therefore %s is immutable';
/** Config files whose `location` parameters belong to a delivery service (deleted with it). */
const LOCATION_FILES = ['hdr_rw_', 'hdr_rw_mid_', 'regex_remap_', 'cacheurl_'];

const orNull = <T>(v: T | null | undefined): T | null => (v === undefined ? null : v);

/** A delivery service just created, as read back: with its type and CDN. */
export type CreatedDeliveryService = DeliveryService & Required<Pick<DeliveryService, 'type' | 'cdn'>>;

/**
 * Work another module does in a delivery service's create transaction once the delivery service and
 * its regexes are written (the keys module makes its DNSSEC keys); throwing refuses the create.
 */
export type DeliveryServiceCreatedHook = (created: CreatedDeliveryService) => Promise<void>;

/** What a delivery service's view holds besides its row: the contents of its detail tables. */
type Details = Omit<DeliveryServiceView, 'ds'>;

/**
 * Reads and writes of delivery services (docs/original-behaviour.md#deliveryservices). Every write runs
 * in one transaction; uniqueness (xml_id) and references (cdn, profile) are the database's to refuse.
 */
@Injectable()
export class DeliveryServicesService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly tenancy: TenancyService,
    private readonly regexes: DeliveryServiceRegexesService,
    private readonly topologies: TopologiesService,
    private readonly requiredCapabilities: RequiredCapabilitiesService,
    private readonly locks: CdnLocksService,
    private readonly parameters: ParametersService,
  ) {}

  private readonly createdHooks: DeliveryServiceCreatedHook[] = [];

  /** Registers work for every create, run in its transaction (modules that depend on this one). */
  onCreated(hook: DeliveryServiceCreatedHook): void {
    this.createdHooks.push(hook);
  }

  /** The delivery services within reach (docs/decisions.md#d13), filtered, ordered and paged in SQL. */
  async list(query: ListQuery, user: CurrentUser): Promise<DeliveryServiceView[]> {
    const manager = this.dataSource.manager;
    const qb = withinTenancy(this.query(manager), 'ds.tenant_id', user.tenantId);
    return this.views(await getPlainMany(applyListQuery(qb, query)), manager);
  }

  async create(
    write: DeliveryServiceWrite,
    user: CurrentUser,
  ): Promise<{ view: DeliveryServiceView; warnings: string[] }> {
    const { input, legacy, carries } = write;
    sanitize(input);
    // Joins the request's transaction: every failure rolls the whole request back, so no savepoint.
    const view = await inRequestTransactionOrJoin(this.dataSource, async (manager) => {
      await this.validate(manager, input, true);
      await this.tenancy.assertWithinReach(user.tenantId, input.tenantId!, manager);
      await this.checkReferences(manager, input);
      this.checkLegacyFields(write);
      if (input.cdnId) {
        // Another user's hard lock on the CDN refuses the write (docs/original-behaviour.md#cdn-locks).
        await this.locks.assertCanModifyCdn(input.cdnId, user);
      }
      const columns = this.columns(write);
      const id = await insertRow(manager, DeliveryService, {
        ...columns,
        active: columns.active ?? 'INACTIVE',
        maxRequestHeaderBytes: columns.maxRequestHeaderBytes ?? 0,
        regional: columns.regional ?? false,
        longDesc1: carries.legacyFields ? orNull(legacy.longDesc1) : null,
        longDesc2: carries.legacyFields ? orNull(legacy.longDesc2) : null,
        cacheurl: carries.legacyFields ? orNull(legacy.cacheurl) : null,
      });
      const defaultRegex = await this.regexes.createDefault(manager, id, input.xmlId!);
      // A new delivery service has no detail rows yet: they are only added, nothing is replaced.
      const tlsVersions = await this.addTlsVersions(manager, id, input.tlsVersions);
      const consistentHashQueryParams = await this.addQueryParams(
        manager,
        id,
        input.consistentHashQueryParams,
      );
      const row = (await this.row(manager, id)) as CreatedDeliveryService;
      for (const hook of this.createdHooks) {
        await hook(row);
      }
      const orgServerFqdn = await this.addPrimaryOrigin(manager, id, input);
      const requiredCapabilities = carries.requiredCapabilities
        ? distinctAsStored(input.requiredCapabilities ?? [])
        : [];
      if (requiredCapabilities.length > 0) {
        await this.requiredCapabilities.addToNew(id, requiredCapabilities, manager);
      }
      // The details were all written above, from the body: answered as written, in the order a
      // read-back gives them, rather than read back.
      const [view] = await this.views([row], manager, {
        orgServerFqdn,
        tlsVersions,
        consistentHashQueryParams,
        matchList: [defaultRegex],
        requiredCapabilities,
      });
      return view;
    });
    return { view, warnings: tlsVersionWarnings(input.tlsVersions, input.protocol) };
  }

  /**
   * The full update, in the original's order of checks (docs/original-behaviour.md#deliveryservices);
   * answers the TLS warnings and, when `answer.view` asks for it (the original's response carries
   * it, docs/decisions.md#d5a), the updated delivery service.
   */
  async update(
    id: number,
    write: DeliveryServiceWrite,
    user: CurrentUser,
    answer: { view: boolean } = { view: true },
  ): Promise<{ view?: DeliveryServiceView; warnings: string[] }> {
    const { input, legacy, carries } = write;
    sanitize(input);
    // Joins the request's transaction: every failure rolls the whole request back, so no savepoint.
    const view = await inRequestTransactionOrJoin(this.dataSource, async (manager) => {
      const existing = await manager.findOne(DeliveryService, {
        where: { id },
        lock: writeLock(this.dataSource),
      });
      if (!existing) {
        throw new NotFoundException(`no such Delivery Service: #${id}`);
      }
      await this.locks.assertCanModifyCdn(existing.cdnId, user);
      const type = await this.validate(manager, input, false);
      if (!input.tenantId || input.tenantId <= 0) {
        input.tenantId = existing.tenantId;
      }
      // The current tenant and the new one (one 403 for either): one statement.
      await this.tenancy.assertAllWithinReach(user.tenantId, [existing.tenantId, input.tenantId], manager);

      // The delivery service the body's xmlId names: when that is this one, of the type the
      // validation read, nothing is left to read.
      const byXmlId =
        input.xmlId === existing.xmlId && type !== undefined && input.typeId === existing.typeId
          ? { sslKeyVersion: existing.sslKeyVersion, typeName: type.name }
          : await this.sslKeysOf(manager, input.xmlId!);
      if (!byXmlId) {
        throw new NotFoundException(`delivery service '${input.xmlId}' not found`);
      }
      if (hasSslKeys(byXmlId.typeName ?? '') && (byXmlId.sslKeyVersion ?? 0) >= 1) {
        await this.checkSslKeyFields(manager, existing, input);
        input.sslKeyVersion = existing.sslKeyVersion;
      }
      // A body without capabilities (before 4.1): those the delivery service requires count (read
      // only when the check below needs them: with a topology).
      const required = async (): Promise<string[]> =>
        carries.requiredCapabilities
          ? (input.requiredCapabilities ?? [])
          : ((await this.requiredCapabilities.requiredBy([id], manager)).get(id) ?? []);
      await this.checkReferences(manager, input, { id, required });
      this.checkLegacyFields(write);

      const columns = this.columns(write);
      await manager.update(
        DeliveryService,
        { id },
        {
          ...columns,
          active: columns.active ?? existing.active,
          maxRequestHeaderBytes: columns.maxRequestHeaderBytes ?? existing.maxRequestHeaderBytes,
          regional: columns.regional ?? existing.regional,
          ...(carries.legacyFields
            ? {
                longDesc1: legacy.longDesc1 ?? existing.longDesc1,
                longDesc2: legacy.longDesc2 ?? existing.longDesc2,
                cacheurl: legacy.cacheurl ?? existing.cacheurl,
              }
            : {}),
        },
      );
      const tlsVersions = carries.tlsVersions
        ? await this.replaceTlsVersions(manager, id, input.tlsVersions)
        : undefined;
      const consistentHashQueryParams = await this.replaceQueryParams(
        manager,
        id,
        input.consistentHashQueryParams,
      );
      await this.syncPrimaryOrigin(manager, id, input);
      // A body without the field (before 4.1) leaves the requirements as they are.
      if (carries.requiredCapabilities) {
        await this.requiredCapabilities.replace(id, input.requiredCapabilities ?? [], manager);
      }
      if (!answer.view) {
        return undefined;
      }
      // The TLS versions and query parameters were just written from the body: answered as written.
      return this.load(manager, id, { consistentHashQueryParams, ...(tlsVersions ? { tlsVersions } : {}) });
    });
    return { view, warnings: tlsVersionWarnings(input.tlsVersions, input.protocol) };
  }

  /**
   * Deletes the delivery service with its regexes and its `location` parameters; its server
   * assignments, origins and other links cascade. Missing → 404 (docs/decisions.md#d8).
   */
  async remove(id: number, user: CurrentUser): Promise<void> {
    await inRequestTransactionOrJoin(this.dataSource, async (manager) => {
      const existing = await manager.findOne(DeliveryService, {
        where: { id },
        lock: writeLock(this.dataSource),
      });
      if (!existing) {
        throw new NotFoundException('delivery service not found');
      }
      await this.locks.assertCanModifyCdn(existing.cdnId, user);
      await this.tenancy.assertWithinReach(user.tenantId, existing.tenantId, manager);
      await this.regexes.removeAllOf(manager, id);
      await manager.delete(DeliveryService, { id });
      await this.parameters.removeNamedIn(
        manager,
        'location',
        LOCATION_FILES.map((prefix) => `${prefix}${existing.xmlId}.config`),
      );
    });
  }

  /**
   * Records the version of the SSL keys just stored for the delivery service `xmlId`, as the
   * original's POST deliveryservices/sslkeys/add does (the keys module calls it).
   */
  async setSslKeyVersion(xmlId: string, version: number): Promise<void> {
    await this.dataSource.manager.update(DeliveryService, { xmlId }, { sslKeyVersion: version });
  }

  /** PUT …/safe: tenancy, the body, then existence (docs/original-behaviour.md#deliveryservices-safe). */
  async updateSafe(
    id: number,
    body: DeferredBody<SafeUpdate>,
    user: CurrentUser,
  ): Promise<DeliveryServiceView> {
    return inRequestTransactionOrJoin(this.dataSource, async (manager) => {
      const existing = await manager.findOne(DeliveryService, {
        where: { id },
        lock: writeLock(this.dataSource),
      });
      if (existing) {
        await this.tenancy.assertWithinReach(user.tenantId, existing.tenantId, manager);
      }
      const safe = await body.read();
      if (!existing) {
        throw new NotFoundException(`no Delivery Service exists by ID '${id}'`);
      }
      await manager.update(
        DeliveryService,
        { id },
        {
          displayName: safe.displayName,
          infoUrl: safe.infoUrl,
          longDesc: safe.longDesc,
          ...(safe.longDesc1 === undefined ? {} : { longDesc1: safe.longDesc1 }),
        },
      );
      return this.load(manager, id);
    });
  }

  /**
   * For delivery service requests: what the delivery service validation finds wrong with a
   * requested delivery service (the `invalid request: ` list without its prefix), or undefined.
   * Writes nothing.
   */
  async requestProblems(write: DeliveryServiceWrite, create: boolean): Promise<string | undefined> {
    const { input } = write;
    sanitize(input);
    try {
      await this.validate(this.dataSource.manager, input, create);
    } catch (error) {
      if (error instanceof BadRequestException) {
        return error.message.replace(/^invalid request: /, '');
      }
      throw error;
    }
    return undefined;
  }

  /** For delivery service requests: the views of delivery services by id or XML id, whatever the tenancy. */
  async viewsOf(where: { ids: number[] } | { xmlId: string }): Promise<DeliveryServiceView[]> {
    const manager = this.dataSource.manager;
    const qb = this.query(manager);
    if ('ids' in where) {
      if (where.ids.length === 0) {
        return [];
      }
      qb.where('ds.id IN (:...ids)', { ids: where.ids });
    } else {
      qb.where('ds.xml_id = :xmlId', { xmlId: where.xmlId });
    }
    return this.views(await getPlainMany(qb), manager);
  }

  private query(manager: EntityManager) {
    return manager
      .getRepository(DeliveryService)
      .createQueryBuilder('ds')
      .innerJoinAndSelect('ds.type', 'type')
      .innerJoinAndSelect('ds.cdn', 'cdn')
      .leftJoinAndSelect('ds.profile', 'profile')
      .leftJoinAndSelect('ds.tenant', 'tenant');
  }

  /** The row of delivery service `id` with its type, CDN, profile and tenant. */
  private async row(manager: EntityManager, id: number): Promise<DeliveryService> {
    const row = await getPlainOne(this.query(manager).where('ds.id = :id', { id }));
    if (!row) {
      throw new NotFoundException(`no such Delivery Service: #${id}`);
    }
    return row;
  }

  private async load(
    manager: EntityManager,
    id: number,
    known: Partial<Details> = {},
  ): Promise<DeliveryServiceView> {
    const [view] = await this.views([await this.row(manager, id)], manager, known);
    return view;
  }

  /**
   * Origins, TLS versions, query parameters, match lists and required capabilities of a page of
   * rows: five queries, less those of the details in `known` (of a single row, whose write just set
   * them).
   */
  private async views(
    rows: DeliveryService[],
    manager: EntityManager,
    known: Partial<Details> = {},
  ): Promise<DeliveryServiceView[]> {
    if (rows.length === 0) {
      return [];
    }
    if (rows.length > 1 && Object.keys(known).length > 0) {
      throw new Error('views: known details are those of a single delivery service');
    }
    const ids = rows.map((r) => r.id);
    const unless = <T>(isKnown: boolean, read: () => Promise<T[]>): Promise<T[]> =>
      isKnown ? Promise.resolve([]) : read();
    // Plain rows of the columns shown (docs/decisions.md#d106), grouped in one pass.
    const [origins, tls, params, regexes] = await Promise.all([
      unless('orgServerFqdn' in known, () =>
        rowsForIds<{ ds: number; protocol: string; fqdn: string; port: number | null }>(
          manager,
          'SELECT t.deliveryservice AS ds, t.protocol AS protocol, t.fqdn AS fqdn, t.port AS port ' +
            'FROM origin t WHERE t.deliveryservice IN (:ids) AND t.is_primary = 1',
          ids,
        ),
      ),
      unless(known.tlsVersions !== undefined, () =>
        rowsForIds<{ ds: number; v: string }>(
          manager,
          'SELECT t.deliveryservice AS ds, t.tls_version AS v FROM deliveryservice_tls_version t ' +
            'WHERE t.deliveryservice IN (:ids) ORDER BY t.tls_version ASC',
          ids,
        ),
      ),
      unless(known.consistentHashQueryParams !== undefined, () =>
        rowsForIds<{ ds: number; name: string }>(
          manager,
          'SELECT t.deliveryservice_id AS ds, t.name AS name FROM deliveryservice_consistent_hash_query_param t ' +
            'WHERE t.deliveryservice_id IN (:ids) ORDER BY t.name ASC',
          ids,
        ),
      ),
      unless(known.matchList !== undefined, () =>
        rowsForIds<{ ds: number; setNumber: number | null; pattern: string | null; typeName: string | null }>(
          manager,
          'SELECT t.deliveryservice AS ds, t.set_number AS setNumber, r.pattern AS pattern, rt.name AS typeName ' +
            'FROM deliveryservice_regex t LEFT JOIN regex r ON r.id = t.regex LEFT JOIN type rt ON rt.id = r.type ' +
            'WHERE t.deliveryservice IN (:ids) ORDER BY t.set_number ASC, t.id ASC',
          ids,
        ),
      ),
    ]);
    const capabilities =
      known.requiredCapabilities === undefined
        ? await this.requiredCapabilities.requiredBy(ids, manager)
        : new Map<number, string[]>();
    const originOf = new Map<number, (typeof origins)[number]>();
    for (const origin of origins) {
      if (!originOf.has(Number(origin.ds))) {
        originOf.set(Number(origin.ds), origin);
      }
    }
    const tlsOf = groupBy(tls, (t) => Number(t.ds));
    const paramsOf = groupBy(params, (p) => Number(p.ds));
    const regexesOf = groupBy(regexes, (r) => Number(r.ds));
    return rows.map((ds) => {
      const origin = originOf.get(ds.id);
      return {
        ds,
        orgServerFqdn: 'orgServerFqdn' in known ? known.orgServerFqdn! : origin ? originUrl(origin) : null,
        tlsVersions: known.tlsVersions ?? (tlsOf.get(ds.id) ?? []).map((t) => t.v),
        requiredCapabilities: known.requiredCapabilities ?? capabilities.get(ds.id) ?? [],
        consistentHashQueryParams: known.consistentHashQueryParams ?? [
          ...new Set((paramsOf.get(ds.id) ?? []).map((p) => p.name)),
        ],
        matchList:
          known.matchList ??
          (regexesOf.get(ds.id) ?? []).map((r) => ({
            type: r.typeName ?? '',
            setNumber: r.setNumber === null ? 0 : Number(r.setNumber),
            pattern: r.pattern ?? '',
          })),
      };
    });
  }

  /**
   * Validation (docs/original-behaviour.md#deliveryservices): the rules need the type the body names,
   * which it answers (undefined when there is none).
   */
  private async validate(
    manager: EntityManager,
    input: DeliveryServiceInput,
    create: boolean,
  ): Promise<DsTypeInfo | undefined> {
    let type: DsTypeInfo | undefined;
    if (typeof input.typeId === 'number' && input.typeId > 0) {
      type = (await manager.findOneBy(Type, { id: input.typeId })) ?? undefined;
    }
    const known = await this.requiredCapabilities.existing(input.requiredCapabilities ?? [], manager);
    const errors = validateDeliveryService(input, type, create, known);
    if (errors.length > 0) {
      throw new BadRequestException(`invalid request: ${errors.join(', ')}`);
    }
    return type;
  }

  /**
   * The topology must exist with servers of the delivery service's CDN in each of its cache groups,
   * and on an update each cache group must have a server with the capabilities the delivery
   * service requires, and the delivery service's ORG servers must be in its cache groups
   * (docs/original-behaviour.md#topologies). A service category is the database's to check (its
   * foreign key answers 404 `service_category not found`, as the original's).
   */
  private async checkReferences(
    manager: EntityManager,
    input: DeliveryServiceInput,
    existing?: { id: number; required: () => Promise<string[]> },
  ): Promise<void> {
    if (input.topology !== undefined && input.topology !== null) {
      await this.topologies.checkDeliveryServiceTopology(manager, input.topology, input.cdnId!);
      if (existing !== undefined) {
        const required = await existing.required();
        if (required.length > 0) {
          await this.requiredCapabilities.checkTopologyServers(
            existing.id,
            input.topology,
            required,
            manager,
          );
        }
        await this.topologies.checkOriginServersInTopology(manager, existing.id, input.topology);
      }
    }
  }

  /** The SSL key version of the delivery service `xmlId` and its type's name, or undefined. */
  private async sslKeysOf(
    manager: EntityManager,
    xmlId: string,
  ): Promise<{ sslKeyVersion: number | null; typeName: string | null } | undefined> {
    const [row] = await manager.query<{ sslKeyVersion: number | string | null; typeName: string | null }[]>(
      'SELECT ds.ssl_key_version AS sslKeyVersion, t.name AS typeName ' +
        'FROM deliveryservice ds LEFT JOIN type t ON t.id = ds.type WHERE ds.xml_id = ?',
      [xmlId],
    );
    return row
      ? {
          sslKeyVersion: row.sslKeyVersion === null ? null : Number(row.sslKeyVersion),
          typeName: row.typeName,
        }
      : undefined;
  }

  private checkLegacyFields({ legacy, carries }: DeliveryServiceWrite): void {
    const given = (v: string | null | undefined) => v !== undefined && v !== null;
    if (!carries.legacyFields && (given(legacy.longDesc1) || given(legacy.longDesc2))) {
      throw new BadRequestException(LONG_DESC_REMOVED);
    }
  }

  private async checkSslKeyFields(
    manager: EntityManager,
    existing: DeliveryService,
    input: DeliveryServiceInput,
  ): Promise<void> {
    if (existing.cdnId !== input.cdnId) {
      throw new BadRequestException(SSL_KEYS.replace('%s', 'CDN ID'));
    }
    if (input.cdnName !== undefined && input.cdnName !== null) {
      const cdn = await manager.findOne(DeliveryService, {
        where: { id: existing.id },
        relations: { cdn: true },
      });
      if (cdn?.cdn?.name !== input.cdnName) {
        throw new BadRequestException(SSL_KEYS.replace('%s', 'CDN Name'));
      }
    }
    if (existing.routingName !== input.routingName) {
      throw new BadRequestException(SSL_KEYS.replace('%s', 'Routing Name'));
    }
  }

  /** The columns a body sets; `active`, `maxRequestHeaderBytes` and `regional` undefined when the version has none. */
  private columns({ input, carries }: DeliveryServiceWrite): Partial<DeliveryService> {
    if (carries.activeState && input.active !== undefined && input.active !== null) {
      if (!(ACTIVE_STATES as readonly string[]).includes(input.active)) {
        throw new BadRequestException(`invalid enum value ${input.active} for field ds_active_state.`);
      }
    }
    const codes = countryCodes(input);
    return {
      xmlId: input.xmlId!,
      active: input.active ?? undefined,
      anonymousBlockingEnabled: input.anonymousBlockingEnabled ?? false,
      ccrDnsTtl: orNull(input.ccrDnsTtl),
      cdnId: input.cdnId!,
      checkPath: orNull(input.checkPath),
      consistentHashRegex: orNull(input.consistentHashRegex),
      deepCachingType: input.deepCachingType!,
      displayName: input.displayName!,
      dnsBypassCname: orNull(input.dnsBypassCname),
      dnsBypassIp: orNull(input.dnsBypassIp),
      dnsBypassIp6: orNull(input.dnsBypassIp6),
      dnsBypassTtl: orNull(input.dnsBypassTtl),
      dscp: input.dscp!,
      ecsEnabled: input.ecsEnabled ?? false,
      edgeHeaderRewrite: orNull(input.edgeHeaderRewrite),
      firstHeaderRewrite: orNull(input.firstHeaderRewrite),
      fqPacingRate: orNull(input.fqPacingRate),
      geoLimit: input.geoLimit!,
      geoLimitCountries: codes.length > 0 ? codes.join(',') : null,
      geoLimitRedirectUrl: orNull(input.geoLimitRedirectURL),
      geoProvider: orNull(input.geoProvider),
      globalMaxMbps: orNull(input.globalMaxMbps),
      globalMaxTps: orNull(input.globalMaxTps),
      httpBypassFqdn: orNull(input.httpBypassFqdn),
      infoUrl: orNull(input.infoUrl),
      initialDispersion: orNull(input.initialDispersion),
      innerHeaderRewrite: orNull(input.innerHeaderRewrite),
      ipv6RoutingEnabled: input.ipv6RoutingEnabled ?? false,
      lastHeaderRewrite: orNull(input.lastHeaderRewrite),
      logsEnabled: input.logsEnabled!,
      longDesc: orNull(input.longDesc),
      maxDnsAnswers: orNull(input.maxDnsAnswers),
      maxOriginConnections: orNull(input.maxOriginConnections),
      maxRequestHeaderBytes: input.maxRequestHeaderBytes ?? undefined,
      midHeaderRewrite: orNull(input.midHeaderRewrite),
      missLat: orNull(input.missLat),
      missLong: orNull(input.missLong),
      multiSiteOrigin: input.multiSiteOrigin ?? false,
      originShield: orNull(input.originShield),
      profileId: orNull(input.profileId),
      protocol: orNull(input.protocol),
      qstringIgnore: orNull(input.qstringIgnore),
      rangeRequestHandling: orNull(input.rangeRequestHandling),
      rangeSliceBlockSize: orNull(input.rangeSliceBlockSize),
      regexRemap: orNull(input.regexRemap),
      regional: input.regional ?? undefined,
      regionalGeoBlocking: input.regionalGeoBlocking!,
      remapText: orNull(input.remapText),
      routingName: input.routingName!,
      serviceCategory: orNull(input.serviceCategory),
      signingAlgorithm: orNull(input.signingAlgorithm),
      sslKeyVersion: orNull(input.sslKeyVersion),
      tenantId: input.tenantId!,
      topology: orNull(input.topology),
      trRequestHeaders: orNull(input.trRequestHeaders),
      trResponseHeaders: orNull(input.trResponseHeaders),
      typeId: input.typeId!,
    };
  }

  private async replaceTlsVersions(
    manager: EntityManager,
    dsId: number,
    versions?: string[] | null,
  ): Promise<string[]> {
    await manager.delete(DeliveryServiceTlsVersion, { deliveryServiceId: dsId });
    return this.addTlsVersions(manager, dsId, versions);
  }

  /** Adds the TLS versions (the validation refused repeats); answers them as a read-back lists them. */
  private async addTlsVersions(
    manager: EntityManager,
    dsId: number,
    versions?: string[] | null,
  ): Promise<string[]> {
    await insertRows(
      manager,
      DeliveryServiceTlsVersion,
      (versions ?? []).map((tlsVersion) => ({ deliveryServiceId: dsId, tlsVersion })),
    );
    return distinctAsStored(versions ?? []);
  }

  private async replaceQueryParams(
    manager: EntityManager,
    dsId: number,
    names?: string[] | null,
  ): Promise<string[]> {
    await manager.delete(ConsistentHashQueryParam, { deliveryServiceId: dsId });
    return this.addQueryParams(manager, dsId, names);
  }

  /** Adds the query parameters, each name once; answers them as a read-back lists them. */
  private async addQueryParams(
    manager: EntityManager,
    dsId: number,
    names?: string[] | null,
  ): Promise<string[]> {
    const unique = distinctAsStored(names ?? []);
    await insertRows(
      manager,
      ConsistentHashQueryParam,
      unique.map((name) => ({ deliveryServiceId: dsId, name })),
    );
    return unique;
  }

  /** The primary origin mirrors orgServerFqdn: created, updated or deleted with it. */
  private async syncPrimaryOrigin(
    manager: EntityManager,
    dsId: number,
    input: DeliveryServiceInput,
  ): Promise<void> {
    const current = await manager.findOneBy(Origin, { deliveryServiceId: dsId, isPrimary: true });
    const parsed = primaryOriginOf(input);
    if (!parsed) {
      if (current) {
        await manager.delete(Origin, { id: current.id });
      }
      return;
    }
    if (current) {
      if (
        current.protocol !== parsed.protocol ||
        current.fqdn !== parsed.fqdn ||
        current.port !== parsed.port
      ) {
        await manager.update(Origin, { id: current.id }, parsed);
      }
      return;
    }
    await this.addPrimaryOrigin(manager, dsId, input);
  }

  /**
   * The primary origin of orgServerFqdn for a delivery service that has none yet; answers the
   * orgServerFqdn a read-back gives (null without one).
   */
  private async addPrimaryOrigin(
    manager: EntityManager,
    dsId: number,
    input: DeliveryServiceInput,
  ): Promise<string | null> {
    const parsed = primaryOriginOf(input);
    if (!parsed) {
      return null;
    }
    await insertRows(manager, Origin, {
      name: input.xmlId!,
      fqdn: parsed.fqdn,
      protocol: parsed.protocol,
      port: parsed.port,
      isPrimary: true,
      deliveryServiceId: dsId,
      tenantId: input.tenantId ?? null,
    });
    return originUrl(parsed);
  }
}

/** The primary origin orgServerFqdn names, or undefined when the body names none. */
function primaryOriginOf(input: DeliveryServiceInput): ReturnType<typeof parseOrgServerFqdn> | undefined {
  return input.orgServerFqdn === undefined || input.orgServerFqdn === null || input.orgServerFqdn === ''
    ? undefined
    : parseOrgServerFqdn(input.orgServerFqdn);
}

/** orgServerFqdn as the primary origin's columns give it. */
function originUrl(origin: { protocol: string; fqdn: string; port: number | null }): string {
  return `${origin.protocol}://${origin.fqdn}${origin.port === null ? '' : `:${origin.port}`}`;
}
