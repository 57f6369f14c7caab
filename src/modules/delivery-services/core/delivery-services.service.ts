import type { DeferredBody } from 'src/common/validation/valid-body';
import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { distinctAsStored } from 'src/common/database/text-order';
import type { ListQuery } from 'src/common/list-query/list-query';
import type { CurrentUser } from 'src/common/types/current-user';
import { CdnLocksService } from 'src/modules/cdn-locks/cdn-locks.service';
import { ParametersService } from 'src/modules/parameters/parameters.service';
import { RequiredCapabilitiesService } from 'src/modules/server-capabilities/required-capabilities.service';
import { TenancyService } from 'src/modules/tenants/tenancy.service';
import { TopologiesService } from 'src/modules/topologies/topologies.service';
import type { DeliveryServiceInput, DeliveryServiceWrite } from './delivery-service.input';
import { DeliveryServiceRegexesService } from 'src/modules/delivery-services/regexes/delivery-service-regexes.service';
import { hasSslKeys, sanitize } from './delivery-service-rules';
import { tlsVersionWarnings } from './delivery-service-tls-versions';
import type { DeliveryServiceView } from './delivery-service.response';
import {
  addPrimaryOrigin,
  addQueryParams,
  addTlsVersions,
  columnsOf,
  replaceQueryParams,
  replaceTlsVersions,
  syncPrimaryOrigin,
} from './delivery-service-details';
import { checkLegacyFields, checkSslKeyFields, sslKeysOf, validateWrite } from './delivery-service-checks';
import { deliveryServiceViews, type Details, skippedDetails } from './delivery-service-views';
import { type DeliveryServiceRow, DeliveryServicesRepository } from './delivery-services.repository';
import type { SafeUpdate } from 'src/modules/delivery-services/safe/safe-update.dto';
import { WireCompatService } from 'src/common/wire/wire-compat.service';
import type { DeliveryServiceRules } from './delivery-service-rules';
import { type TransactionManager, UnitOfWork } from 'src/common/database/unit-of-work';

/** Config files whose `location` parameters belong to a delivery service (deleted with it). */
const LOCATION_FILES = ['hdr_rw_', 'hdr_rw_mid_', 'regex_remap_', 'cacheurl_'];

const orNull = <T>(v: T | null | undefined): T | null => (v === undefined ? null : v);

/** A delivery service just created, as read back: with its type and CDN. */
export type CreatedDeliveryService = DeliveryServiceRow & Required<Pick<DeliveryServiceRow, 'type' | 'cdn'>>;

/**
 * Work another module does in a delivery service's create transaction once the delivery service and
 * its regexes are written (the keys module makes its DNSSEC keys); throwing refuses the create.
 */
export type DeliveryServiceCreatedHook = (created: CreatedDeliveryService) => Promise<void>;

/**
 * Reads and writes of delivery services (docs/original-behaviour.md#deliveryservices). Every write runs
 * in one transaction; uniqueness (xml_id) and references (cdn, profile) are the database's to refuse.
 */
