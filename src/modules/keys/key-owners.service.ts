import { BadRequestException, ForbiddenException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { CurrentUser } from 'src/common/types/current-user';
import { NOT_AUTHORIZED_ON_TENANT, TenancyService } from 'src/modules/tenants/tenancy.service';

/** The delivery service a key route is about. */
export interface KeyOwner {
  id: number;
  xmlId: string;
  tenantId: number;
  typeName: string;
}

/**
 * The delivery services the SSL, URL signing and URI signing keys belong to: the lookups and the
 * original's two tenancy checks the three key families share.
 */
@Injectable()
export class KeyOwnersService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly tenancy: TenancyService,
  ) {}

  /** The original's tenant.Check: an unknown xmlId is a 400, one out of reach a bare 403. */
  async checkTenant(user: CurrentUser, xmlId: string): Promise<void> {
    const owner = await this.ownerByXmlId(xmlId);
    if (!owner) {
      throw new BadRequestException(`no such deliveryservice: '${xmlId}'`);
    }
    if (!(await this.tenancy.isWithinReach(user.tenantId, owner.tenantId))) {
      throw new ForbiddenException('Forbidden');
    }
  }

  /** The URL signing key handlers' check: an unknown xmlId is a 404, one out of reach a 403. */
  async checkUrlKeyTenant(user: CurrentUser, xmlId: string): Promise<void> {
    const owner = await this.ownerByXmlId(xmlId);
    if (!owner) {
      throw new NotFoundException(`delivery service ${xmlId} not found`);
    }
    if (!(await this.tenancy.isWithinReach(user.tenantId, owner.tenantId))) {
      throw new ForbiddenException(NOT_AUTHORIZED_ON_TENANT);
    }
  }

  ownerByXmlId(xmlId: string): Promise<KeyOwner | undefined> {
    return this.owner('ds.xml_id = ?', xmlId);
  }

  async owner(condition: string, value: string | number): Promise<KeyOwner | undefined> {
    const rows: { id: number | string; xmlId: string; tenantId: number | string; typeName: string }[] =
      await this.dataSource.query(
        'SELECT ds.id AS id, ds.xml_id AS xmlId, ds.tenant_id AS tenantId, t.name AS typeName ' +
          `FROM deliveryservice ds JOIN type t ON t.id = ds.type WHERE ${condition}`,
        [value],
      );
    const row = rows[0];
    return row
      ? { id: Number(row.id), xmlId: row.xmlId, tenantId: Number(row.tenantId), typeName: row.typeName }
      : undefined;
  }
}
