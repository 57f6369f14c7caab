import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';

/** A server's host and domain names and its CDN's name. */
export interface HostRow {
  host: string;
  domain: string;
  cdn: string;
}

/**
 * What the monitoring routes read of servers, their types, statuses, profiles and parameters: the
 * only file of the module that runs SQL (docs/architecture.md#data-access).
 */
@Injectable()
export class MonitoringRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** A delivery service's xml id, its CDN's name and its tenant, or undefined. */
  async deliveryService(id: number): Promise<{ xmlId: string; cdn: string; tenantId: number } | undefined> {
    const [row] = await this.dataSource.query<{ xmlId: string; cdn: string; tenantId: number | string }[]>(
      'SELECT d.xml_id AS xmlId, c.name AS cdn, d.tenant_id AS tenantId FROM deliveryservice d ' +
        'JOIN cdn c ON c.id = d.cdn_id WHERE d.id = ?',
      [id],
    );
    return row ? { xmlId: row.xmlId, cdn: row.cdn, tenantId: Number(row.tenantId) } : undefined;
  }

  /** The global `tm_query_status_override` parameter's value, or undefined. */
  async statusOverride(): Promise<string | undefined> {
    const [row] = await this.dataSource.query<{ value: string }[]>(
      "SELECT value FROM parameter WHERE name = 'tm_query_status_override' AND config_file = 'global' LIMIT 1",
    );
    return row?.value;
  }

  /** The Traffic Monitors (RASCAL) with the status, of every CDN or of the one named, by CDN and host. */
  monitors(status: string, cdnName?: string): Promise<(HostRow & { port: number | string | null })[]> {
    return this.dataSource.query(
      `SELECT s.host_name AS host, s.domain_name AS domain, s.tcp_port AS port, c.name AS cdn
         FROM server s
         JOIN type t ON t.id = s.type
         JOIN status st ON st.id = s.status
         JOIN cdn c ON c.id = s.cdn_id
        WHERE t.name = 'RASCAL' AND st.name = ?${cdnName === undefined ? '' : ' AND c.name = ?'}
        ORDER BY c.name, s.host_name, s.id`,
      [status, ...(cdnName === undefined ? [] : [cdnName])],
    );
  }

  /** ONLINE Traffic Routers with their `api.port` (a `server.xml` parameter of a profile of theirs). */
  routers(): Promise<(HostRow & { port: string | null })[]> {
    return this.dataSource.query(
      `SELECT s.host_name AS host, s.domain_name AS domain, c.name AS cdn,
              (SELECT MAX(pa.value) FROM server_profile sp
                 JOIN profile_parameter pp ON pp.profile = sp.profile
                 JOIN parameter pa ON pa.id = pp.parameter
                WHERE sp.server = s.id AND pa.name = 'api.port' AND pa.config_file = 'server.xml') AS port
         FROM server s
         JOIN type t ON t.id = s.type
         JOIN status st ON st.id = s.status
         JOIN cdn c ON c.id = s.cdn_id
        WHERE t.name = 'CCR' AND st.name = 'ONLINE'
        ORDER BY c.name, s.host_name, s.id`,
    );
  }

  /** `health.threshold.availableBandwidthInKbps` (`rascal-config.txt`) of the edge servers' profiles. */
  bandwidthThresholds(): Promise<{ profile: string; value: string }[]> {
    return this.dataSource.query(
      `SELECT DISTINCT pr.name AS profile, pa.value AS value
         FROM parameter pa
         JOIN profile_parameter pp ON pp.parameter = pa.id
         JOIN profile pr ON pr.id = pp.profile
         JOIN server_profile sp ON sp.profile = pr.id
         JOIN server s ON s.id = sp.server
         JOIN type t ON t.id = s.type
        WHERE t.name LIKE 'EDGE%' AND pa.config_file = 'rascal-config.txt'
          AND pa.name = 'health.threshold.availableBandwidthInKbps'`,
    );
  }

  /** Servers whose first profile's name starts with EDGE or MID, with their first IPv4 service address. */
  caches(): Promise<
    { hostname: string; cachegroup: string; status: string; profile: string; ip: string | null }[]
  > {
    return this.dataSource.query(
      `SELECT s.host_name AS hostname, cg.name AS cachegroup, st.name AS status, p.name AS profile,
              (SELECT MIN(ip.address) FROM ip_address ip
                WHERE ip.server = s.id AND ip.service_address = 1 AND ip.address NOT LIKE '%:%') AS ip
         FROM server s
         JOIN cachegroup cg ON cg.id = s.cachegroup
         JOIN status st ON st.id = s.status
         JOIN server_profile sp ON sp.server = s.id AND sp.priority = 0
         JOIN profile p ON p.id = sp.profile
        WHERE p.name LIKE 'EDGE%' OR p.name LIKE 'MID%'
        ORDER BY s.host_name, s.id`,
    );
  }
}
