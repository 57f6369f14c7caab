import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type {
  DeliveryServiceMappings,
  FederationMapping,
} from 'src/modules/federations/mappings/federations.service';

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
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async all(cdnName?: string): Promise<(AllFederationsCdn | DeliveryServiceMappings)[]> {
    const byCdn = cdnName === undefined ? '' : 'JOIN cdn c ON c.id = ds.cdn_id WHERE c.name = ? ';
    const params = cdnName === undefined ? [] : [cdnName];
    const federations = await this.dataSource.query<
      { federation: number | string; ttl: number | string; cname: string; xmlId: string }[]
    >(
      'SELECT f.id AS federation, f.ttl AS ttl, f.cname AS cname, ds.xml_id AS xmlId ' +
        'FROM federation_deliveryservice fds JOIN deliveryservice ds ON ds.id = fds.deliveryservice ' +
        `JOIN federation f ON f.id = fds.federation ${byCdn}ORDER BY ds.xml_id, f.id`,
      params,
    );
    const resolvers = await this.dataSource.query<
      { federation: number | string; type: string; ipAddress: string }[]
    >(
      'SELECT ffr.federation AS federation, t.name AS type, fr.ip_address AS ipAddress ' +
        'FROM federation_federation_resolver ffr ' +
        'JOIN federation_resolver fr ON fr.id = ffr.federation_resolver JOIN type t ON t.id = fr.type ' +
        'WHERE ffr.federation IN (SELECT fds.federation FROM federation_deliveryservice fds ' +
        `JOIN deliveryservice ds ON ds.id = fds.deliveryservice ${byCdn}) ORDER BY fr.id`,
      params,
    );
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
