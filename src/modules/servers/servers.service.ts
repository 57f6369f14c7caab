import { type TransactionManager, UnitOfWork } from 'src/common/database/unit-of-work';
import {
  BadRequestException,
  ConflictException,
  ForbiddenException,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import type { CurrentUser } from 'src/common/types/current-user';
import { CdnLocksService } from 'src/modules/cdn-locks/cdn-locks.service';
import { randomUUID } from 'node:crypto';
import type { ListQuery } from 'src/common/list-query/list-query';
import type { Profile } from 'src/modules/profiles/profile.entity';
import { TenancyService } from 'src/modules/tenants/tenancy.service';
import { InterfaceV4Dto, ServerV3Dto, ServerV4Dto } from './dto/server.dto';
import type { LoadedServer } from './dto/server.response';
import { canonicalInet } from 'src/common/net/inet';
import { interfaceProblems } from './server-rules';
import {
  activeDeliveryServicesOnlyServedBy,
  assertServiceAddressesFree,
  assertStillServing,
  emptiedTopologyCachegroup,
  serviceAddressesOf,
} from './server-keep-checks';
import type { Server } from './server.entity';
import { serversOfDeliveryService } from './servers.list';
import { ServersRepository, type ServerParts } from './servers.repository';

/** A server body of either version, with its profiles resolved. */
interface ServerWrite {
  dto: ServerV3Dto | ServerV4Dto;
  profiles: Profile[];
  interfaces: InterfaceV4Dto[];
}

@Injectable()
export class ServersService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly servers: ServersRepository,
    private readonly tenancy: TenancyService,
    private readonly locks: CdnLocksService,
  ) {}

  /**
   * One page of servers, with the number of servers matching the filters. Asking for the servers of
   * a delivery service (`dsId`) outside the user's tenancy is refused as the original does (403
   * `Forbidden`); an unknown delivery service has no servers.
   */
  async list(query: ListQuery, userTenantId: number): Promise<{ servers: LoadedServer[]; count: number }> {
    const dsId = query.filters.find((filter) => filter.condition === serversOfDeliveryService)?.value;
    if (typeof dsId === 'number') {
      const tenantId = await this.servers.deliveryServiceTenant(dsId);
      if (tenantId !== undefined && !(await this.tenancy.isWithinReach(userTenantId, tenantId))) {
        throw new ForbiddenException('Forbidden');
      }
    }
    return this.servers.list(query);
  }

  findOne(id: number, manager?: TransactionManager): Promise<LoadedServer | undefined> {
    return this.servers.byId(id, manager);
  }

  async create(dto: ServerV3Dto | ServerV4Dto, user: CurrentUser): Promise<LoadedServer> {
    const write = await this.validated(dto);
    await this.locks.assertCanModifyCdn(dto.cdnId, user);
    return this.unitOfWork.run(async (manager) => {
      await assertServiceAddressesFree(
        this.servers,
        manager,
        serviceAddressesOf(write.interfaces),
        write.profiles,
      );
      const now = new Date();
      const columns = {
        ...this.columns(dto),
        xmppId: randomUUID(),
        statusLastUpdated: now,
        // The original's columns are NOT NULL DEFAULT epoch: a new server has every time, nothing pending.
        configUpdateTime: new Date(0),
        configApplyTime: new Date(0),
        revalidateUpdateTime: new Date(0),
        revalidateApplyTime: new Date(0),
      };
      const id = await this.servers.add(manager, columns, this.parts(write));
      return (await this.findOne(id, manager))!;
    });
  }

  /** Replaces the server, its profiles and its interfaces in one transaction. */
  async update(id: number, dto: ServerV3Dto | ServerV4Dto, user: CurrentUser): Promise<LoadedServer> {
    const write = await this.validated(dto);
    return this.unitOfWork.run(async (manager) => {
      const existing = await this.servers.lockedById(manager, id);
      if (!existing) {
        throw new NotFoundException("the server doesn't exist, cannot update");
      }
      if (dto.xmppId && existing.xmppId && dto.xmppId !== existing.xmppId) {
        throw new BadRequestException(
          'server cannot be updated due to requested XMPPID change. XMPIDD is immutable',
        );
      }
      // The CDN the server is to be in, as the original checks it (docs/original-behaviour.md#cdn-locks).
      await this.locks.assertCanModifyCdn(dto.cdnId, user);
      await assertStillServing(this.servers, manager, existing, dto);
      await assertServiceAddressesFree(
        this.servers,
        manager,
        serviceAddressesOf(write.interfaces),
        write.profiles,
        id,
      );
      await this.assertTypeAndCdnChangeable(manager, existing, dto);
      await this.servers.change(
        manager,
        id,
        {
          ...this.columns(dto),
          ...(dto.statusId !== existing.statusId ? { statusLastUpdated: new Date() } : {}),
        },
        this.parts(write),
      );
      return (await this.findOne(id, manager))!;
    });
  }

  /**
   * A server assigned to delivery services keeps its type and CDN (409, the original's texts). The
   * server row is write-locked by the caller, so no assignment can be added before the update commits.
   */
  private async assertTypeAndCdnChangeable(
    manager: TransactionManager,
    existing: Server,
    dto: ServerV3Dto | ServerV4Dto,
  ): Promise<void> {
    if (dto.typeId === existing.typeId && dto.cdnId === existing.cdnId) {
      return;
    }
    if (!(await this.servers.isAssigned(manager, existing.id))) {
      return;
    }
    throw new ConflictException(
      dto.typeId !== existing.typeId
        ? 'server type can not be updated when it is currently assigned to Delivery Services'
        : 'server cdn can not be updated when it is currently assigned to delivery services',
    );
  }

  /** Deletes the server (its profiles, interfaces and addresses go with it); answers what was deleted. */
  remove(id: number, user: CurrentUser): Promise<LoadedServer> {
    return this.unitOfWork.run(async (manager) => {
      const server = await this.findOne(id, manager);
      if (!server) {
        throw new NotFoundException(`no server exists by id #${id}`);
      }
      const left = await activeDeliveryServicesOnlyServedBy(this.servers, manager, {
        id,
        type: server.server.type?.name ?? '',
      });
      if (left.length > 0) {
        throw new ConflictException(`deleting server #${id} would leave Active Delivery Service`);
      }
      await this.locks.assertCanModifyCdn(server.server.cdnId, user);
      const emptied = await emptiedTopologyCachegroup(this.servers, manager, server.server);
      if (emptied) {
        throw new BadRequestException(
          `server is the last one in its cachegroup, which is used by a topology: ${emptied}`,
        );
      }
      await this.servers.remove(manager, id);
      return server;
    });
  }

  /**
   * The original's checks that need more than the body (validateV4 / validateCommonV40): the
   * interface rules, a type of servers, and profiles that exist and belong to the server's CDN.
   * Every problem is reported, joined in this order.
   */
  private async validated(dto: ServerV3Dto | ServerV4Dto): Promise<ServerWrite> {
    const interfaces = this.interfacesOf(dto);
    const problems = interfaceProblems(interfaces);
    const type = await this.servers.typeById(dto.typeId);
    if (!type) {
      problems.push('type not found');
    } else if (type.useInTable !== 'server') {
      problems.push('type is not a valid server type');
    }
    const { profiles, problems: profileProblems } = await this.profilesOf(dto);
    problems.push(...profileProblems);
    if (problems.length > 0) {
      throw new BadRequestException(problems.join(', '));
    }
    return { dto, profiles, interfaces };
  }

  private async profilesOf(
    dto: ServerV3Dto | ServerV4Dto,
  ): Promise<{ profiles: Profile[]; problems: string[] }> {
    if ('profileId' in dto) {
      const profile = await this.servers.profileById(dto.profileId);
      if (!profile) {
        return { profiles: [], problems: [`no such profileId: '${dto.profileId}'`] };
      }
      const mismatch = profile.cdnId !== dto.cdnId;
      return {
        profiles: [profile],
        problems: mismatch
          ? [`CDN id '${profile.cdnId}' for profile '${profile.id}' does not match Server CDN '${dto.cdnId}'`]
          : [],
      };
    }
    if (dto.profileNames.length === 0) {
      return { profiles: [], problems: ['no profiles exists'] };
    }
    const found = await this.servers.profilesByName(dto.profileNames);
    const problems: string[] = [];
    const profiles: Profile[] = [];
    for (const name of dto.profileNames) {
      const profile = found.find((p) => p.name === name);
      if (!profile) {
        problems.push(`no such profileName: '${name}'`);
      } else if (profile.cdnId !== dto.cdnId) {
        problems.push(
          `CDN id '${profile.cdnId}' for profile '${name}' does not match Server CDN '${dto.cdnId}'`,
        );
      } else {
        profiles.push(profile);
      }
    }
    return { profiles, problems };
  }

  /** 3.x puts the router port on the server; it belongs to the interface with the service addresses. */
  private interfacesOf(dto: ServerV3Dto | ServerV4Dto): InterfaceV4Dto[] {
    if ('profileNames' in dto) {
      return dto.interfaces;
    }
    return dto.interfaces.map((iface) =>
      iface.ipAddresses.some((ip) => ip.serviceAddress)
        ? { ...iface, routerHostName: dto.routerHostName ?? null, routerPortName: dto.routerPortName ?? null }
        : iface,
    );
  }

  private columns(dto: ServerV3Dto | ServerV4Dto): Partial<Server> {
    return {
      cachegroupId: dto.cachegroupId,
      cdnId: dto.cdnId,
      domainName: dto.domainName,
      hostName: dto.hostName,
      httpsPort: dto.httpsPort ?? null,
      tcpPort: dto.tcpPort ?? null,
      physLocationId: dto.physLocationId,
      statusId: dto.statusId,
      typeId: dto.typeId,
      iloIpAddress: dto.iloIpAddress ?? null,
      iloIpGateway: dto.iloIpGateway ?? null,
      iloIpNetmask: dto.iloIpNetmask ?? null,
      iloPassword: dto.iloPassword ?? null,
      iloUsername: dto.iloUsername ?? null,
      mgmtIpAddress: dto.mgmtIpAddress ?? null,
      mgmtIpGateway: dto.mgmtIpGateway ?? null,
      mgmtIpNetmask: dto.mgmtIpNetmask ?? null,
      offlineReason: dto.offlineReason ?? null,
      rack: dto.rack ?? null,
      xmppPasswd: dto.xmppPasswd ?? null,
    };
  }

  /** The profiles and interfaces of a server body, as they are stored. */
  private parts(write: ServerWrite): ServerParts {
    return {
      profiles: write.profiles,
      interfaces: write.interfaces.map((iface) => ({
        name: iface.name,
        monitor: iface.monitor ?? false,
        mtu: iface.mtu ?? null,
        maxBandwidth: iface.maxBandwidth ?? null,
        routerHostName: iface.routerHostName ?? null,
        routerPortName: iface.routerPortName ?? null,
        ipAddresses: iface.ipAddresses.map((ip) => ({
          address: canonicalInet(ip.address),
          gateway: ip.gateway ? canonicalInet(ip.gateway) : (ip.gateway ?? null),
          serviceAddress: ip.serviceAddress,
        })),
      })),
    };
  }
}
