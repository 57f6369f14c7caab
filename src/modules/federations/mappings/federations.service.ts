import { canonicalInet } from 'src/common/net/inet';
import { ConflictException, Injectable } from '@nestjs/common';
import { type TransactionManager, UnitOfWork } from 'src/common/database/unit-of-work';
import type { CurrentUser } from 'src/common/types/current-user';
import { FederationsRepository } from 'src/modules/federations/federations.repository';
import { FEDERATION_RESOLVERS } from 'src/modules/federations/resolvers/federation-resolvers.repository';
import type { ResolverMapping } from './resolver-mappings.dto';
import { ResolverMappingsRepository } from './resolver-mappings.repository';

export interface FederationMapping {
  ttl: number;
  cname: string;
  resolve4?: string[];
  resolve6?: string[];
}

export interface DeliveryServiceMappings {
  mappings: FederationMapping[];
  deliveryService: string;
}

/**
 * The resolver mappings of the signed-in user (`/federations`, docs/original-behaviour.md#federations):
 * the user's federations (federation_tmuser) on their delivery services (federation_deliveryservice),
 * and the resolvers linked to them. A user's writes only ever link or unlink resolvers of the user's
 * own federations; other users' federations are never touched.
 */
@Injectable()
export class FederationsService {
  constructor(
    private readonly userMappings: ResolverMappingsRepository,
    private readonly federations: FederationsRepository,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  /** One entry per delivery service (ordered by xmlId), one mapping per federation (by id). */
  async mappingsOf(user: CurrentUser): Promise<DeliveryServiceMappings[]> {
    const federations = await this.userMappings.federationsOf(user.id);
    const resolvers = await this.userMappings.resolversOf(user.id);
    const byFederation = new Map<number, { resolve4: string[]; resolve6: string[] }>();
    for (const resolver of resolvers) {
      const id = Number(resolver.federation);
      const entry = byFederation.get(id) ?? { resolve4: [], resolve6: [] };
      if (resolver.type === 'RESOLVE4') {
        entry.resolve4.push(resolver.ipAddress);
      } else if (resolver.type === 'RESOLVE6') {
        entry.resolve6.push(resolver.ipAddress);
      }
      byFederation.set(id, entry);
    }
    const result: DeliveryServiceMappings[] = [];
    for (const row of federations) {
      let entry = result.at(-1);
      if (entry?.deliveryService !== row.xmlId) {
        entry = { mappings: [], deliveryService: row.xmlId };
        result.push(entry);
      }
      const mapping: FederationMapping = { ttl: Number(row.ttl), cname: row.cname };
      const linked = byFederation.get(Number(row.federation));
      if (linked && linked.resolve4.length > 0) {
        mapping.resolve4 = linked.resolve4;
      }
      if (linked && linked.resolve6.length > 0) {
        mapping.resolve6 = linked.resolve6;
      }
      entry.mappings.push(mapping);
    }
    return result;
  }

  /** POST: the whole request in one transaction (a 409 on any mapping writes nothing). */
  create(user: CurrentUser, mappings: ResolverMapping[]): Promise<void> {
    return this.unitOfWork.run((manager) => this.addMappings(manager, user, mappings));
  }

  /** PUT: every resolver of the user's federations removed, then POST's rules; one transaction. */
  replace(user: CurrentUser, mappings: ResolverMapping[]): Promise<string[]> {
    return this.unitOfWork.run(async (manager) => {
      const deleted = await this.userMappings.unlinkAll(manager, user.id);
      await this.addMappings(manager, user, mappings);
      return deleted;
    });
  }

  /** DELETE: 409 when the user's federations have no resolver. */
  remove(user: CurrentUser): Promise<string[]> {
    return this.unitOfWork.run(async (manager) => {
      const deleted = await this.userMappings.unlinkAll(manager, user.id);
      if (deleted.length === 0) {
        throw new ConflictException(`No federation resolvers to delete for user ${user.username}`);
      }
      return deleted;
    });
  }

  /**
   * Per mapping, in request order: the delivery service must exist and be within the user's
   * tenancy (409 `'<xmlId>' - no such Delivery Service` either way, hiding existence), and the user
   * must have a federation on it (409). Then each address is upserted into federation_resolver and
   * linked to each of the user's federations on that delivery service (existing links kept).
   */
  private async addMappings(
    manager: TransactionManager,
    user: CurrentUser,
    mappings: ResolverMapping[],
  ): Promise<void> {
    const xmlIds = [...new Set(mappings.map((m) => m.deliveryService))];
    const deliveryServices = await this.userMappings.deliveryServices(manager, xmlIds, user.tenantId);
    const dsByXmlId = new Map(deliveryServices.map((ds) => [ds.xmlId, ds]));
    const links = await this.userMappings.userFederationsOn(
      manager,
      user.id,
      deliveryServices.map((ds) => ds.id),
    );

    const pairs: [number, number][] = [];
    for (const mapping of mappings) {
      const ds = dsByXmlId.get(mapping.deliveryService);
      if (!ds || !ds.reachable) {
        throw new ConflictException(`'${mapping.deliveryService}' - no such Delivery Service`);
      }
      const federations = links.filter((l) => l.ds === ds.id).map((l) => l.federation);
      if (federations.length === 0) {
        throw new ConflictException(
          `No federation(s) found for user ${user.username} on delivery service '${mapping.deliveryService}'.`,
        );
      }
      const addresses = [
        ...mapping.resolve4.map((ip) => [ip, 'RESOLVE4'] as const),
        ...mapping.resolve6.map((ip) => [ip, 'RESOLVE6'] as const),
      ];
      for (const [ip, type] of addresses) {
        const resolverId = await this.userMappings.upsertResolver(manager, canonicalInet(ip), type);
        for (const federation of federations) {
          pairs.push([federation, resolverId]);
        }
      }
    }
    await this.federations.linkIgnoringDuplicates(manager, FEDERATION_RESOLVERS, pairs);
  }
}
