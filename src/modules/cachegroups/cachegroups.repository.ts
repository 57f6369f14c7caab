import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, type EntityManager, In, Repository } from 'typeorm';
import { insertRow, insertRowReturning, insertRows } from 'src/common/database/insert-rows';
import { writeLock } from 'src/common/database/locks';
import { getPlainMany } from 'src/common/database/plain-rows';
import { applyListQuery, type ListQuery } from 'src/common/list-query/list-query';
import { Type } from 'src/modules/types/type.entity';
import { Asn } from './asn.entity';
import { CachegroupFallback } from './cachegroup-fallback.entity';
import { CachegroupLocalizationMethod } from './cachegroup-localization-method.entity';
import { Cachegroup } from './cachegroup.entity';
import type { CachegroupView } from './dto/cachegroup.response';
import type { LocalizationMethod } from './localization-methods';

export type AsnColumns = Pick<Asn, 'asn' | 'cachegroupId'>;

/**
 * The cachegroup, its side tables (localization methods, fallbacks) and asn tables, and what their
 * rules read of types and topologies: the only file of the module that runs SQL
 * (docs/architecture.md#data-access). Methods taking a `manager` run in the caller's transaction.
 */
@Injectable()
export class CachegroupsRepository {
  constructor(
    @InjectRepository(Cachegroup) private readonly cachegroups: Repository<Cachegroup>,
    @InjectRepository(Asn) private readonly asns: Repository<Asn>,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  // cachegroup

  /** The page of cache groups as the API shows them. */
  async list(query: ListQuery): Promise<CachegroupView[]> {
    const rows = await getPlainMany(applyListQuery(this.select(this.cachegroups.manager), query));
    return this.withSideRows(this.cachegroups.manager, rows);
  }

  /** One cache group as the API shows it (read on `manager` when given); it must exist. */
  async view(id: number, manager: EntityManager = this.cachegroups.manager): Promise<CachegroupView> {
    const row = await this.select(manager).where('cg.id = :id', { id }).getOneOrFail();
    const [view] = await this.withSideRows(manager, [row]);
    return view;
  }

  /** Adds a cache group: its id. */
  add(manager: EntityManager, columns: Partial<Cachegroup>): Promise<number> {
    return insertRow(manager, Cachegroup, columns);
  }

  /** Changes a cache group: whether there was one. */
  async change(manager: EntityManager, id: number, columns: Partial<Cachegroup>): Promise<boolean> {
    return Boolean((await manager.update(Cachegroup, { id }, columns)).affected);
  }

  /** Deletes a cache group: whether there was one (the foreign keys refuse one in use). */
  async remove(manager: EntityManager, id: number): Promise<boolean> {
    return Boolean((await manager.delete(Cachegroup, { id })).affected);
  }

  /** Whether a cache group has `id` as its (primary) parent. */
  async hasChildOf(id: number): Promise<boolean> {
    const child = await this.cachegroups.findOne({ where: { parentCachegroupId: id }, select: { id: true } });
    return child !== null;
  }

  /** The cache group with its type, read with a write lock, or null. */
  lockedWithType(manager: EntityManager, id: number): Promise<Cachegroup | null> {
    return manager.findOne(Cachegroup, {
      where: { id },
      relations: { type: true },
      lock: writeLock(this.dataSource),
    });
  }

  /** Whether a topology names the cache group. */
  async inTopology(manager: EntityManager, name: string): Promise<boolean> {
    const used = await manager.query<unknown[]>(
      'SELECT 1 FROM topology_cachegroup WHERE cachegroup = ? LIMIT 1',
      [name],
    );
    return used.length > 0;
  }

  type(manager: EntityManager, id: number): Promise<Type | null> {
    return manager.findOne(Type, { where: { id } });
  }

  /** The cache groups with these names, each with its type. */
  withTypesByName(manager: EntityManager, names: string[]): Promise<Cachegroup[]> {
    return manager
      .createQueryBuilder(Cachegroup, 'cg')
      .innerJoinAndSelect('cg.type', 't')
      .where('cg.name IN (:...names)', { names })
      .getMany();
  }

  /** Replaces (with `replace`) or writes the cache group's localization methods and fallbacks. */
  async writeSideRows(
    manager: EntityManager,
    id: number,
    methods: LocalizationMethod[],
    fallbackIds: number[],
    replace: boolean,
  ): Promise<void> {
    if (replace) {
      await manager.delete(CachegroupLocalizationMethod, { cachegroupId: id });
      await manager.delete(CachegroupFallback, { primaryId: id });
    }
    if (methods.length > 0) {
      await insertRows(
        manager,
        CachegroupLocalizationMethod,
        methods.map((method) => ({ cachegroupId: id, method })),
      );
    }
    if (fallbackIds.length > 0) {
      await insertRows(
        manager,
        CachegroupFallback,
        fallbackIds.map((backupId, setOrder) => ({ primaryId: id, backupId, setOrder })),
      );
    }
  }

  private select(manager: EntityManager) {
    return manager
      .createQueryBuilder(Cachegroup, 'cg')
      .innerJoinAndSelect('cg.type', 't')
      .leftJoinAndSelect('cg.parentCachegroup', 'p')
      .leftJoinAndSelect('cg.secondaryParentCachegroup', 'sp');
  }

  /** Side-table rows of a page of cache groups, two queries whatever the page's size. */
  private async withSideRows(manager: EntityManager, rows: Cachegroup[]): Promise<CachegroupView[]> {
    const ids = rows.map((cg) => cg.id);
    if (ids.length === 0) {
      return [];
    }
    const [methods, fallbacks] = await Promise.all([
      manager.find(CachegroupLocalizationMethod, { where: { cachegroupId: In(ids) }, order: { id: 'ASC' } }),
      manager
        .createQueryBuilder(CachegroupFallback, 'f')
        .innerJoinAndSelect('f.backup', 'b')
        .where('f.primary_cg IN (:...ids)', { ids })
        .orderBy('f.set_order', 'ASC')
        .getMany(),
    ]);
    return rows.map((cachegroup) => ({
      cachegroup,
      localizationMethods: methods.filter((m) => m.cachegroupId === cachegroup.id).map((m) => m.method),
      fallbacks: fallbacks.filter((f) => f.primaryId === cachegroup.id).map((f) => f.backup?.name ?? ''),
    }));
  }

  // asn

  /**
   * One statement: the ASNs with their cache groups (one row each), filtered, ordered and paged in
   * SQL; the default order (the number) is the unique index's.
   */
  listAsns(query: ListQuery): Promise<Asn[]> {
    return getPlainMany(
      applyListQuery(this.asns.createQueryBuilder('a').leftJoinAndSelect('a.cachegroup', 'c'), query),
    );
  }

  /** Adds an ASN and answers it as stored (its `last_updated`): one statement where the database can. */
  addAsn(columns: AsnColumns): Promise<Asn> {
    return insertRowReturning(this.asns.manager, Asn, columns);
  }

  /** Changes an ASN: it as stored afterwards, or undefined when there is none. */
  async changeAsn(id: number, columns: AsnColumns): Promise<Asn | undefined> {
    const result = await this.asns.update({ id }, columns);
    return result.affected ? this.asns.findOneByOrFail({ id }) : undefined;
  }

  /** Deletes an ASN: whether there was one. */
  async removeAsn(id: number): Promise<boolean> {
    return Boolean((await this.asns.delete({ id })).affected);
  }
}