@Injectable()
export class DeliveryServicesService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly deliveryServices: DeliveryServicesRepository,
    private readonly tenancy: TenancyService,
    private readonly regexes: DeliveryServiceRegexesService,
    private readonly topologies: TopologiesService,
    private readonly requiredCapabilities: RequiredCapabilitiesService,
    private readonly locks: CdnLocksService,
    private readonly parameters: ParametersService,
    wire: WireCompatService,
  ) {
    this.rules = { geoLimitCountriesPaired: !wire.original };
  }

  /** The rules where the specification and the original differ, by WIRE_COMPAT. */
  private readonly rules: DeliveryServiceRules;

  private readonly createdHooks: DeliveryServiceCreatedHook[] = [];

  /** Registers work for every create, run in its transaction (modules that depend on this one). */
  onCreated(hook: DeliveryServiceCreatedHook): void {
    this.createdHooks.push(hook);
  }

  /** The delivery services within reach (docs/decisions.md#d13), filtered, ordered and paged in SQL. */
  async list(query: ListQuery, user: CurrentUser): Promise<DeliveryServiceView[]> {
    return this.viewsOfRows(await this.deliveryServices.list(query, user.tenantId));
  }

  async create(
    write: DeliveryServiceWrite,
    user: CurrentUser,
  ): Promise<{ view: DeliveryServiceView; warnings: string[] }> {
    const { input, legacy, carries } = write;
    sanitize(input);
    // Joins the request's transaction: every failure rolls the whole request back, so no savepoint.
    const view = await this.unitOfWork.run(async (manager) => {
      await validateWrite(this.deliveryServices, manager, input, true, this.requiredCapabilities, this.rules);
      await this.tenancy.assertWithinReach(user.tenantId, input.tenantId!, manager);
      await this.checkReferences(manager, input);
      checkLegacyFields(write);
      if (input.cdnId) {
        // Another user's hard lock on the CDN refuses the write (docs/original-behaviour.md#cdn-locks).
        await this.locks.assertCanModifyCdn(input.cdnId, user);
      }
      const columns = columnsOf(write);
      const id = await this.deliveryServices.add(manager, {
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
      const tlsVersions = await addTlsVersions(this.deliveryServices, manager, id, input.tlsVersions);
      const consistentHashQueryParams = await addQueryParams(
        this.deliveryServices,
        manager,
        id,
        input.consistentHashQueryParams,
      );
      const row = (await this.row(manager, id)) as CreatedDeliveryService;
      for (const hook of this.createdHooks) {
        await hook(row);
      }
      const orgServerFqdn = await addPrimaryOrigin(this.deliveryServices, manager, id, input);
      const requiredCapabilities = carries.requiredCapabilities
        ? distinctAsStored(input.requiredCapabilities ?? [])
        : [];
      if (requiredCapabilities.length > 0) {
        await this.requiredCapabilities.addToNew(id, requiredCapabilities, manager);
      }
      // The details were all written above, from the body: answered as written, in the order a
      // read-back gives them, rather than read back.
      const [view] = await this.viewsOfRows([row], manager, {
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
    const view = await this.unitOfWork.run(async (manager) => {
      const existing = await this.deliveryServices.lockedById(manager, id);
      if (!existing) {
        throw new NotFoundException(`no such Delivery Service: #${id}`);
      }
      await this.locks.assertCanModifyCdn(existing.cdnId, user);
      const type = await validateWrite(
        this.deliveryServices,
        manager,
        input,
        false,
        this.requiredCapabilities,
        this.rules,
      );
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
          : await sslKeysOf(this.deliveryServices, manager, input.xmlId!);
      if (!byXmlId) {
        throw new NotFoundException(`delivery service '${input.xmlId}' not found`);
      }
      if (hasSslKeys(byXmlId.typeName ?? '') && (byXmlId.sslKeyVersion ?? 0) >= 1) {
        await checkSslKeyFields(this.deliveryServices, manager, existing, input);
        input.sslKeyVersion = existing.sslKeyVersion;
      }
      // A body without capabilities (before 4.1): those the delivery service requires count (read
      // only when the check below needs them: with a topology).
      const required = async (): Promise<string[]> =>
        carries.requiredCapabilities
          ? (input.requiredCapabilities ?? [])
          : ((await this.requiredCapabilities.requiredBy([id], manager)).get(id) ?? []);
      await this.checkReferences(manager, input, { id, required });
      checkLegacyFields(write);

      const columns = columnsOf(write);
      await this.deliveryServices.change(manager, id, {
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
      });
      const tlsVersions = carries.tlsVersions
        ? await replaceTlsVersions(this.deliveryServices, manager, id, input.tlsVersions)
        : undefined;
      const consistentHashQueryParams = await replaceQueryParams(
        this.deliveryServices,
        manager,
        id,
        input.consistentHashQueryParams,
      );
      await syncPrimaryOrigin(this.deliveryServices, manager, id, input);
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
    await this.unitOfWork.run(async (manager) => {
      const existing = await this.deliveryServices.lockedById(manager, id);
      if (!existing) {
        throw new NotFoundException('delivery service not found');
      }
      await this.locks.assertCanModifyCdn(existing.cdnId, user);
      await this.tenancy.assertWithinReach(user.tenantId, existing.tenantId, manager);
      await this.regexes.removeAllOf(manager, id);
      await this.deliveryServices.remove(manager, id);
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
    await this.deliveryServices.setSslKeyVersion(xmlId, version);
  }

  /** PUT …/safe: tenancy, the body, then existence (docs/original-behaviour.md#deliveryservices-safe). */
  async updateSafe(
    id: number,
    body: DeferredBody<SafeUpdate>,
    user: CurrentUser,
  ): Promise<DeliveryServiceView> {
    return this.unitOfWork.run(async (manager) => {
      const existing = await this.deliveryServices.lockedById(manager, id);
      if (existing) {
        await this.tenancy.assertWithinReach(user.tenantId, existing.tenantId, manager);
      }
      const safe = await body.read();
      if (!existing) {
        throw new NotFoundException(`no Delivery Service exists by ID '${id}'`);
      }
      await this.deliveryServices.change(manager, id, {
        displayName: safe.displayName,
        infoUrl: safe.infoUrl,
        longDesc: safe.longDesc,
        ...(safe.longDesc1 === undefined ? {} : { longDesc1: safe.longDesc1 }),
      });
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
      await validateWrite(
        this.deliveryServices,
        undefined,
        input,
        create,
        this.requiredCapabilities,
        this.rules,
      );
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
    if ('ids' in where && where.ids.length === 0) {
      return [];
    }
    return this.viewsOfRows(await this.deliveryServices.byIdsOrXmlId(where));
  }

  private async load(
    manager: TransactionManager,
    id: number,
    known: Partial<Details> = {},
  ): Promise<DeliveryServiceView> {
    const [view] = await this.viewsOfRows([await this.row(manager, id)], manager, known);
    return view;
  }

  /** The row of delivery service `id` with its type, CDN, profile and tenant. */
  private async row(manager: TransactionManager, id: number): Promise<DeliveryServiceRow> {
    const row = await this.deliveryServices.row(manager, id);
    if (!row) {
      throw new NotFoundException(`no such Delivery Service: #${id}`);
    }
    return row;
  }

  /**
   * The topology must exist with servers of the delivery service's CDN in each of its cache groups,
   * and on an update each cache group must have a server with the capabilities the delivery
   * service requires, and the delivery service's ORG servers must be in its cache groups
   * (docs/original-behaviour.md#topologies). A service category is the database's to check (its
   * foreign key answers 404 `service_category not found`, as the original's).
   */
  private async checkReferences(
    manager: TransactionManager,
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

  /**
   * The views of rows: their origins, TLS versions, query parameters, match lists and required
   * capabilities read with five queries, less those of the details in `known` (of a single row,
   * whose write just set them). Without a manager, on the data source's.
   */
  private async viewsOfRows(
    rows: DeliveryServiceRow[],
    manager?: TransactionManager,
    known: Partial<Details> = {},
  ): Promise<DeliveryServiceView[]> {
    if (rows.length === 0) {
      return [];
    }
    if (rows.length > 1 && Object.keys(known).length > 0) {
      throw new Error('views: known details are those of a single delivery service');
    }
    const ids = rows.map((r) => r.id);
    const details = await this.deliveryServices.details(ids, skippedDetails(known), manager);
    const capabilities =
      known.requiredCapabilities === undefined
        ? await this.requiredCapabilities.requiredBy(ids, manager)
        : new Map<number, string[]>();
    return deliveryServiceViews(rows, details, capabilities, known);
  }
}
