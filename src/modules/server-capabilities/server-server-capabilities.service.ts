import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { translateDbErrors } from 'src/common/database/db-error';
import type { ListQuery } from 'src/common/list-query/list-query';
import type { CurrentUser } from 'src/common/types/current-user';
import { TenancyService } from 'src/modules/tenants/tenancy.service';
import type { MultipleServersCapabilities } from './dto/multiple-servers-capabilities.dto';
import type { ServerServerCapabilityRow } from './dto/server-server-capability.response';
import { ServerServerCapabilityDto } from './dto/server-server-capability.dto';
import { ServerCapabilitiesRepository } from './server-capabilities.repository';

/** The original's text for a pair that exists (its PostgreSQL unique-violation text). */
const pairTaken = (serverId: number, capability: string): BadRequestException =>
  new BadRequestException(
    `server_server_capability server, server_capability '${serverId}, ${capability}' already exists.`,
  );

/** Which pairs a multiple_servers_capabilities request names, by its page type. */
type PageType = 'sc' | 'server';

/**
 * Which capabilities servers have (docs/original-behaviour.md#server-server-capabilities): only
 * EDGE and MID servers have any; a capability cannot be taken from a server while a delivery
 * service the server is assigned to requires it.
 */
@Injectable()
export class ServerServerCapabilitiesService {
  constructor(
    private readonly capabilities: ServerCapabilitiesRepository,
    private readonly tenancy: TenancyService,
  ) {}

  list(query: ListQuery): Promise<ServerServerCapabilityRow[]> {
    return this.capabilities.listPairs(query);
  }

  /**
   * POST server_server_capabilities: the server must exist (404) and be an EDGE or MID server (400);
   * an unknown capability is refused by the foreign key (404 `server_capability not found`), a pair
   * that exists by the primary key.
   */
  async create(dto: ServerServerCapabilityDto): Promise<ServerServerCapabilityRow> {
    await this.checkServers([dto.serverId]);
    await translateDbErrors(
      () => this.capabilities.addPair(dto.serverId, dto.serverCapability),
      (failure) => (failure.kind === 'unique' ? pairTaken(dto.serverId, dto.serverCapability) : undefined),
    );
    const row = await this.capabilities.pair(dto.serverId, dto.serverCapability);
    return { serverId: row.serverId, serverCapability: row.serverCapability, lastUpdated: row.lastUpdated };
  }

  /**
   * DELETE server_server_capabilities?serverId=&serverCapability=: refused while a delivery service
   * the server is assigned to requires the capability (naming those within the user's tenancy);
   * the pair is locked first and the requirements are read with a locking read, so that none can be
   * added in between.
   */
  async remove(user: CurrentUser, serverId: number, capability: string): Promise<void> {
    await this.capabilities.lockPair(serverId, capability);
    await this.checkTopologyDeliveryServicesKept(user, serverId, capability);
    const requiring = await this.capabilities.requiringDeliveryServices(serverId, capability);
    if (requiring.length > 0) {
      const reachable = new Set(await this.tenancy.reachableTenantIds(user.tenantId));
      const visible = requiring.filter((ds) => reachable.has(ds.tenantId)).map((ds) => ds.id);
      const which = visible.length > 0 ? `the delivery services ${visible.join(',')}` : 'delivery services';
      throw new BadRequestException(
        `cannot remove the capability ${capability} from the server ${serverId} as the server is assigned to ${which} that require it`,
      );
    }
    if (!(await this.capabilities.removePair(serverId, capability))) {
      throw new NotFoundException('no server server_capability with that key found');
    }
  }

  /**
   * checkTopologyBasedDSRequiredCapabilities: the delivery services whose topology holds the server's
   * cache group and that require the capability each keep another server of that cache group and
   * CDN with all their required capabilities; else 400 naming those the user's tenancy reaches.
   * Locking reads: no other server loses a capability between this check and the deletion.
   */
  private async checkTopologyDeliveryServicesKept(
    user: CurrentUser,
    serverId: number,
    capability: string,
  ): Promise<void> {
    const requiring = await this.capabilities.topologyDeliveryServicesRequiring(serverId, capability);
    if (requiring.length === 0) {
      return;
    }
    const others = await this.capabilities.otherCapableServersOfCachegroup(serverId, capability);
    const capabilitiesOf = new Map<number, Set<string>>();
    for (const row of others) {
      const set = capabilitiesOf.get(Number(row.id)) ?? new Set<string>();
      set.add(row.capability);
      capabilitiesOf.set(Number(row.id), set);
    }
    const deliveryServices = new Map<string, { topology: string; tenantId: number; required: string[] }>();
    for (const row of requiring) {
      const ds = deliveryServices.get(row.xmlId) ?? {
        topology: row.topology,
        tenantId: Number(row.tenantId),
        required: [],
      };
      ds.required.push(row.required);
      deliveryServices.set(row.xmlId, ds);
    }
    const unsatisfied = [...deliveryServices].filter(
      ([, ds]) => ![...capabilitiesOf.values()].some((has) => ds.required.every((c) => has.has(c))),
    );
    if (unsatisfied.length === 0) {
      return;
    }
    const reachable = new Set(await this.tenancy.reachableTenantIds(user.tenantId));
    const named = unsatisfied
      .filter(([, ds]) => reachable.has(ds.tenantId))
      .map(([xmlId, ds]) => `(xml_id = ${xmlId}, topology = ${ds.topology})`);
    throw new BadRequestException(
      "this capability is required by delivery services, but there are no other servers in this server's " +
        `cachegroup to satisfy them ${named.join(', ')}`,
    );
  }

