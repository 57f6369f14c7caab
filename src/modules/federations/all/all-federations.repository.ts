import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type {
  FederationOfDeliveryService,
  LinkedResolver,
} from 'src/modules/federations/mappings/resolver-mappings.repository';

/**
 * What `GET federations/all` reads of federations, their delivery services and resolvers: the only
 * file of the folder that runs SQL (docs/architecture.md#data-access).
 */
@Injectable()
export class AllFederationsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Every federation per delivery service it is assigned to (of the CDN when named), by xmlId and id. */
  federations(cdnName?: string): Promise<FederationOfDeliveryService[]> {
    return this.dataSource.query<FederationOfDeliveryService[]>(
      'SELECT f.id AS federation, f.ttl AS ttl, f.cname AS cname, ds.xml_id AS xmlId ' +
        'FROM federation_deliveryservice fds JOIN deliveryservice ds ON ds.id = fds.deliveryservice ' +
        `JOIN federation f ON f.id = fds.federation ${byCdn(cdnName)}ORDER BY ds.xml_id, f.id`,
      cdnName === undefined ? [] : [cdnName],
    );
  }

  /** The resolvers linked to those federations, by id. */
  resolvers(cdnName?: string): Promise<LinkedResolver[]> {
    return this.dataSource.query<LinkedResolver[]>(
      'SELECT ffr.federation AS federation, t.name AS type, fr.ip_address AS ipAddress ' +
        'FROM federation_federation_resolver ffr ' +
        'JOIN federation_resolver fr ON fr.id = ffr.federation_resolver JOIN type t ON t.id = fr.type ' +
        'WHERE ffr.federation IN (SELECT fds.federation FROM federation_deliveryservice fds ' +
        `JOIN deliveryservice ds ON ds.id = fds.deliveryservice ${byCdn(cdnName)}) ORDER BY fr.id`,
      cdnName === undefined ? [] : [cdnName],
    );
  }
}

const byCdn = (cdnName?: string): string =>
  cdnName === undefined ? '' : 'JOIN cdn c ON c.id = ds.cdn_id WHERE c.name = ? ';
