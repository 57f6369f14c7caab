import { UnitOfWork } from 'src/common/database/unit-of-work';
import { insertRows } from 'src/common/database/insert-rows';
import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { writeLock } from 'src/common/database/locks';
import { applyListQuery, type ListQuery } from 'src/common/list-query/list-query';
import { toDate } from 'src/common/time/timestamps';
import { Type } from 'src/modules/types/type.entity';
import type { ExtensionRequest, ServercheckRequest } from './dto/servercheck.body';
import type { GenericServerCheck, ServerCheckExtension } from './dto/servercheck.response';
import { CHECK_COLUMNS, type CheckColumn, ServerCheck, type ServerCheckColumns } from './servercheck.entity';
import { ToExtension } from './to-extension.entity';

/** The only user the original lets write checks and extensions. */
export const EXTENSION_USER = 'extension';
export const NOT_EXTENSION_USER = 'invalid user for this API. Only the "extension" user can use this';
const OPEN_SLOT = 'CHECK_EXTENSION_OPEN_SLOT';

type Time = Date | string | null;
interface ServerRow {
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

const later = (a: Time, b: Time): boolean =>
  a !== null && b !== null && toDate(a).getTime() > toDate(b).getTime();

/** Server checks and check extensions (docs/original-behaviour.md#servercheck). */
@Injectable()
export class ServercheckService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /** EDGE and MID servers with their check values, by the loaded extensions' short names. */
  async list(query: ListQuery): Promise<GenericServerCheck[]> {
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
    const servers = await applyListQuery(qb, query).getRawMany<ServerRow>();
    if (servers.length === 0) {
      return [];
    }
    const ids = servers.map((s) => Number(s.id));
    const checks = await this.dataSource.manager
      .createQueryBuilder(ServerCheck, 'sc')
      .where('sc.server IN (:...ids)', { ids })
      .getMany();
    const byServer = new Map(checks.map((c) => [c.serverId, c as ServerCheckColumns]));
    const extensions = await this.dataSource.query<{ shortName: string; columnName: string }[]>(
      `SELECT e.servercheck_short_name AS shortName, e.servercheck_column_name AS columnName
         FROM to_extension e JOIN type t ON t.id = e.type
        WHERE t.name IN ('CHECK_EXTENSION_BOOL', 'CHECK_EXTENSION_NUM')
          AND e.servercheck_short_name IS NOT NULL AND e.servercheck_column_name IS NOT NULL
        ORDER BY e.servercheck_short_name`,
    );
    return servers.map((server) => {
      const row: GenericServerCheck = {
        adminState: server.adminState ?? '',
        cacheGroup: server.cacheGroup ?? '',
        id: Number(server.id),
        hostName: server.hostName,
        revalPending: later(server.revalUpdate, server.revalApply),
        profile: server.profile ?? '',
        type: server.type ?? '',
        updPending: later(server.configUpdate, server.configApply),
      };
      const columns = byServer.get(Number(server.id));
      if (columns) {
        row.checks = {};
        for (const { shortName, columnName } of extensions) {
          if ((CHECK_COLUMNS as readonly string[]).includes(columnName)) {
            row.checks[shortName] = columns[columnName as CheckColumn] ?? null;
          }
        }
      }
      return row;
    });
  }

  /** Sets one check of one server (the "extension" user only: the route's `@OnlyUser`); not a change for the change log. */
  async record(request: ServercheckRequest): Promise<void> {
    const server = await this.dataSource.query<{ id: number | string }[]>(
      request.id !== undefined
        ? 'SELECT id FROM server WHERE id = ?'
        : 'SELECT id FROM server WHERE host_name = ?',
      [request.id ?? request.hostName],
    );
    if (server.length === 0) {
      throw new BadRequestException('Server not found');
    }
    const slot = await this.dataSource.manager.findOne(ToExtension, {
      where: { servercheckShortName: request.shortName },
    });
    const column = slot?.servercheckColumnName;
    if (!column || !(CHECK_COLUMNS as readonly string[]).includes(column)) {
      throw new BadRequestException(
        `Server Check Extension ${request.shortName} not found - Do you need to install it?`,
      );
    }
    const serverId = Number(server[0].id);
    await this.unitOfWork.run(async (manager) => {
      const values = { [column]: request.value } as Partial<ServerCheck>;
      const updated = await manager.update(ServerCheck, { serverId }, values);
      if (!updated.affected) {
        await insertRows(manager, ServerCheck, { serverId, ...values });
      }
    });
  }