  /**
   * POST multiple_servers_capabilities: one server and several capabilities (`pageType` `server`)
   * or one capability and several servers (`sc`), never many to many. Each server must exist and be
   * an EDGE or MID server; each pair is added in turn (a pair that exists, or an unknown capability,
   * refuses the whole request).
   */
  async assignMany(body: MultipleServersCapabilities): Promise<PageType> {
    const ids = body.serverIds ?? [];
    const capabilities = body.serverCapabilities ?? [];
    if (ids.length > 1 && capabilities.length > 1) {
      throw new BadRequestException(
        'not allowed to have many:many association between server and server capability. ' +
          'Only associations allowed are; 1:1, 1:many or many:1',
      );
    }
    await this.checkServers(ids);
    const pageType = this.pageType(body.pageType, ' ');
    const pairs: [number, string][] =
      pageType === 'sc'
        ? ids.map((id): [number, string] => [id, capabilities[0]])
        : capabilities.map((capability): [number, string] => [ids[0], capability]);
    for (const [serverId, capability] of pairs) {
      await translateDbErrors(
        () => this.capabilities.addPair(serverId, capability),
        (failure) => (failure.kind === 'unique' ? pairTaken(serverId, capability) : undefined),
      );
    }
    return pageType;
  }

  /**
   * DELETE multiple_servers_capabilities: `sc` removes the capability from the one server named, or
   * from every server when several or none are; `server` removes from the server the one capability
   * named, or all its capabilities. Answers how many pairs went.
   */
  async removeMany(body: MultipleServersCapabilities): Promise<{ pageType: PageType; removed: number }> {
    const ids = body.serverIds ?? [];
    const capabilities = body.serverCapabilities ?? [];
    await this.checkServers(ids, false);
    const pageType = this.pageType(body.pageType, '');
    let where: { capability?: string; serverId?: number };
    if (pageType === 'sc') {
      if (capabilities.length === 0) {
        throw new BadRequestException("'serverCapabilities' cannot be blank");
      }
      where = { capability: capabilities[0], ...(ids.length === 1 ? { serverId: ids[0] } : {}) };
    } else {
      if (ids.length === 0) {
        throw new BadRequestException("'serverIds' cannot be blank");
      }
      where = { serverId: ids[0], ...(capabilities.length === 1 ? { capability: capabilities[0] } : {}) };
    }
    return { pageType, removed: await this.capabilities.removePairs(where) };
  }

  /** The page type, or the original's 400 (its POST and DELETE texts differ by a space). */
  private pageType(pageType: string | null | undefined, space: string): PageType {
    if (pageType === 'sc' || pageType === 'server') {
      return pageType;
    }
    throw new BadRequestException(
      `incorrect page type:${space}'${pageType ?? ''}'. Should be 'sc' or 'server'`,
    );
  }

  /**
   * Each server exists (404 `server <id> does not exist`, in the body's order), then, unless told
   * otherwise, each is an EDGE or MID server (400 naming the first that is not).
   */
  private async checkServers(ids: number[], capable = true): Promise<void> {
    if (ids.length === 0) {
      return;
    }
    const found = await this.capabilities.serversCapable(ids);
    const missing = ids.find((id) => !found.has(id));
    if (missing !== undefined) {
      throw new NotFoundException(`server ${missing} does not exist`);
    }
    const wrongType = capable ? ids.find((id) => !found.get(id)) : undefined;
    if (wrongType !== undefined) {
      throw new BadRequestException(
        `server id: ${wrongType} has an incorrect server type. Server capabilities can only be assigned to EDGE or MID servers`,
      );
    }
  }
}
