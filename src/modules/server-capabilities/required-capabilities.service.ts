import { BadRequestException, ForbiddenException, Injectable, NotFoundException } from '@nestjs/common';
import { translateDbErrors } from 'src/common/database/db-error';
import type { TransactionManager } from 'src/common/database/unit-of-work';
import type { ListQuery } from 'src/common/list-query/list-query';
import type { CurrentUser } from 'src/common/types/current-user';
import { NOT_AUTHORIZED_ON_TENANT, TenancyService } from 'src/modules/tenants/tenancy.service';
import { RequiredCapabilityDto } from './dto/required-capability.dto';
import type { RequiredCapabilityRow } from './dto/required-capability.response';
import { ServerCapabilitiesRepository, type DeliveryServiceInfo } from './server-capabilities.repository';

/** The delivery-service types that can require capabilities (lib/go-tc DSType IsHTTP / IsDNS). */
const CAPABLE_DS_TYPES = [
  'HTTP',
  'HTTP_LIVE',
  'HTTP_LIVE_NATNL',
  'HTTP_NO_CACHE',
  'DNS',
  'DNS_LIVE',
  'DNS_LIVE_NATNL',
];

/**
 * The capabilities delivery services require of their caches
 * (docs/original-behaviour.md#deliveryservices-required-capabilities), under the delivery service's
 * tenancy. Also read by the delivery services' responses (`requiredCapabilities`).
 */
@Injectable()
export class RequiredCapabilitiesService {
  constructor(
    private readonly capabilities: ServerCapabilitiesRepository,
    private readonly tenancy: TenancyService,
  ) {}

  list(query: ListQuery, user: CurrentUser): Promise<RequiredCapabilityRow[]> {
    return this.capabilities.listRequired(query, user.tenantId);
  }

  /**
   * The capabilities each of these delivery services requires, in name order (read with `manager`
   * when given, e.g. inside the caller's transaction).
   */
  async requiredBy(
    deliveryServiceIds: number[],
    manager?: TransactionManager,
  ): Promise<Map<number, string[]>> {
    const byDs = new Map<number, string[]>();
    if (deliveryServiceIds.length === 0) {
      return byDs;
    }
    for (const row of await this.capabilities.requiredOf(deliveryServiceIds, manager)) {
      byDs.set(row.ds, [...(byDs.get(row.ds) ?? []), row.capability]);
    }
    return byDs;
  }

  /** Those of `names` that are capabilities. */
  async existing(names: string[], manager?: TransactionManager): Promise<Set<string>> {
    if (names.length === 0) {
      return new Set();
    }
    return this.capabilities.existingCapabilities(names, manager);
  }

  /**
   * Makes `names` the capabilities the delivery service requires (a delivery service's 4.1+ body,
   * docs/original-behaviour.md#deliveryservices-required-capabilities): the others are removed, the
   * new ones added; an unknown name is refused by the foreign key.
   */
  async replace(deliveryServiceId: number, names: string[], manager?: TransactionManager): Promise<void> {
    const wanted = [...new Set(names)];
    const have = await this.capabilities.removeRequiredExcept(deliveryServiceId, wanted, manager);
    const added = wanted.filter((name) => !have.has(name));
    if (added.length > 0) {
      await this.capabilities.addRequired(deliveryServiceId, added, manager);
    }
  }

  /**
   * The capabilities a delivery service created in this transaction requires (its 4.1+ body): it
   * has none yet, so they are only added; an unknown name is refused by the foreign key.
   */
  async addToNew(deliveryServiceId: number, names: string[], manager?: TransactionManager): Promise<void> {
    await this.capabilities.addRequired(deliveryServiceId, [...new Set(names)], manager);
  }

