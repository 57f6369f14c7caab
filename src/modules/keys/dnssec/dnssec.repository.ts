import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { MatchListEntry } from 'src/modules/delivery-services/core/delivery-service-match-list';

export interface CdnRow {
  id: number;
  name: string;
  domainName: string;
  dnssecEnabled: boolean;
}

export interface CdnDeliveryService {
  xmlId: string;
  protocol: number | null;
  typeName: string;
  routingName: string;
}

/**
 * What the DNSSEC keys read of CDNs, their delivery services and match lists, their snapshots and
 * their router profiles' parameters: the only file of the folder that runs SQL
 * (docs/architecture.md#data-access). The keys themselves are in the key store
 * (store/key-store.repository.ts).
 */
@Injectable()
export class DnssecRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Every CDN, by name. */
  async allCdns(): Promise<CdnRow[]> {
    return (
      await this.dataSource.query<Record<string, unknown>[]>(
        'SELECT id, name, domain_name AS domainName, dnssec_enabled AS dnssecEnabled FROM cdn ORDER BY name',
      )
    ).map(toCdnRow);
  }

  async cdnByName(name: string): Promise<CdnRow | undefined> {
    const [row] = await this.dataSource.query<Record<string, unknown>[]>(
      'SELECT id, name, domain_name AS domainName, dnssec_enabled AS dnssecEnabled FROM cdn WHERE name = ?',
      [name],
    );
    return row ? toCdnRow(row) : undefined;
  }

  async cdnDeliveryServices(cdnName: string): Promise<CdnDeliveryService[]> {
    const rows = await this.dataSource.query<Record<string, unknown>[]>(
      'SELECT ds.xml_id AS xmlId, ds.protocol AS protocol, t.name AS typeName, ds.routing_name AS routingName ' +
        'FROM deliveryservice ds JOIN cdn c ON c.id = ds.cdn_id JOIN type t ON t.id = ds.type ' +
        'WHERE c.name = ? ORDER BY ds.xml_id',
      [cdnName],
    );
    return rows.map((row) => ({
      xmlId: String(row.xmlId),
      protocol: row.protocol === null ? null : Number(row.protocol),
      typeName: String(row.typeName),
      routingName: String(row.routingName),
    }));
  }

  /** GetDeliveryServicesMatchLists: each delivery service's regexes by set number. */
  async matchListsOf(xmlIds: string[]): Promise<Map<string, MatchListEntry[]>> {
    const lists = new Map<string, MatchListEntry[]>();
    if (xmlIds.length === 0) {
      return lists;
    }
    const rows = await this.dataSource.query<Record<string, unknown>[]>(
      'SELECT ds.xml_id AS xmlId, t.name AS type, r.pattern AS pattern, COALESCE(dsr.set_number, 0) AS setNumber ' +
        'FROM regex r JOIN deliveryservice_regex dsr ON dsr.regex = r.id ' +
        'JOIN deliveryservice ds ON ds.id = dsr.deliveryservice JOIN type t ON t.id = r.type ' +
        `WHERE ds.xml_id IN (${xmlIds.map(() => '?').join(', ')}) ORDER BY dsr.set_number, r.id`,
      xmlIds,
    );
    for (const row of rows) {
      const xmlId = String(row.xmlId);
      const list = lists.get(xmlId) ?? [];
      list.push({ type: String(row.type), pattern: String(row.pattern), setNumber: Number(row.setNumber) });
      lists.set(xmlId, list);
    }
    return lists;
  }

  /** The CRConfig text of the CDN's snapshot, or undefined when it has none. */
  async snapshotCrconfig(cdnName: string): Promise<string | undefined> {
    const [row] = await this.dataSource.query<{ crconfig: string }[]>(
      'SELECT crconfig FROM snapshot WHERE cdn = ?',
      [cdnName],
    );
    return row?.crconfig;
  }

  /**
   * The parameters tld.ttls.DNSKEY, DNSKEY.generation.multiplier and DNSKEY.effective.multiplier of
   * the CDN's router profile (its TR_PROFILE of the highest id), by parameter id.
   */
  refreshParameters(cdnId: number): Promise<{ name: string; value: string }[]> {
    return this.dataSource.query<{ name: string; value: string }[]>(
      'SELECT pa.name AS name, pa.value AS value FROM parameter pa ' +
        'JOIN profile_parameter pp ON pp.parameter = pa.id ' +
        "WHERE pp.profile = (SELECT MAX(p.id) FROM profile p WHERE p.cdn = ? AND p.type = 'TR_PROFILE') " +
        "AND pa.name IN ('tld.ttls.DNSKEY', 'DNSKEY.generation.multiplier', 'DNSKEY.effective.multiplier') " +
        'ORDER BY pa.id',
      [cdnId],
    );
  }
}

function toCdnRow(row: Record<string, unknown>): CdnRow {
  return {
    id: Number(row.id),
    name: String(row.name),
    domainName: String(row.domainName),
    dnssecEnabled: row.dnssecEnabled === true || Number(row.dnssecEnabled) === 1,
  };
}
