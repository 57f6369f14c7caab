import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { translateDbErrors } from 'src/common/database/db-error';
import type { ListQuery } from 'src/common/list-query/list-query';
import { ServerCapabilityDto } from './dto/server-capability.dto';
import { ServerCapabilitiesRepository } from './server-capabilities.repository';
import type { ServerCapability } from './server-capability.entity';

/** The original's text for a taken name (its PostgreSQL unique-violation text). */
const taken = (name: string): BadRequestException =>
  new BadRequestException(`server_capability name '${name}' already exists.`);

/**
 * Which of the original's handlers a version's write runs (the controller chooses): before 4.1 the
 * generic one (name only, its texts), from 4.1 the own one (with the description); DELETE: the
 * generic one before 5.0, the own one from 5.0.
 */
export interface ServerCapabilityHandler {
  /** The description is read and written (4.1+). */
  withDescription: boolean;
}

/**
 * Server capabilities (docs/original-behaviour.md#server-capabilities). A capability still given to
 * a server or required by a delivery service cannot be deleted (the foreign keys refuse it);
 * renaming one renames it everywhere (ON UPDATE CASCADE).
 */
@Injectable()
export class ServerCapabilitiesService {
  constructor(private readonly capabilities: ServerCapabilitiesRepository) {}

  list(query: ListQuery): Promise<ServerCapability[]> {
    return this.capabilities.listCapabilities(query);
  }

  /** A taken name is refused by the primary key. Without the description, `''` is written. */
  async create(handler: ServerCapabilityHandler, dto: ServerCapabilityDto): Promise<ServerCapability> {
    const description = handler.withDescription ? (dto.description ?? '') : '';
    await translateDbErrors(
      () => this.capabilities.addCapability({ name: dto.name, description }),
      (failure) => (failure.kind === 'unique' ? taken(dto.name) : undefined),
    );
    return this.capabilities.capability(dto.name);
  }

  /**
   * PUT server_capabilities?name=: renames the capability named by the query to the body's name.
   * The generic handler (before 4.1) changes only the name: no key → `missing key: name`, no such
   * capability → `cannot find exactly one …`. The own one (4.1+) writes the description too, and a
   * missing capability is `server capability with name: <new name> not found`.
   */
  async update(
    handler: ServerCapabilityHandler,
    key: string | undefined,
    dto: ServerCapabilityDto,
  ): Promise<ServerCapability> {
    const own = handler.withDescription;
    if (!own && !key) {
      throw new BadRequestException('missing key: name');
    }
    const existing = key ? await this.capabilities.lockedCapability(key) : null;
    if (!existing) {
      throw new BadRequestException(
        own
          ? `server capability with name: ${dto.name} not found`
          : 'cannot find exactly one server capability with the query string provided',
      );
    }
    const changes = own ? { name: dto.name, description: dto.description ?? '' } : { name: dto.name };
    await translateDbErrors(
      () => this.capabilities.changeCapability(existing.name, changes),
      (failure) => (failure.kind === 'unique' ? taken(dto.name) : undefined),
    );
    return this.capabilities.capability(dto.name);
  }

  /**
   * DELETE server_capabilities?name= by the generic handler (before 5.0): no key → `missing key:
   * name`, none deleted → 404. One still referenced is refused by the foreign keys (`cannot delete
   * server_capability because it is being used by …`).
   */
  async removeGeneric(name: string | undefined): Promise<void> {
    if (!name) {
      throw new BadRequestException('missing key: name');
    }
    if (!(await this.capabilities.removeCapability(name))) {
      throw new NotFoundException('no server capability with that key found');
    }
  }

  /**
   * DELETE server_capabilities?name= by 5.0's own handler: an unknown name is a 404 naming it (an
   * empty one a 400) and a capability given to servers is refused with their number; one still
   * required by a delivery service is refused by the foreign key.
   */
  async remove(name: string | undefined): Promise<void> {
    const existing = name ? await this.capabilities.lockedCapability(name) : null;
    if (!existing) {
      if (name) {
        throw new NotFoundException(`no server capability exists by name: ${name}`);
      }
      throw new BadRequestException('no server capability exists for empty name: ');
    }
    const count = await this.capabilities.serverCount(existing.name);
    if (count > 0) {
      throw new BadRequestException(`can not delete a server capability with ${count} assigned servers`);
    }
    await this.capabilities.removeCapability(existing.name);
  }
}
