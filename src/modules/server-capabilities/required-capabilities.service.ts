import { bindParameters } from 'src/common/database/typeorm-adapter';
import { insertRows } from 'src/common/database/insert-rows';
import { rowsForIds } from 'src/common/database/plain-rows';
import { BadRequestException, ForbiddenException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { type DataSource, type EntityManager, In, type Repository } from 'typeorm';
import { translateDbErrors } from 'src/common/database/db-error';
import { lockingClause } from 'src/common/database/locks';
import { applyListQuery, type ListQuery } from 'src/common/list-query/list-query';
import { toDate } from 'src/common/time/timestamps';
import type { CurrentUser } from 'src/common/types/current-user';
import { DeliveryService } from 'src/modules/delivery-services/delivery-service.entity';
import { NOT_AUTHORIZED_ON_TENANT, TenancyService, withinTenancy } from 'src/modules/tenants/tenancy.service';
import { DeliveryServiceRequiredCapability } from './delivery-service-required-capability.entity';
import { ServerCapability } from './server-capability.entity';
import { RequiredCapabilityDto } from './dto/required-capability.dto';
import type { RequiredCapabilityRow } from './dto/required-capability.response';
import { runSql } from './sql';

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

interface DeliveryServiceInfo {
  id: number;
  tenantId: number;
  type: string;
  topology: string | null;
}

/**
 * The capabilities delivery services require of their caches
 * (docs/original-behaviour.md#deliveryservices-required-capabilities), under the delivery service's
 * tenancy. Also read by the delivery services' responses (`requiredCapabilities`).
 */
@Injectable()
export class RequiredCapabilitiesService {
  constructor(
    @InjectRepository(DeliveryServiceRequiredCapability)
    private readonly required: Repository<DeliveryServiceRequiredCapability>,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly tenancy: TenancyService,
  ) {}

  async list(query: ListQuery, user: CurrentUser): Promise<RequiredCapabilityRow[]> {
    const qb = withinTenancy(
      this.required
        .createQueryBuilder('drc')
        .innerJoin(DeliveryService, 'ds', 'ds.id = drc.deliveryservice_id')
        .select('drc.deliveryservice_id', 'deliveryServiceId')
        .addSelect('drc.required_capability', 'requiredCapability')
        .addSelect('drc.last_updated', 'lastUpdated')
        .addSelect('ds.xml_id', 'xmlId'),
      'ds.tenant_id',
      user.tenantId,
    );
    const rows = await applyListQuery(qb, query).getRawMany<{
      deliveryServiceId: number | string;
      requiredCapability: string;
      lastUpdated: Date | string;
      xmlId: string;
    }>();
    return rows.map((row) => ({
      deliveryServiceId: Number(row.deliveryServiceId),
      requiredCapability: row.requiredCapability,
      lastUpdated: toDate(row.lastUpdated),
      xmlId: row.xmlId,
    }));
  }

  /**
   * The capabilities each of these delivery services requires, in name order (read with `manager`
   * when given, e.g. inside the caller's transaction).
   */
  async requiredBy(deliveryServiceIds: number[], manager?: EntityManager): Promise<Map<number, string[]>> {
    const byDs = new Map<number, string[]>();
    if (deliveryServiceIds.length === 0) {
      return byDs;
    }
    const rows = await rowsForIds<{ ds: number | string; capability: string }>(
      manager ?? this.dataSource.manager,
      'SELECT t.deliveryservice_id AS ds, t.required_capability AS capability ' +
        'FROM deliveryservices_required_capability t WHERE t.deliveryservice_id IN (:ids) ' +
        'ORDER BY t.required_capability ASC',
      [...new Set(deliveryServiceIds)],
    );
    for (const row of rows) {
      const id = Number(row.ds);
      byDs.set(id, [...(byDs.get(id) ?? []), row.capability]);
    }
    return byDs;
  }

  /** Those of `names` that are capabilities. */
  async existing(names: string[], manager?: EntityManager): Promise<Set<string>> {
    if (names.length === 0) {
      return new Set();
    }
    const rows = await (manager ?? this.dataSource.manager).find(ServerCapability, {
      where: { name: In([...new Set(names)]) },
    });
    return new Set(rows.map((row) => row.name));
  }

  /**
   * Makes `names` the capabilities the delivery service requires (a delivery service's 4.1+ body,
   * docs/original-behaviour.md#deliveryservices-required-capabilities): the others are removed, the
   * new ones added; an unknown name is refused by the foreign key.
   */
  async replace(deliveryServiceId: number, names: string[], manager?: EntityManager): Promise<void> {
    const em = manager ?? this.dataSource.manager;
    const wanted = [...new Set(names)];
    const removed = em
      .createQueryBuilder()
      .delete()
      .from(DeliveryServiceRequiredCapability)
      .where('deliveryservice_id = :id', { id: deliveryServiceId });
    if (wanted.length > 0) {
      removed.andWhere('required_capability NOT IN (:...wanted)', { wanted });
    }
    await removed.execute();
    const present = await em.find(DeliveryServiceRequiredCapability, { where: { deliveryServiceId } });
    const have = new Set(present.map((row) => row.requiredCapability));
    const added = wanted.filter((name) => !have.has(name));
    if (added.length > 0) {
      await insertRows(
        em,
        DeliveryServiceRequiredCapability,
        added.map((requiredCapability) => ({ deliveryServiceId, requiredCapability })),
      );
    }
  }

  /**
   * The capabilities a delivery service created in this transaction requires (its 4.1+ body): it
   * has none yet, so they are only added; an unknown name is refused by the foreign key.
   */
  async addToNew(deliveryServiceId: number, names: string[], manager?: EntityManager): Promise<void> {
    await insertRows(
      manager ?? this.dataSource.manager,
      DeliveryServiceRequiredCapability,
      [...new Set(names)].map((requiredCapability) => ({ deliveryServiceId, requiredCapability })),
    );
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
    const [capability] = await runSql(
      this.dataSource,
      'SELECT name FROM server_capability WHERE name = :name' + lockingClause(this.dataSource, 'share'),
      { name: dto.requiredCapability },
    );
    if (!capability) {
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
      () =>
        insertRows(this.required.manager, this.required.target, {
          deliveryServiceId: ds.id,
          requiredCapability: dto.requiredCapability,
        }),
      (failure) =>
        failure.kind === 'unique'
          ? new BadRequestException(
              `capability ${dto.requiredCapability} already exists for delivery service with ID: ${ds.id}`,
            )
          : undefined,
    );
    const row = await this.required.findOneByOrFail({
      deliveryServiceId: ds.id,
      requiredCapability: dto.requiredCapability,
    });
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
    const result = await this.required.delete({ deliveryServiceId, requiredCapability: capability });
    if (!result.affected) {
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
    manager?: EntityManager,
  ): Promise<void> {
    const wanted = [...new Set(capabilities)];
    const [query, bound] = bindParameters(
      this.dataSource,
      'SELECT c.name AS cachegroup, s.id AS id, ' +
        (wanted.length === 0
          ? '0 AS has '
          : '(SELECT COUNT(*) FROM server_server_capability ssc WHERE ssc.server = s.id ' +
            'AND ssc.server_capability IN (:...wanted)) AS has ') +
        'FROM server s JOIN cachegroup c ON c.id = s.cachegroup ' +
        'JOIN topology_cachegroup tc ON tc.cachegroup = c.name JOIN type ct ON ct.id = c.type ' +
        'WHERE s.cdn_id = (SELECT d.cdn_id FROM deliveryservice d WHERE d.id = :dsId) ' +
        "AND tc.topology = :topology AND ct.name <> 'ORG_LOC' ORDER BY c.name, s.id" +
        lockingClause(this.dataSource, 'share'),
      { dsId, topology, wanted },
      {},
    );
    type Row = { cachegroup: string; id: number | string; has: number | string };
    const rows = await (manager ?? this.dataSource).query<Row[]>(query, bound);
    if (rows.length === 0) {
      throw new BadRequestException(
        `topology ${topology} contains no servers in this delivery service's CDN; therefore, this ` +
          "delivery service's required capabilities cannot be satisfied",
      );
    }
    const served = new Set(
      rows.filter((row) => Number(row.has) === wanted.length).map((row) => row.cachegroup),
    );
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
    const servers = await runSql<{ id: number | string; has: number | string | null }>(
      this.dataSource,
      'SELECT dss.server AS id, ssc.server AS has FROM deliveryservice_server dss ' +
        'JOIN server s ON s.id = dss.server JOIN type t ON t.id = s.type ' +
        'LEFT JOIN server_server_capability ssc ON ssc.server = dss.server AND ssc.server_capability = :capability ' +
        "WHERE dss.deliveryservice = :dsId AND SUBSTR(t.name, 1, 3) <> 'ORG' ORDER BY dss.server" +
        lockingClause(this.dataSource, 'share'),
      { dsId, capability },
    );
    const lacking = servers.filter((row) => row.has === null).map((row) => Number(row.id));
    if (lacking.length > 0) {
      throw new BadRequestException(
        `capability ${capability} cannot be made required on the delivery service ${dsId} as it has the ` +
          `associated servers ${lacking.join(',')} that do not have the capability assigned`,
      );
    }
  }

  private async deliveryService(id: number): Promise<DeliveryServiceInfo | undefined> {
    const [row] = await runSql<{
      id: number | string;
      tenantId: number | string;
      type: string;
      topology: string | null;
    }>(
      this.dataSource,
      'SELECT ds.id AS id, ds.tenant_id AS tenantId, t.name AS type, ds.topology AS topology ' +
        'FROM deliveryservice ds JOIN type t ON t.id = ds.type WHERE ds.id = :id' +
        lockingClause(this.dataSource, 'write'),
      { id },
    );
    return row
      ? { id: Number(row.id), tenantId: Number(row.tenantId), type: row.type, topology: row.topology }
      : undefined;
  }

  private async assertReach(user: CurrentUser, ds: DeliveryServiceInfo): Promise<void> {
    if (!(await this.tenancy.isWithinReach(user.tenantId, ds.tenantId))) {
      throw new ForbiddenException(NOT_AUTHORIZED_ON_TENANT);
    }
  }
}
