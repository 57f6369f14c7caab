import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { insertRow, insertRows } from 'src/common/database/insert-rows';
import { lockingClause } from 'src/common/database/locks';
import { AsyncStatus, CdniCapabilityUpdate } from './cdni.entity';

/** A footprint row: its capability, type and JSON text value (and, where asked for, its uCDN). */
export interface FootprintRow {
  capability_id: number | string;
  footprint_type: string;
  footprint_value: string;
  ucdn?: string;
}

/** A queued configuration request as the approval reads it. */
export interface QueuedRequestRow {
  data: string;
  async_status_id: number | string;
  host: string | null;
  ucdn: string;
}

/** A configuration request queued by a uCDN. */
export interface CapabilityUpdateColumns {
  ucdn: string;
  data: string;
  requestType: string;
  host: string;
}

/**
 * The CDNi tables (capabilities, footprints, limits, telemetry, queued requests) and the async
 * statuses: the only file of the module that runs SQL (docs/architecture.md#data-access). Methods
 * taking a `manager` run in the caller's transaction; `locked…` ones lock the rows they read there.
 */
@Injectable()
export class CdniRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The uCDN's capacity and telemetry capabilities, by id. */
  capabilities(ucdn: string): Promise<{ id: number | string; type: string }[]> {
    return this.dataSource.query<{ id: number | string; type: string }[]>(
      'SELECT id, type FROM cdni_capabilities WHERE ucdn = ? AND type IN (?, ?) ORDER BY id',
      [ucdn, 'FCI.CapacityLimits', 'FCI.Telemetry'],
    );
  }

  /** Every footprint, by id. */
  footprints(): Promise<FootprintRow[]> {
    return this.dataSource.query<FootprintRow[]>(
      'SELECT capability_id, footprint_type, footprint_value FROM cdni_footprints ORDER BY id',
    );
  }

  /** Every footprint with its uCDN, by id, read in the caller's transaction. */
  footprintsWithUcdn(manager: EntityManager): Promise<FootprintRow[]> {
    return manager.query<FootprintRow[]>(
      'SELECT capability_id, footprint_type, footprint_value, ucdn FROM cdni_footprints ORDER BY id',
    );
  }

  /** Every limit, by id. */
  limits(): Promise<Record<string, unknown>[]> {
    return this.dataSource.query<Record<string, unknown>[]>(
      'SELECT limit_id, scope_type, scope_value, limit_type, maximum_hard, maximum_soft, telemetry_id, ' +
        'telemetry_metric, capability_id FROM cdni_limits ORDER BY id',
    );
  }

  /** Every telemetry source, by id. */
  telemetrySources(): Promise<Record<string, unknown>[]> {
    return this.dataSource.query<Record<string, unknown>[]>(
      'SELECT id, type, capability_id, configuration_url FROM cdni_telemetry ORDER BY id',
    );
  }

  /** Every telemetry metric, by name. */
  telemetryMetrics(): Promise<Record<string, unknown>[]> {
    return this.dataSource.query<Record<string, unknown>[]>(
      'SELECT name, time_granularity, data_percentile, latency, telemetry_id FROM cdni_telemetry_metrics ORDER BY name',
    );
  }

  /** The scopes (JSON text) of the limits whose scope contains `text`: a text search. */
  scopesContaining(text: string): Promise<{ scope_value: string }[]> {
    return this.dataSource.manager.query<{ scope_value: string }[]>(
      'SELECT scope_value FROM cdni_limits WHERE scope_value IS NOT NULL AND INSTR(scope_value, ?) > 0',
      [text],
    );
  }

  /** Adds a PENDING async status with `message`: its id. */
  addPendingStatus(manager: EntityManager, message: string): Promise<number> {
    return insertRow(manager, AsyncStatus, { status: 'PENDING', message });
  }

  /** Queues a configuration request under its async status. */
  async addRequest(
    manager: EntityManager,
    asyncStatusId: number,
    columns: CapabilityUpdateColumns,
  ): Promise<void> {
    await insertRows(manager, CdniCapabilityUpdate, {
      ucdn: columns.ucdn,
      data: columns.data,
      asyncStatusId,
      requestType: columns.requestType,
      host: columns.host,
    });
  }

  /** The async status, or null. */
  asyncStatus(id: number): Promise<AsyncStatus | null> {
    return this.dataSource.getRepository(AsyncStatus).findOneBy({ id });
  }

  /** The queued requests (only the one with `id` when given), oldest first. */
  requests(id?: number): Promise<Record<string, unknown>[]> {
    const select = 'SELECT id, ucdn, data, request_type, host, async_status_id FROM cdni_capability_updates';
    return id !== undefined
      ? this.dataSource.query(`${select} WHERE id = ? ORDER BY id`, [id])
      : this.dataSource.query(`${select} ORDER BY id`);
  }

  /** The queued request, its row locked until the caller's transaction ends; undefined without one. */
  async lockedRequest(manager: EntityManager, id: number): Promise<QueuedRequestRow | undefined> {
    const found = await manager.query<QueuedRequestRow[]>(
      `SELECT data, async_status_id, host, ucdn FROM cdni_capability_updates WHERE id = ?${lockingClause(this.dataSource, 'write')}`,
      [id],
    );
    return found[0];
  }

  async removeRequest(manager: EntityManager, id: number): Promise<void> {
    await manager.query('DELETE FROM cdni_capability_updates WHERE id = ?', [id]);
  }

  /** The capability's limits of that type with their scopes, locked until the caller's transaction ends. */
  lockedLimits(
    manager: EntityManager,
    capabilityId: number,
    limitType: string,
  ): Promise<{ id: number | string; scope_value: string | null }[]> {
    return manager.query<{ id: number | string; scope_value: string | null }[]>(
      `SELECT id, scope_value FROM cdni_limits WHERE capability_id = ? AND limit_type = ?${lockingClause(this.dataSource, 'write')}`,
      [capabilityId, limitType],
    );
  }

  async setMaximumHard(manager: EntityManager, limitId: number, value: number): Promise<void> {
    await manager.query('UPDATE cdni_limits SET maximum_hard = ? WHERE id = ?', [value, limitId]);
  }

  /** Ends an async status: its status, message and end time (the database's now). */
  async finishStatus(manager: EntityManager, id: number, status: string, message: string): Promise<void> {
    await manager
      .createQueryBuilder()
      .update(AsyncStatus)
      .set({ status, message, endTime: () => 'CURRENT_TIMESTAMP' })
      .where('id = :id', { id })
      .execute();
  }
}
