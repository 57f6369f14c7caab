import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { UnitOfWork } from 'src/common/database/unit-of-work';
import type { ListQuery } from 'src/common/list-query/list-query';
import { toDate } from 'src/common/time/timestamps';
import type { ExtensionRequest, ServercheckRequest } from './dto/servercheck.dto';
import type { GenericServerCheck, ServerCheckExtension } from './dto/servercheck.response';
import { CHECK_COLUMNS, type CheckColumn, type ServerCheckColumns } from './servercheck.entity';
import { ServercheckRepository, type Time } from './servercheck.repository';

/** The only user the original lets write checks and extensions. */
export const EXTENSION_USER = 'extension';
export const NOT_EXTENSION_USER = 'invalid user for this API. Only the "extension" user can use this';
const OPEN_SLOT = 'CHECK_EXTENSION_OPEN_SLOT';

const later = (a: Time, b: Time): boolean =>
  a !== null && b !== null && toDate(a).getTime() > toDate(b).getTime();

/** Server checks and check extensions (docs/original-behaviour.md#servercheck). */
@Injectable()
export class ServercheckService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly checks: ServercheckRepository,
  ) {}

  /** EDGE and MID servers with their check values, by the loaded extensions' short names. */
  async list(query: ListQuery): Promise<GenericServerCheck[]> {
    const servers = await this.checks.servers(query);
    if (servers.length === 0) {
      return [];
    }
    const ids = servers.map((s) => Number(s.id));
    const rows = await this.checks.checksOf(ids);
    const byServer = new Map(rows.map((c) => [c.serverId, c as ServerCheckColumns]));
    const extensions = await this.checks.loadedExtensionColumns();
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
    const serverId = await this.checks.serverId(
      request.id !== undefined ? { id: request.id } : { hostName: request.hostName! },
    );
    if (serverId === undefined) {
      throw new BadRequestException('Server not found');
    }
    const slot = await this.checks.slotByShortName(request.shortName);
    const column = slot?.servercheckColumnName;
    if (!column || !(CHECK_COLUMNS as readonly string[]).includes(column)) {
      throw new BadRequestException(
        `Server Check Extension ${request.shortName} not found - Do you need to install it?`,
      );
    }
    await this.unitOfWork.run((manager) =>
      this.checks.setCheck(manager, serverId, column as CheckColumn, request.value),
    );
  }

  /** The loaded extensions (open slots left out). */
  async extensions(query: ListQuery): Promise<ServerCheckExtension[]> {
    const rows = await this.checks.extensions(query, OPEN_SLOT);
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
    const type = await this.checks.type(request.type);
    if (!type) {
      throw new BadRequestException(`type ${request.type} does not exist`);
    }
    return this.unitOfWork.run(async (manager) => {
      // Every slot is read under a write lock, so two loads cannot take the same slot or name.
      const slots = await this.checks.lockedSlots(manager);
      if (slots.some((slot) => slot.name === request.name)) {
        throw new BadRequestException(`A Check extension is already loaded with ${request.name} name`);
      }
      const shortName = request.shortName ?? '';
      if (slots.some((slot) => (slot.servercheckShortName ?? '') === shortName)) {
        throw new BadRequestException(
          `A Check extension is already loaded with ${shortName} servercheck_short_name`,
        );
      }
      const openType = await this.checks.type(OPEN_SLOT, manager);
      const open = slots
        .filter((slot) => slot.typeId === openType?.id)
        .sort((a, b) => ((a.servercheckColumnName ?? '') < (b.servercheckColumnName ?? '') ? -1 : 1))[0];
      if (!open) {
        throw new BadRequestException('No open slots left for checks, delete one first.');
      }
      await this.checks.changeSlot(
        open.id,
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
        manager,
      );
      const column = open.servercheckColumnName;
      if (column && (CHECK_COLUMNS as readonly string[]).includes(column)) {
        await this.checks.clearCheckColumn(manager, column as CheckColumn);
      }
      return open.id;
    });
  }

  /**
   * Turns an extension's slot back into an open one (the "extension" user only: the route's
   * `@OnlyUser`). An unknown id is 404 `no TO Extension with that key found`.
   */
  async deleteExtension(id: number): Promise<void> {
    if (!(await this.checks.slotExists(id))) {
      throw new NotFoundException('no TO Extension with that key found');
    }
    const openType = await this.checks.type(OPEN_SLOT);
    const changed = await this.checks.changeSlot(id, {
      name: 'OPEN',
      version: '0',
      infoUrl: '',
      scriptFile: '',
      isActive: false,
      additionalConfigJson: '',
      description: null,
      servercheckShortName: '',
      typeId: openType!.id,
    });
    if (!changed) {
      throw new NotFoundException('no TO Extension with that key found');
    }
  }
}
