import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { translateDbErrors } from 'src/common/database/db-error';
import { lockingClause, writeLock } from 'src/common/database/locks';
import { applyListQuery, type ListQuery } from 'src/common/list-query/list-query';
import { toDate } from 'src/common/time/timestamps';
import { type Assignment } from 'src/modules/federations/assignment.body';
import type { FederationResolverBody } from './federation-resolver.body';
import { resolverTypeOf } from 'src/modules/federations/ip';
import { Federation } from 'src/modules/federations/federation.entity';
import { insertLinksIgnoringDuplicates } from 'src/modules/federations/federation-store';
import { UnitOfWork } from 'src/common/database/unit-of-work';

export interface FederationResolverRow {
  id: number;
  ipAddress: string;
  type: string;
  lastUpdated: Date;
}

interface RawResolverRow extends Omit<FederationResolverRow, 'lastUpdated'> {
  lastUpdated: Date | string;
}

/** Federation resolvers (`federation_resolvers`) and their links to federations. */
@Injectable()
export class FederationResolversService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  async list(query: ListQuery): Promise<FederationResolverRow[]> {
    const qb = this.dataSource
      .createQueryBuilder()
      .select('fr.id', 'id')
      .addSelect('fr.ip_address', 'ipAddress')
      .addSelect('fr.last_updated', 'lastUpdated')
      .addSelect('t.name', 'type')
      .from('federation_resolver', 'fr')
      .innerJoin('type', 't', 't.id = fr.type');
    const rows = await applyListQuery(qb, query).getRawMany<RawResolverRow>();
    return rows.map((row) => ({ ...row, id: Number(row.id), lastUpdated: toDate(row.lastUpdated) }));
  }

  /**
   * Creates a resolver whose type matches its address family (RESOLVE4 for IPv4, RESOLVE6 for
   * IPv6): one INSERT … SELECT that writes nothing unless `typeId` is that type; the unique index
   * on the address answers a duplicate (400 `federation_resolver ip_address '<ip>' already exists.`).
   */
  create(body: FederationResolverBody): Promise<FederationResolverRow & { typeId: number }> {
    const typeName = resolverTypeOf(body.family);
    return this.unitOfWork.run(async (manager) => {
      await translateDbErrors(
        () =>
          manager.query(
            'INSERT INTO federation_resolver (ip_address, type) SELECT ?, t.id FROM type t WHERE t.id = ? AND t.name = ?',
            [body.ipAddress, body.typeId, typeName],
          ),
        (failure) =>
          failure.kind === 'unique'
            ? new BadRequestException(`federation_resolver ip_address '${body.ipAddress}' already exists.`)
            : undefined,
      );
      const [row] = await manager.query<{ id: number | string; lastUpdated: Date | string }[]>(
        'SELECT id, last_updated AS lastUpdated FROM federation_resolver WHERE ip_address = ?',
        [body.ipAddress],
      );
      if (!row) {
        const types = await manager.query<unknown[]>('SELECT 1 FROM type WHERE id = ?', [body.typeId]);
        if (types.length === 0) {
          throw new NotFoundException('type not found');
        }
        throw new BadRequestException(
          `validating: typeId: must be the ${typeName} type for an IPv${body.family} address or subnet.`,
        );
      }
      return {
        id: Number(row.id),
        ipAddress: body.ipAddress,
        type: typeName,
        typeId: body.typeId,
        lastUpdated: toDate(row.lastUpdated),
      };
    });
  }

  /** Deletes a resolver and, by cascade, its links to federations. */
  remove(id: number): Promise<Omit<FederationResolverRow, 'lastUpdated'>> {
    return this.unitOfWork.run(async (manager) => {
      const lock = lockingClause(this.dataSource, 'write');
      const [row] = await manager.query<{ id: number | string; ipAddress: string; type: string }[]>(
        'SELECT fr.id AS id, fr.ip_address AS ipAddress, t.name AS type FROM federation_resolver fr ' +
          `JOIN type t ON t.id = fr.type WHERE fr.id = ?${lock}`,
        [id],
      );
      if (!row) {
        throw new NotFoundException(`No federation resolver by ID ${id}`);
      }
      await manager.query('DELETE FROM federation_resolver WHERE id = ?', [id]);
      return { id: Number(row.id), ipAddress: row.ipAddress, type: row.type };
    });
  }

  /** The resolvers linked to a federation; an unknown federation has none (200 `[]`). */
  async forFederation(federationId: number): Promise<Omit<FederationResolverRow, 'lastUpdated'>[]> {
    const rows = await this.dataSource.query<{ id: number | string; ipAddress: string; type: string }[]>(
      'SELECT fr.id AS id, fr.ip_address AS ipAddress, t.name AS type FROM federation_federation_resolver ffr ' +
        'JOIN federation_resolver fr ON fr.id = ffr.federation_resolver JOIN type t ON t.id = fr.type ' +
        'WHERE ffr.federation = ? ORDER BY fr.id',
      [federationId],
    );
    return rows.map((row) => ({ id: Number(row.id), ipAddress: row.ipAddress, type: row.type }));
  }

  /**
   * Links resolvers to a federation in one transaction, as the original: the body is read first
   * (`malformed JSON: …`), then the federation (404 `'<id>': no such Federation`); `replace` drops
   * the federation's other links; links that exist are kept; an unknown resolver answers 404
   * `federation_resolver not found` and nothing is written.
   */
  assign(
    federationId: number,
    assignment: Assignment,
  ): Promise<{ assignment: Assignment; federation: Federation }> {
    return this.unitOfWork.run(async (manager) => {
      const federation = await manager.getRepository(Federation).findOne({
        where: { id: federationId },
        lock: writeLock(this.dataSource),
      });
      if (!federation) {
        throw new NotFoundException(`'${federationId}': no such Federation`);
      }
      if (assignment.replace) {
        await manager.query('DELETE FROM federation_federation_resolver WHERE federation = ?', [
          federationId,
        ]);
      }
      await insertLinksIgnoringDuplicates(
        manager,
        'federation_federation_resolver',
        ['federation', 'federation_resolver'],
        (assignment.ids ?? []).map((id) => [federationId, id]),
      );
      return { assignment, federation };
    });
  }
}
