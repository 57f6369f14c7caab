import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { canonicalInet } from 'src/common/net/inet';
import { translateDbErrors } from 'src/common/database/db-error';
import { UnitOfWork } from 'src/common/database/unit-of-work';
import type { ListQuery } from 'src/common/list-query/list-query';
import { type Assignment } from 'src/modules/federations/assignment.dto';
import type { Federation } from 'src/modules/federations/federation.entity';
import { lockFederation } from 'src/modules/federations/federation-links';
import { FederationsRepository } from 'src/modules/federations/federations.repository';
import { resolverTypeOf } from 'src/modules/federations/ip';
import type { FederationResolverBody } from './federation-resolver.dto';
import {
  FEDERATION_RESOLVERS,
  type FederationResolverRow,
  FederationResolversRepository,
} from './federation-resolvers.repository';

/** Federation resolvers (`federation_resolvers`) and their links to federations. */
@Injectable()
export class FederationResolversService {
  constructor(
    private readonly resolvers: FederationResolversRepository,
    private readonly federations: FederationsRepository,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  list(query: ListQuery): Promise<FederationResolverRow[]> {
    return this.resolvers.list(query);
  }

  /**
   * Creates a resolver whose type matches its address family (RESOLVE4 for IPv4, RESOLVE6 for
   * IPv6): one INSERT … SELECT that writes nothing unless `typeId` is that type; the unique index
   * on the address answers a duplicate (400 `federation_resolver ip_address '<ip>' already exists.`).
   */
  create(body: FederationResolverBody): Promise<FederationResolverRow & { typeId: number }> {
    const typeName = resolverTypeOf(body.family);
    // Stored and answered as the original's `inet` column holds it: one address, one text.
    const ipAddress = canonicalInet(body.ipAddress);
    return this.unitOfWork.run(async (manager) => {
      await translateDbErrors(
        () => this.resolvers.add(manager, ipAddress, body.typeId, typeName),
        (failure) =>
          failure.kind === 'unique'
            ? new BadRequestException(`federation_resolver ip_address '${ipAddress}' already exists.`)
            : undefined,
      );
      const row = await this.resolvers.byAddress(manager, ipAddress);
      if (!row) {
        if (!(await this.resolvers.typeExists(manager, body.typeId))) {
          throw new NotFoundException('type not found');
        }
        throw new BadRequestException(
          `validating: typeId: must be the ${typeName} type for an IPv${body.family} address or subnet.`,
        );
      }
      return {
        id: row.id,
        ipAddress,
        type: typeName,
        typeId: body.typeId,
        lastUpdated: row.lastUpdated,
      };
    });
  }

  /** Deletes a resolver and, by cascade, its links to federations. */
  remove(id: number): Promise<Omit<FederationResolverRow, 'lastUpdated'>> {
    return this.unitOfWork.run(async (manager) => {
      const row = await this.resolvers.lockedById(manager, id);
      if (!row) {
        throw new NotFoundException(`No federation resolver by ID ${id}`);
      }
      await this.resolvers.remove(manager, id);
      return row;
    });
  }

  /** The resolvers linked to a federation; an unknown federation has none (200 `[]`). */
  forFederation(federationId: number): Promise<Omit<FederationResolverRow, 'lastUpdated'>[]> {
    return this.resolvers.forFederation(federationId);
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
      const federation = await lockFederation(
        this.federations,
        manager,
        federationId,
        () => new NotFoundException(`'${federationId}': no such Federation`),
      );
      if (assignment.replace) {
        await this.resolvers.unlinkAll(manager, federationId);
      }
      await this.federations.linkIgnoringDuplicates(
        manager,
        FEDERATION_RESOLVERS,
        (assignment.ids ?? []).map((id) => [federationId, id]),
      );
      return { assignment, federation };
    });
  }
}
