import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { classifyDbError } from 'src/common/database/db-error';
import { UnitOfWork, type TransactionManager } from 'src/common/database/unit-of-work';
import type { ListQuery } from 'src/common/list-query/list-query';
import type { CurrentUser } from 'src/common/types/current-user';
import { CdnLocksService } from 'src/modules/cdn-locks/cdn-locks.service';
import { CoordinatesService } from 'src/modules/coordinates/coordinates.service';
import type { Type } from 'src/modules/types/type.entity';
import type { Cachegroup } from './cachegroup.entity';
import { CachegroupsRepository } from './cachegroups.repository';
import { CachegroupDto } from './dto/cachegroup.dto';
import type { CachegroupView } from './dto/cachegroup.response';
import { type LocalizationMethod, parseLocalizationMethods } from './localization-methods';

/** Only cache groups of this type may have fallbacks, and only to cache groups of it. */
const FALLBACK_TYPE = 'EDGE_LOC';

/** The original's texts for a cache group still in use (cachegroups.go isUsed), by referencing table. */
const IN_USE: Record<string, string> = {
  server: 'cachegroup is in use by one or more servers',
  asn: 'cachegroup is in use in one or more ASNs',
  topology_cachegroup: 'cachegroup is in use by one or more topologies',
};

/** The cache group's name and place, for its own coordinate. */
const placeOf = ({ columns }: Plan) => ({
  name: columns.name as string,
  latitude: columns.latitude as number,
  longitude: columns.longitude as number,
});

interface Plan {
  columns: Partial<Cachegroup> & { typeId: number };
  methods: LocalizationMethod[];
  fallbackIds: number[];
}

/**
 * Cache groups with their localization methods and fallbacks. Every write of a cache group and its
 * side-table rows is one transaction; names, parents and references are the database's to enforce
 * (unique indexes → `cachegroup name '…' already exists.`, foreign keys → `cachegroup not found`).
 */
