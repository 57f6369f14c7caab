import { bindParameters } from 'src/common/database/typeorm-adapter';
import type { DataSource, EntityManager, ObjectLiteral } from 'typeorm';
import { lockingClause } from 'src/common/database/locks';

/*
 * The reads of the assignment rules: a delivery service and servers as the rules need them, and
 * statements with named parameters bound by the driver.
 */

/** Server types a cache group's delivery services are assigned to: `EDGE*` and `ORG*` (case-sensitive). */
export const ASSIGNABLE_TYPE = `(SUBSTR(t.name, 1, 4) = 'EDGE' OR SUBSTR(t.name, 1, 3) = 'ORG')`;
export const EDGE_TYPE = `SUBSTR(t.name, 1, 4) = 'EDGE'`;
export const ORG_TYPE = `SUBSTR(t.name, 1, 3) = 'ORG'`;
export const AVAILABLE_STATUS = `st.name IN ('ONLINE', 'REPORTED')`;

/** What the assignment rules need to know of a delivery service. */
export interface DeliveryServiceInfo {
  id: number;
  xmlId: string;
  active: string;
  tenantId: number;
  cdnId: number;
  topology: string | null;
  multiSiteOrigin: boolean;
}

export interface ServerInfo {
  id: number;
  hostName: string;
  cachegroup: string;
  cdnId: number;
  type: string;
  status: string;
}

/** A server row as `serverInfos` reads it. */
export const SERVER_INFO_COLUMNS =
  'SELECT s.id AS id, s.host_name AS hostName, cg.name AS cachegroup, s.cdn_id AS cdnId, t.name AS type, ' +
  'st.name AS status FROM server s JOIN type t ON t.id = s.type JOIN status st ON st.id = s.status ' +
  'JOIN cachegroup cg ON cg.id = s.cachegroup';

export const toServerInfo = (row: Record<string, unknown>): ServerInfo => ({
  id: Number(row.id),
  hostName: String(row.hostName),
  cachegroup: String(row.cachegroup),
  cdnId: Number(row.cdnId),
  type: String(row.type),
  status: String(row.status),
});

/** The server of POST servers/{id}/deliveryservices, as its rules need it. */
export interface AssigneeServer {
  id: number;
  hostName: string;
  cachegroup: string;
  cdnId: number;
  cdnName: string;
  type: string;
  status: string;
}

/** The delivery service, locked for the rest of the transaction on MySQL. */
export async function deliveryServiceInfo(
  dataSource: DataSource,
  manager: EntityManager,
  id: number,
): Promise<DeliveryServiceInfo | undefined> {
  const lock = lockingClause(dataSource, 'write');
  const [row] = await queryRows<Record<string, unknown>>(
    dataSource,
    manager,
    'SELECT ds.id AS id, ds.xml_id AS xmlId, ds.active AS active, ds.tenant_id AS tenantId, ' +
      'ds.cdn_id AS cdnId, ds.topology AS topology, ds.multi_site_origin AS multiSiteOrigin ' +
      `FROM deliveryservice ds WHERE ds.id = :id${lock}`,
    { id },
  );
  if (!row) {
    return undefined;
  }
  return {
    id: Number(row.id),
    xmlId: String(row.xmlId),
    active: String(row.active),
    tenantId: Number(row.tenantId),
    cdnId: Number(row.cdnId),
    topology: (row.topology as string | null) ?? null,
    multiSiteOrigin: Number(row.multiSiteOrigin) === 1 || row.multiSiteOrigin === true,
  };
}

export async function serverInfos(
  dataSource: DataSource,
  manager: EntityManager,
  ids: number[],
): Promise<ServerInfo[]> {
  if (ids.length === 0) {
    return [];
  }
  const rows = await queryRows<Record<string, unknown>>(
    dataSource,
    manager,
    `${SERVER_INFO_COLUMNS} WHERE s.id IN (:...ids)`,
    { ids },
  );
  return rows.map(toServerInfo);
}

/** A statement with named parameters (`:name`, `:...list`), bound by the driver. */
export async function queryRows<T extends ObjectLiteral = ObjectLiteral>(
  dataSource: DataSource,
  manager: EntityManager,
  sql: string,
  parameters: ObjectLiteral,
): Promise<T[]> {
  const [query, bound] = bindParameters(dataSource, sql, parameters, {});
  return manager.query<T[]>(query, bound);
}

export async function executeSql(
  dataSource: DataSource,
  manager: EntityManager,
  sql: string,
  parameters: ObjectLiteral,
): Promise<void> {
  const [query, bound] = bindParameters(dataSource, sql, parameters, {});
  await manager.query(query, bound);
}
