import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { insertRows } from 'src/common/database/insert-rows';
import { writeLock } from 'src/common/database/locks';
import { applyListQuery, type ListQuery } from 'src/common/list-query/list-query';
import { Type } from 'src/modules/types/type.entity';
import type { ServerCheckExtension } from './dto/servercheck.response';
import { ServerCheck, type CheckColumn } from './servercheck.entity';
import { ToExtension } from './to-extension.entity';

export type Time = Date | string | null;
export interface ServerRow {
  id: number | string;
  hostName: string;
  adminState: string | null;
  cacheGroup: string | null;
  type: string | null;
  profile: string | null;
  configUpdate: Time;
  configApply: Time;
  revalUpdate: Time;
  revalApply: Time;
}

/**
 * The servercheck and to_extension tables, and what the checks read of servers and types: the only
 * file of the module that runs SQL (docs/architecture.md#data-access). Methods taking a `manager` run
 * in the caller's transaction.
 */
@Injectable()
export class ServercheckRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The page of EDGE and MID servers with what their check rows show. */
  servers(query: ListQuery): Promise<ServerRow[]> {
    const qb = this.dataSource
      .createQueryBuilder()
      .from('server', 's')
      .innerJoin('type', 't', 't.id = s.type')
      .leftJoin('status', 'st', 'st.id = s.status')
      .leftJoin('cachegroup', 'cg', 'cg.id = s.cachegroup')
      .leftJoin('server_profile', 'sp', 'sp.server = s.id AND sp.priority = 0')
      .leftJoin('profile', 'p', 'p.id = sp.profile')
      .select('s.id', 'id')
      .addSelect('s.host_name', 'hostName')
      .addSelect('st.name', 'adminState')
      .addSelect('cg.name', 'cacheGroup')
      .addSelect('t.name', 'type')
      .addSelect('p.name', 'profile')
      .addSelect('s.config_update_time', 'configUpdate')
      .addSelect('s.config_apply_time', 'configApply')
      .addSelect('s.revalidate_update_time', 'revalUpdate')
      .addSelect('s.revalidate_apply_time', 'revalApply')
      .where("(t.name LIKE 'MID%' OR t.name LIKE 'EDGE%')");
    return applyListQuery(qb, query).getRawMany<ServerRow>();
  }

  /** The check rows of these servers. */
  checksOf(ids: number[]): Promise<ServerCheck[]> {
    return this.dataSource.manager
      .createQueryBuilder(ServerCheck, 'sc')
      .where('sc.server IN (:...ids)', { ids })
      .getMany();
  }

  /** The loaded check extensions' short names and columns, by short name. */
  loadedExtensionColumns(): Promise<{ shortName: string; columnName: string }[]> {
    return this.dataSource.query(
      `SELECT e.servercheck_short_name AS shortName, e.servercheck_column_name AS columnName
         FROM to_extension e JOIN type t ON t.id = e.type
        WHERE t.name IN ('CHECK_EXTENSION_BOOL', 'CHECK_EXTENSION_NUM')
          AND e.servercheck_short_name IS NOT NULL AND e.servercheck_column_name IS NOT NULL
        ORDER BY e.servercheck_short_name`,
    );
  }

  /** The id of the server with this id or host name, or undefined. */
  async serverId(by: { id: number } | { hostName: string }): Promise<number | undefined> {
    const [server] = await this.dataSource.query<{ id: number | string }[]>(
      'id' in by ? 'SELECT id FROM server WHERE id = ?' : 'SELECT id FROM server WHERE host_name = ?',
      ['id' in by ? by.id : by.hostName],
    );
    return server ? Number(server.id) : undefined;
  }

  /** The extension slot with this short name, or null. */
  slotByShortName(shortName: string): Promise<ToExtension | null> {
    return this.dataSource.manager.findOne(ToExtension, { where: { servercheckShortName: shortName } });
  }

  /** Sets one check column of a server's check row, adding the row when it has none. */
  async setCheck(
    manager: EntityManager,
    serverId: number,
    column: CheckColumn,
    value: number | null,
  ): Promise<void> {
    const values = { [column]: value } as Partial<ServerCheck>;
    const updated = await manager.update(ServerCheck, { serverId }, values);
    if (!updated.affected) {
      await insertRows(manager, ServerCheck, { serverId, ...values });
    }
  }

  /** The page of extensions whose type is not `openType`, as the API answers them (before `isactive`). */
  extensions(query: ListQuery, openType: string): Promise<ServerCheckExtension[]> {
    const qb = this.dataSource
      .createQueryBuilder()
      .from(ToExtension, 'e')
      .innerJoin('type', 't', 't.id = e.type')
      .select('e.id', 'id')
      .addSelect('e.name', 'name')
      .addSelect('e.version', 'version')
      .addSelect('e.info_url', 'info_url')
      .addSelect('e.script_file', 'script_file')
      .addSelect('e.isactive', 'isactive')
      .addSelect('e.additional_config_json', 'additional_config_json')
      .addSelect('e.description', 'description')
      .addSelect('e.servercheck_short_name', 'servercheck_short_name')
      .addSelect('t.name', 'type')
      .where('t.name <> :open', { open: openType });
    return applyListQuery(qb, query).getRawMany<ServerCheckExtension>();
  }

  /** The type with this name (on `manager` when given), or null. */
  type(name: string, manager: EntityManager = this.dataSource.manager): Promise<Type | null> {
    return manager.findOneBy(Type, { name });
  }

  /** Every extension slot, by id, read under a write lock on `manager`'s transaction. */
  lockedSlots(manager: EntityManager): Promise<ToExtension[]> {
    return manager.find(ToExtension, { lock: writeLock(this.dataSource), order: { id: 'ASC' } });
  }

  /** Writes an extension slot's columns (on `manager` when given): whether there was one. */
  async changeSlot(
    id: number,
    columns: Partial<ToExtension>,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<boolean> {
    return Boolean((await manager.update(ToExtension, { id }, columns)).affected);
  }

  /** Sets a check column of every server's check row to 0. */
  async clearCheckColumn(manager: EntityManager, column: CheckColumn): Promise<void> {
    await manager
      .createQueryBuilder()
      .update(ServerCheck)
      .set({ [column]: 0 })
      .execute();
  }

  slotExists(id: number): Promise<boolean> {
    return this.dataSource.manager.existsBy(ToExtension, { id });
  }
}