@Injectable()
export class CachegroupsService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly cachegroups: CachegroupsRepository,
    private readonly locks: CdnLocksService,
    private readonly coordinates: CoordinatesService,
  ) {}

  list(query: ListQuery): Promise<CachegroupView[]> {
    return this.cachegroups.list(query);
  }

  /** One cache group as the API shows it; for the answers of create and update. */
  view(id: number): Promise<CachegroupView> {
    return this.cachegroups.view(id);
  }

  async create(dto: CachegroupDto): Promise<CachegroupView> {
    const methods = parseLocalizationMethods(dto.localizationMethods);
    const id = await this.unitOfWork.run(async (manager) => {
      const plan = await this.plan(manager, dto, methods);
      const created = await this.cachegroups.add(manager, plan.columns);
      await this.coordinates.addForCachegroup(manager, placeOf(plan));
      await this.cachegroups.writeSideRows(manager, created, plan.methods, plan.fallbackIds, false);
      return created;
    });
    return this.view(id);
  }

  /** Another user's hard lock on a CDN of the group's servers refuses it (docs/original-behaviour.md#cdn-locks). */
  async update(id: number, dto: CachegroupDto, user: CurrentUser): Promise<CachegroupView> {
    const methods = parseLocalizationMethods(dto.localizationMethods);
    if (dto.parentCachegroupId === id) {
      throw new BadRequestException('a cache group cannot be its own parent');
    }
    if (dto.secondaryParentCachegroupId === id) {
      throw new BadRequestException('a cache group cannot be its own secondary parent');
    }
    await this.unitOfWork.run(async (manager) => {
      await this.locks.assertCanModifyCachegroup(id, user);
      const plan = await this.plan(manager, dto, methods);
      const current = await this.cachegroups.lockedWithType(manager, id);
      if (!current) {
        throw new NotFoundException(`no cachegroup with id ${id} found`);
      }
      await this.assertTypeKeptInTopologies(manager, current, plan.columns.typeId);
      await this.cachegroups.change(manager, id, plan.columns);
      await this.coordinates.moveForCachegroup(manager, current.name, placeOf(plan));
      await this.cachegroups.writeSideRows(manager, id, plan.methods, plan.fallbackIds, true);
    });
    return this.view(id);
  }

  /**
   * The foreign keys refuse the delete of a cache group still used by a server, an ASN or a child
   * cache group; the refusal is worded as the original words it.
   */
  async remove(id: number): Promise<void> {
    await this.unitOfWork.run(async (manager) => {
      const current = await this.cachegroups.lockedWithType(manager, id);
      if (!current) {
        throw new NotFoundException('no cachegroup with that id found');
      }
      try {
        await this.cachegroups.remove(manager, id);
      } catch (error) {
        throw (await this.inUseError(id, error)) ?? error;
      }
      await this.coordinates.removeForCachegroup(manager, current.name);
    });
  }

  private async inUseError(id: number, error: unknown): Promise<Error | undefined> {
    const failure = classifyDbError(error);
    if (failure?.kind !== 'inUse' || failure.table !== 'cachegroup') {
      return undefined;
    }
    if (failure.referencingTable === 'cachegroup') {
      // Which of the two parent keys refused the delete: the failure names only the table.
      const child = await this.cachegroups.hasChildOf(id);
      return new BadRequestException(
        child
          ? 'cachegroup is in use as a parent cachegroup'
          : 'cachegroup is in use as a secondary parent cachegroup',
      );
    }
    const text = IN_USE[failure.referencingTable];
    return text ? new BadRequestException(text) : undefined;
  }

  /**
   * Checks what the original's Validate checks against the database, in its order, inside the
   * write's transaction: the type (`missing property: 'typeId'`, `type not found`, `type is not a
   * valid cachegroup type`), then the fallbacks (EDGE_LOC only, to existing EDGE_LOC cache groups).
   */
  private async plan(
    manager: TransactionManager,
    dto: CachegroupDto,
    methods: LocalizationMethod[],
  ): Promise<Plan> {
    if (dto.typeId === undefined || dto.typeId === null) {
      throw new BadRequestException("missing property: 'typeId'");
    }
    const type = await this.cachegroups.type(manager, dto.typeId);
    if (!type) {
      throw new BadRequestException('type not found');
    }
    if (type.useInTable !== 'cachegroup') {
      throw new BadRequestException('type is not a valid cachegroup type');
    }
    const fallbackIds = await this.fallbackIds(manager, dto, type);
    // A missing latitude or longitude is 0, as the original's Create and Update default them: a cache
    // group always has a coordinate (docs/original-behaviour.md#cache-group-coordinates).
    return {
      columns: {
        name: dto.name,
        shortName: dto.shortName,
        latitude: dto.latitude ?? 0,
        longitude: dto.longitude ?? 0,
        parentCachegroupId: dto.parentCachegroupId ?? null,
        secondaryParentCachegroupId: dto.secondaryParentCachegroupId ?? null,
        typeId: type.id,
        fallbackToClosest: dto.fallbackToClosest ?? true,
      },
      methods,
      fallbackIds,
    };
  }

  /**
   * The original's ValidateTypeInTopology: a cache group that a topology names keeps its type, else
   * 400 `'type' cannot change type of cachegroup <name> from <old> to <new> because it is in use by
   * a topology` (a missing cache group passes: the update answers its 404).
   */
  private async assertTypeKeptInTopologies(
    manager: TransactionManager,
    current: Cachegroup,
    typeId: number,
  ): Promise<void> {
    if (current.typeId === typeId) {
      return;
    }
    if (!(await this.cachegroups.inTopology(manager, current.name))) {
      return;
    }
    const next = await this.cachegroups.type(manager, typeId);
    throw new BadRequestException(
      `'type' cannot change type of cachegroup ${current.name} from ${current.type?.name ?? ''} to ` +
        `${next?.name ?? ''} because it is in use by a topology`,
    );
  }

  private async fallbackIds(manager: TransactionManager, dto: CachegroupDto, type: Type): Promise<number[]> {
    const names = dto.fallbacks ?? [];
    if (names.length === 0) {
      return [];
    }
    if (type.name !== FALLBACK_TYPE) {
      throw new BadRequestException(
        `the cache group ${dto.name} is not allowed to have fallbacks.  It must be of type ${FALLBACK_TYPE}.`,
      );
    }
    const found = await this.cachegroups.withTypesByName(manager, names);
    return names.map((name) => {
      const fallback = found.find((cg) => cg.name === name);
      if (!fallback || fallback.type?.name !== FALLBACK_TYPE) {
        throw new BadRequestException(
          `the cache group ${name} is not valid as a fallback.  It must exist as a cache group and be of type ${FALLBACK_TYPE}.`,
        );
      }
      return fallback.id;
    });
  }
}