  /** The loaded extensions (open slots left out). */
  async extensions(query: ListQuery): Promise<ServerCheckExtension[]> {
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
      .where('t.name <> :open', { open: OPEN_SLOT });
    const rows = await applyListQuery(qb, query).getRawMany<ServerCheckExtension>();
    return rows.map((row) => ({
      ...row,
      id: Number(row.id),
      isactive: row.isactive === (true as unknown) || Number(row.isactive) === 1 ? 1 : 0,
    }));
  }

  /**
   * Loads an extension into the first open slot (by column name) and clears that column of every
   * server's checks. The name and the short name must be new (400 `A Check extension is already
   * loaded with <value> <field>`); no open slot left is 400.
   */
  async createExtension(request: ExtensionRequest): Promise<number> {
    const type = await this.dataSource.manager.findOneBy(Type, { name: request.type });
    if (!type) {
      throw new BadRequestException(`type ${request.type} does not exist`);
    }
    return this.unitOfWork.run(async (manager) => {
      // Every slot is read under a write lock, so two loads cannot take the same slot or name.
      const slots = await manager.find(ToExtension, {
        lock: writeLock(this.dataSource),
        order: { id: 'ASC' },
      });
      if (slots.some((slot) => slot.name === request.name)) {
        throw new BadRequestException(`A Check extension is already loaded with ${request.name} name`);
      }
      const shortName = request.shortName ?? '';
      if (slots.some((slot) => (slot.servercheckShortName ?? '') === shortName)) {
        throw new BadRequestException(
          `A Check extension is already loaded with ${shortName} servercheck_short_name`,
        );
      }
      const openType = await manager.findOneBy(Type, { name: OPEN_SLOT });
      const open = slots
        .filter((slot) => slot.typeId === openType?.id)
        .sort((a, b) => ((a.servercheckColumnName ?? '') < (b.servercheckColumnName ?? '') ? -1 : 1))[0];
      if (!open) {
        throw new BadRequestException('No open slots left for checks, delete one first.');
      }
      await manager.update(
        ToExtension,
        { id: open.id },
        {
          name: request.name,
          version: request.version,
          infoUrl: request.infoUrl,
          scriptFile: request.scriptFile,
          isActive: request.isActive === 1,
          additionalConfigJson: request.additionalConfigJson,
          description: request.description,
          servercheckShortName: request.shortName,
          typeId: type.id,
        },
      );
      const column = open.servercheckColumnName;
      if (column && (CHECK_COLUMNS as readonly string[]).includes(column)) {
        await manager
          .createQueryBuilder()
          .update(ServerCheck)
          .set({ [column]: 0 })
          .execute();
      }
      return open.id;
    });
  }

  /**
   * Turns an extension's slot back into an open one (the "extension" user only: the route's
   * `@OnlyUser`). An unknown id is 404 `no TO Extension with that key found`.
   */
  async deleteExtension(id: number): Promise<void> {
    if (!(await this.dataSource.manager.existsBy(ToExtension, { id }))) {
      throw new NotFoundException('no TO Extension with that key found');
    }
    const openType = await this.dataSource.manager.findOneBy(Type, { name: OPEN_SLOT });
    const result = await this.dataSource.manager.update(
      ToExtension,
      { id },
      {
        name: 'OPEN',
        version: '0',
        infoUrl: '',
        scriptFile: '',
        isActive: false,
        additionalConfigJson: '',
        description: null,
        servercheckShortName: '',
        typeId: openType!.id,
      },
    );
    if (!result.affected) {
      throw new NotFoundException('no TO Extension with that key found');
    }
  }
}
