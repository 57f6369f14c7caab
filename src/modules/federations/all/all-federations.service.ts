import { Injectable } from '@nestjs/common';
import type {
  DeliveryServiceMappings,
  FederationMapping,
} from 'src/modules/federations/mappings/federations.service';
import { AllFederationsRepository } from './all-federations.repository';

/** The first element of `GET federations/all?cdnName=` names the CDN asked for. */
export interface AllFederationsCdn {
  cdnName: string;
}

/**
 * Every federation mapping, for Traffic Router (`GET federations/all`,
 * docs/original-behaviour.md#federations-all): per delivery service (by xmlId) one mapping per
 * federation assigned to it (by id), with the resolvers linked to that federation. Two queries,
 * whatever the number of federations.
 */
@Injectable()
export class AllFederationsService {
  constructor(private readonly federationsAll: AllFederationsRepository) {}

  async all(cdnName?: string): Promise<(AllFederationsCdn | DeliveryServiceMappings)[]> {
    const federations = await this.federationsAll.federations(cdnName);
    const resolvers = await this.federationsAll.resolvers(cdnName);
    const linked = new Map<number, { resolve4: string[]; resolve6: string[] }>();
    for (const resolver of resolvers) {
      const id = Number(resolver.federation);
      const entry = linked.get(id) ?? { resolve4: [], resolve6: [] };
      if (resolver.type === 'RESOLVE4') {
        entry.resolve4.push(resolver.ipAddress);
      } else if (resolver.type === 'RESOLVE6') {
        entry.resolve6.push(resolver.ipAddress);
      }
      linked.set(id, entry);
    }
    const result: (AllFederationsCdn | DeliveryServiceMappings)[] =
      cdnName === undefined ? [] : [{ cdnName }];
    let current: DeliveryServiceMappings | undefined;
    for (const row of federations) {
      if (current?.deliveryService !== row.xmlId) {
        current = { mappings: [], deliveryService: row.xmlId };
        result.push(current);
      }
      const mapping: FederationMapping = { ttl: Number(row.ttl), cname: row.cname };
      const resolved = linked.get(Number(row.federation));
      if (resolved && resolved.resolve4.length > 0) {
        mapping.resolve4 = resolved.resolve4;
      }
      if (resolved && resolved.resolve6.length > 0) {
        mapping.resolve6 = resolved.resolve6;
      }
      current.mappings.push(mapping);
    }
    return result;
  }
}
