import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import type { ListQuery } from 'src/common/list-query/list-query';
import type { CurrentUser } from 'src/common/types/current-user';
import { CdnLocksService } from 'src/modules/cdn-locks/cdn-locks.service';
import { TenancyService } from 'src/modules/tenants/tenancy.service';
import { StaticDnsEntryDto } from './dto/static-dns-entry.dto';
import type { CRConfigStaticDnsEntry, StaticDnsEntryRow } from './dto/static-dns-entry.response';
import { StaticDnsEntriesRepository, type StaticDnsEntryColumns } from './static-dns-entries.repository';
import { staticDnsEntryProblems } from './static-dns-entry-rules';

/** The original's texts for an entry that is not there, by operation. */
export const ENTRY_NOT_FOUND_FOR_UPDATE = 'no staticDNSEntry found with this id';
export const ENTRY_NOT_FOUND_FOR_DELETE = 'no staticDNSEntry with that key found';

/** The `use_in_table` of the record types. */
const USE_IN_TABLE = 'staticdnsentry';

/**
 * Static DNS entries (docs/original-behaviour.md#static-dns-entries): the original's rules — the
 * record type is looked up first, then every field's rule by that type; another user's hard lock
 * on the delivery service's CDN refuses the write (docs/decisions.md#d77) — and, beyond the
 * original, the tenancy of the entry's delivery service (docs/decisions.md#d109).
 */
@Injectable()
export class StaticDnsEntriesService {
  constructor(
    private readonly entries: StaticDnsEntriesRepository,
    private readonly tenancy: TenancyService,
    private readonly locks: CdnLocksService,
  ) {}

  list(query: ListQuery, user: CurrentUser): Promise<StaticDnsEntryRow[]> {
    return this.entries.list(query, user.tenantId);
  }

  /**
   * The original's validation of a body: its type (an absent type is the type 0: `type not found`;
   * 5.0's `missing property: 'typeId'` is the controller's), `type is not a valid staticdnsentry
   * type`, then the fields' rules by that type, joined.
   */
  async validate(body: StaticDnsEntryDto): Promise<void> {
    const type = await this.entries.type(body.typeId ?? 0);
    if (!type) {
      throw new BadRequestException('type not found');
    }
    if (type.useInTable !== USE_IN_TABLE) {
      throw new BadRequestException(`type is not a valid ${USE_IN_TABLE} type`);
    }
    const problems = staticDnsEntryProblems(body, type.name);
    if (problems.length > 0) {
      throw new BadRequestException(problems.join(', '));
    }
  }

  /** Creates a validated entry; an unknown delivery service or cache group is the database's 404. */
  async create(body: StaticDnsEntryDto, user: CurrentUser): Promise<StaticDnsEntryRow> {
    await this.checkDeliveryService(body.deliveryserviceId!, user);
    return this.findOrFail(await this.entries.add(columns(body)));
  }

  /**
   * Updates a validated entry: the tenancy of the entry as it is, then the body's delivery service
   * (its tenancy and its CDN's lock, as the original), then 404 when there is no such entry.
   */
  async update(id: number, body: StaticDnsEntryDto, user: CurrentUser): Promise<StaticDnsEntryRow> {
    const current = await this.entries.lockedById(id);
    if (current) {
      await this.checkTenancyOf(current.deliveryServiceId, user);
    }
    await this.checkDeliveryService(body.deliveryserviceId!, user);
    if (!current) {
      throw new NotFoundException(ENTRY_NOT_FOUND_FOR_UPDATE);
    }
    await this.entries.change(id, columns(body));
    return this.findOrFail(id);
  }

  /** Deletes an entry: 404 when there is none, then its delivery service's tenancy and CDN lock. */
  async remove(id: number, user: CurrentUser): Promise<void> {
    const current = await this.entries.lockedById(id);
    if (!current) {
      throw new NotFoundException(ENTRY_NOT_FOUND_FOR_DELETE);
    }
    await this.checkDeliveryService(current.deliveryServiceId, user);
    await this.entries.remove(id);
  }

  /**
   * For the CRConfig (src/modules/snapshots): the entries of the CDN's active delivery services, by
   * XML id, each as Traffic Router reads it — `name` the host, `value` the address, `type` the record
   * type without `_RECORD` (`A`, `AAAA`, `CNAME`, …) — in the order they were created. With the
   * CDN's `ttl_override` (> 0), every entry's TTL is that override, as the original writes it.
   */
  async crConfigEntries(
    cdnId: number,
    ttlOverride: number | null,
  ): Promise<Map<string, CRConfigStaticDnsEntry[]>> {
    const out = new Map<string, CRConfigStaticDnsEntry[]>();
    for (const row of await this.entries.crConfigRows(cdnId)) {
      const entries = out.get(row.xmlId) ?? [];
      entries.push({
        name: row.host,
        ttl: ttlOverride !== null && ttlOverride > 0 ? ttlOverride : Number(row.ttl),
        type: row.type.split('_RECORD').join(''),
        value: row.address,
      });
      out.set(row.xmlId, entries);
    }
    return out;
  }

  /**
   * The delivery service an entry is (to be) in: within the user's tenancy (403 `not authorized on
   * this tenant`), and its CDN not hard-locked by another user. An unknown one passes: the write's
   * foreign key answers 404 `deliveryservice not found`.
   */
  private async checkDeliveryService(deliveryServiceId: number, user: CurrentUser): Promise<void> {
    const ds = await this.entries.deliveryService(deliveryServiceId);
    if (!ds) {
      return;
    }
    await this.tenancy.assertWithinReach(user.tenantId, ds.tenantId);
    await this.locks.assertCanModifyCdn(ds.cdnId, user);
  }

  private async checkTenancyOf(deliveryServiceId: number, user: CurrentUser): Promise<void> {
    const ds = await this.entries.deliveryService(deliveryServiceId);
    if (ds) {
      await this.tenancy.assertWithinReach(user.tenantId, ds.tenantId);
    }
  }

  private async findOrFail(id: number): Promise<StaticDnsEntryRow> {
    const row = await this.entries.row(id);
    if (!row) {
      throw new NotFoundException(ENTRY_NOT_FOUND_FOR_UPDATE);
    }
    return row;
  }
}

/** The columns a validated body writes. */
function columns(body: StaticDnsEntryDto): StaticDnsEntryColumns {
  return {
    host: body.host!,
    address: body.address!,
    typeId: body.typeId!,
    ttl: body.ttl!,
    deliveryServiceId: body.deliveryserviceId!,
    cachegroupId: body.cachegroupId ?? null,
  };
}
