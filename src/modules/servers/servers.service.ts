import { UnitOfWork } from 'src/common/database/unit-of-work';
import { insertRow, insertRows } from 'src/common/database/insert-rows';
import {
  BadRequestException,
  ConflictException,
  ForbiddenException,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import type { CurrentUser } from 'src/common/types/current-user';
import { CdnLocksService } from 'src/modules/cdn-locks/cdn-locks.service';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager, In } from 'typeorm';
import { lockingClause, writeLock } from 'src/common/database/locks';
import { getPlainMany, getPlainManyForIds, getPlainOne, groupBy } from 'src/common/database/plain-rows';
import { applyListQuery, type ListQuery } from 'src/common/list-query/list-query';
import { Profile } from 'src/modules/profiles/profile.entity';
import { TenancyService } from 'src/modules/tenants/tenancy.service';
import { Type } from 'src/modules/types/type.entity';
import { InterfaceV4Dto, ServerV3Dto, ServerV4Dto } from './dto/server.dto';
import type { LoadedServer } from './dto/server.response';
import { IpAddress } from './ip-address.entity';
import { canonicalInet } from 'src/common/net/inet';
import { interfaceProblems } from './server-rules';
import {
  activeDeliveryServicesOnlyServedBy,
  assertServiceAddressesFree,
  assertStillServing,
  emptiedTopologyCachegroup,
  serviceAddressesOf,
} from './server-keep-rules';
import { ServerInterface } from './server-interface.entity';
import { ServerProfile } from './server-profile.entity';
import { Server } from './server.entity';
import { serversOfDeliveryService } from './servers.list';

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
    @InjectDataSource() private readonly dataSource: DataSource,
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
      const [ds] = await this.dataSource.query<{ tenant_id: number | string }[]>(
        'SELECT tenant_id FROM deliveryservice WHERE id = ?',
        [dsId],
      );
      if (ds && !(await this.tenancy.isWithinReach(userTenantId, Number(ds.tenant_id)))) {
        throw new ForbiddenException('Forbidden');
      }
    }
    const qb = applyListQuery(this.withNames(this.dataSource.manager), query);
    const [servers, counted] = await Promise.all([
      getPlainMany(qb),
      // Without a page, the answer holds every matching server: its length is the count.
      query.limit === undefined ? undefined : qb.getCount(),
    ]);
    return {
      servers: await this.loadDetails(this.dataSource.manager, servers),
      count: counted ?? servers.length,
    };
  }

  async findOne(
    id: number,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<LoadedServer | undefined> {
    const server = await getPlainOne(this.withNames(manager).where('server.id = :id', { id }));
    return server ? (await this.loadDetails(manager, [server]))[0] : undefined;
  }

  async create(dto: ServerV3Dto | ServerV4Dto, user: CurrentUser): Promise<LoadedServer> {
    const write = await this.validated(dto);
    await this.locks.assertCanModifyCdn(dto.cdnId, user);
    return this.unitOfWork.run(async (manager) => {
      await assertServiceAddressesFree(
        manager,
        serviceAddressesOf(write.interfaces),
        write.profiles,
        lockingClause(this.dataSource, 'write'),
      );
      const now = new Date();
      const id = await insertRow(manager, Server, {
        ...this.columns(dto),
        xmppId: randomUUID(),
        statusLastUpdated: now,
        // The original's columns are NOT NULL DEFAULT epoch: a new server has every time, nothing pending.
        configUpdateTime: new Date(0),
        configApplyTime: new Date(0),
        revalidateUpdateTime: new Date(0),
        revalidateApplyTime: new Date(0),
      });
      await this.writeParts(manager, id, write);
      return (await this.findOne(id, manager))!;
    });
  }

  /** Replaces the server, its profiles and its interfaces in one transaction. */
  async update(id: number, dto: ServerV3Dto | ServerV4Dto, user: CurrentUser): Promise<LoadedServer> {
    const write = await this.validated(dto);
    return this.unitOfWork.run(async (manager) => {
      const existing = await manager.findOne(Server, { where: { id }, lock: writeLock(this.dataSource) });
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
      await assertStillServing(manager, existing, dto);
      await assertServiceAddressesFree(
        manager,
        serviceAddressesOf(write.interfaces),
        write.profiles,
        lockingClause(this.dataSource, 'write'),
        id,
      );
      await this.assertTypeAndCdnChangeable(manager, existing, dto);
      await manager.update(
        Server,
        { id },
        {
          ...this.columns(dto),
          ...(dto.statusId !== existing.statusId ? { statusLastUpdated: new Date() } : {}),
        },
      );
      await manager.delete(ServerProfile, { serverId: id });
      await manager.delete(ServerInterface, { serverId: id });
      await this.writeParts(manager, id, write);
      return (await this.findOne(id, manager))!;
    });
  }

  /**
   * A server assigned to delivery services keeps its type and CDN (409, the original's texts). The
   * server row is write-locked by the caller, so no assignment can be added before the update commits.
   */
  private async assertTypeAndCdnChangeable(
    manager: EntityManager,
    existing: Server,
    dto: ServerV3Dto | ServerV4Dto,
  ): Promise<void> {
    if (dto.typeId === existing.typeId && dto.cdnId === existing.cdnId) {
      return;
    }
    const [assigned] = await manager.query<unknown[]>(
      'SELECT 1 AS one FROM deliveryservice_server WHERE server = ? LIMIT 1',
      [existing.id],
    );
    if (!assigned) {
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
      const left = await activeDeliveryServicesOnlyServedBy(manager, {
        id,
        type: server.server.type?.name ?? '',
      });
      if (left.length > 0) {
        throw new ConflictException(`deleting server #${id} would leave Active Delivery Service`);
      }
      await this.locks.assertCanModifyCdn(server.server.cdnId, user);
      const emptied = await emptiedTopologyCachegroup(manager, server.server);
      if (emptied) {
        throw new BadRequestException(
          `server is the last one in its cachegroup, which is used by a topology: ${emptied}`,
        );
      }
      await manager.delete(Server, { id });
      return server;
    });
  }

  private withNames(manager: EntityManager) {
    return manager
      .createQueryBuilder(Server, 'server')
      .leftJoinAndSelect('server.cachegroup', 'cachegroup')
      .leftJoinAndSelect('server.cdn', 'cdn')
      .leftJoinAndSelect('server.physLocation', 'physLocation')
      .leftJoinAndSelect('server.status', 'status')
      .leftJoinAndSelect('server.type', 'type');
  }

  /**
   * Profiles (by priority), interfaces and addresses of a page of servers: three set-based queries
   * into plain rows (docs/decisions.md#d106), grouped in one pass each.
   */
  private async loadDetails(manager: EntityManager, servers: Server[]): Promise<LoadedServer[]> {
    if (servers.length === 0) {
      return [];
    }
    const ids = servers.map((s) => s.id);
    const [links, interfaces, addresses] = await Promise.all([
      getPlainManyForIds(
        manager,
        manager
          .createQueryBuilder(ServerProfile, 'link')
          .innerJoinAndSelect('link.profile', 'profile')
          .where('link.server IN (:ids)')
          .orderBy('link.priority', 'ASC'),
        ids,
      ),
      getPlainManyForIds(
        manager,
        manager
          .createQueryBuilder(ServerInterface, 'iface')
          .where('iface.server IN (:ids)')
          .orderBy('iface.name', 'ASC'),
        ids,
      ),
      getPlainManyForIds(
        manager,
        manager.createQueryBuilder(IpAddress, 'ip').where('ip.server IN (:ids)').orderBy('ip.id', 'ASC'),
        ids,
      ),
    ]);
    const addressesOf = groupBy(addresses, (ip) => ip.interfaceId);
    for (const iface of interfaces) {
      iface.ipAddresses = addressesOf.get(iface.id) ?? [];
    }
    const linksOf = groupBy(links, (l) => l.serverId);
    const interfacesOf = groupBy(interfaces, (i) => i.serverId);
    return servers.map((server) => ({
      server,
      profiles: (linksOf.get(server.id) ?? []).map((l) => l.profile!),
      interfaces: interfacesOf.get(server.id) ?? [],
    }));
  }

  /**
   * The original's checks that need more than the body (validateV4 / validateCommonV40): the
   * interface rules, a type of servers, and profiles that exist and belong to the server's CDN.
   * Every problem is reported, joined in this order.
   */
  private async validated(dto: ServerV3Dto | ServerV4Dto): Promise<ServerWrite> {
    const interfaces = this.interfacesOf(dto);
    const problems = interfaceProblems(interfaces);
    const type = await this.dataSource.manager.findOneBy(Type, { id: dto.typeId });
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
      const profile = await this.dataSource.manager.findOneBy(Profile, { id: dto.profileId });
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
    const found = await this.dataSource.manager.findBy(Profile, { name: In(dto.profileNames) });
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

  /**
   * Profiles, interfaces and their addresses of server `id`. Interface ids are read back by name,
   * never assumed consecutive.
   */
  private async writeParts(manager: EntityManager, id: number, write: ServerWrite): Promise<void> {
    await insertRows(
      manager,
      ServerProfile,
      write.profiles.map((profile, priority) => ({ serverId: id, profileId: profile.id, priority })),
    );
    await insertRows(
      manager,
      ServerInterface,
      write.interfaces.map((iface) => ({
        serverId: id,
        name: iface.name,
        monitor: iface.monitor ?? false,
        mtu: iface.mtu ?? null,
        maxBandwidth: iface.maxBandwidth ?? null,
        routerHostName: iface.routerHostName ?? null,
        routerPortName: iface.routerPortName ?? null,
      })),
    );
    const stored = await manager.find(ServerInterface, { where: { serverId: id } });
    const addresses = write.interfaces.flatMap((iface) => {
      const interfaceId = stored.find((s) => s.name === iface.name)!.id;
      return iface.ipAddresses.map((ip) => ({
        serverId: id,
        interfaceId,
        address: canonicalInet(ip.address),
        gateway: ip.gateway ? canonicalInet(ip.gateway) : (ip.gateway ?? null),
        serviceAddress: ip.serviceAddress,
      }));
    });
    if (addresses.length > 0) {
      await insertRows(manager, IpAddress, addresses);
    }
  }
}
