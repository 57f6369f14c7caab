import { BadRequestException, NotFoundException } from '@nestjs/common';
import type { TransactionManager } from 'src/common/database/unit-of-work';
import type { Federation } from './federation.entity';
import type { FederationsRepository, LinkTable } from './federations.repository';

/** The federation, locked for the rest of the unit of work; throws `notFound` when there is none. */
export async function lockFederation(
  federations: FederationsRepository,
  manager: TransactionManager,
  id: number,
  notFound: () => Error = () => new NotFoundException(`federation ${id} not found`),
): Promise<Federation> {
  const federation = await federations.lockedFederation(manager, id);
  if (!federation) {
    throw notFound();
  }
  return federation;
}

/**
 * Inserts the links of one federation to `ids` in one statement. An existing pair, or an id given
 * twice, fails it on the unique index; the answer then names the first such pair in request order,
 * as the original words it (`<table> <cols> '<federation>, <id>' already exists.`). A missing
 * referenced row still reaches the central mapping (404 `<table> not found`).
 */
export async function insertFederationLinks(
  federations: FederationsRepository,
  manager: TransactionManager,
  links: LinkTable,
  federationId: number,
  ids: number[],
): Promise<void> {
  const pairs = ids.map((id): [number, number] => [federationId, id]);
  if (await federations.link(manager, links, pairs)) {
    return;
  }
  const linked = new Set(await federations.linked(manager, links, federationId, ids));
  const seen = new Set<number>();
  const duplicate = ids.find((id) => linked.has(id) || seen.has(id) || (seen.add(id), false));
  throw new BadRequestException(
    `${links.table} ${links.columns.join(', ')} '${federationId}, ${duplicate ?? ids[0]}' already exists.`,
  );
}