  /**
   * POST deliveryservices_required_capabilities, with the original's checks in its order: the
   * delivery service's tenancy, its existence, its type (HTTP or DNS), the capability's existence,
   * then that every server assigned to it (origins aside) has the capability. The delivery service
   * and those servers' capabilities are locked, so no server loses it in between.
   */
  async create(dto: RequiredCapabilityDto, user: CurrentUser): Promise<RequiredCapabilityRow> {
    const ds = await this.deliveryService(dto.deliveryServiceID);
    if (ds) {
      await this.assertReach(user, ds);
    }
    if (!ds) {
      throw new NotFoundException(`a deliveryservice with id '${dto.deliveryServiceID}' was not found`);
    }
    if (!CAPABLE_DS_TYPES.includes(ds.type)) {
      throw new BadRequestException(
        'invalid DS type. Only DNS and HTTP delivery services can have required capabilities',
      );
    }
    if (!(await this.capabilities.capabilityExistsLocked(dto.requiredCapability))) {
      throw new NotFoundException('server_capability not found');
    }
    if (ds.topology === null) {
      await this.checkAssignedServers(ds.id, dto.requiredCapability);
    } else {
      const have = await this.requiredBy([ds.id]);
      if ((have.get(ds.id) ?? []).includes(dto.requiredCapability)) {
        throw new BadRequestException(
          `capability ${dto.requiredCapability} already exists for delivery service with ID: ${ds.id}`,
        );
      }
      try {
        await this.checkTopologyServers(ds.id, ds.topology, [
          ...(have.get(ds.id) ?? []),
          dto.requiredCapability,
        ]);
      } catch (error) {
        if (error instanceof BadRequestException) {
          throw new BadRequestException(`cannot add required capability: ${error.message}`);
        }
        throw error;
      }
    }
    await translateDbErrors(
      () => this.capabilities.addRequired(ds.id, [dto.requiredCapability]),
      (failure) =>
        failure.kind === 'unique'
          ? new BadRequestException(
              `capability ${dto.requiredCapability} already exists for delivery service with ID: ${ds.id}`,
            )
          : undefined,
    );
    const row = await this.capabilities.requiredPair(ds.id, dto.requiredCapability);
    return {
      deliveryServiceId: row.deliveryServiceId,
      requiredCapability: row.requiredCapability,
      lastUpdated: row.lastUpdated,
    };
  }

  /** DELETE deliveryservices_required_capabilities?deliveryServiceID=&requiredCapability=. */
  async remove(deliveryServiceId: number, capability: string, user: CurrentUser): Promise<void> {
    const ds = await this.deliveryService(deliveryServiceId);
    if (ds) {
      await this.assertReach(user, ds);
    }
    if (!(await this.capabilities.removeRequired(deliveryServiceId, capability))) {
      throw new NotFoundException('no deliveryservice.RequiredCapability with that key found');
    }
  }

  /**
   * EnsureTopologyBasedRequiredCapabilities: each cache group of the topology (origin cache groups
   * aside) has at least one server of the delivery service's CDN with every capability in
   * `capabilities`, else 400 naming the cache groups that have none (in name order); 400 too when
   * the topology has no server of that CDN at all. Used when a capability is added to a
   * topology-based delivery service and when a delivery service with required capabilities is
   * given a topology. A locking read of the servers' capabilities.
   */
  async checkTopologyServers(
    dsId: number,
    topology: string,
    capabilities: string[],
    manager?: TransactionManager,
  ): Promise<void> {
    const wanted = [...new Set(capabilities)];
    const rows = await this.capabilities.topologyServers(dsId, topology, wanted, manager);
    if (rows.length === 0) {
      throw new BadRequestException(
        `topology ${topology} contains no servers in this delivery service's CDN; therefore, this ` +
          "delivery service's required capabilities cannot be satisfied",
      );
    }
    const served = new Set(rows.filter((row) => row.has === wanted.length).map((row) => row.cachegroup));
    const invalid = [...new Set(rows.map((row) => row.cachegroup))].filter((cg) => !served.has(cg));
    if (invalid.length > 0) {
      throw new BadRequestException(
        "the following cachegroups in this delivery service's topology do not contain at least one " +
          `server with the required capabilities: ${invalid.join(', ')}`,
      );
    }
  }

  /**
   * Every non-origin server assigned to the delivery service has the capability, else 400 naming
   * those that lack it. A locking read: it sees the latest assignments and capabilities and keeps
   * them until the write commits, so no server loses the capability in between.
   */
  private async checkAssignedServers(dsId: number, capability: string): Promise<void> {
    const lacking = await this.capabilities.assignedServersLacking(dsId, capability);
    if (lacking.length > 0) {
      throw new BadRequestException(
        `capability ${capability} cannot be made required on the delivery service ${dsId} as it has the ` +
          `associated servers ${lacking.join(',')} that do not have the capability assigned`,
      );
    }
  }

  private deliveryService(id: number): Promise<DeliveryServiceInfo | undefined> {
    return this.capabilities.lockedDeliveryService(id);
  }

  private async assertReach(user: CurrentUser, ds: DeliveryServiceInfo): Promise<void> {
    if (!(await this.tenancy.isWithinReach(user.tenantId, ds.tenantId))) {
      throw new ForbiddenException(NOT_AUTHORIZED_ON_TENANT);
    }
  }
}
