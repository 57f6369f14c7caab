import { BadRequestException, ForbiddenException, Injectable, NotFoundException } from '@nestjs/common';
import type { CurrentUser } from 'src/common/types/current-user';
import { NOT_AUTHORIZED_ON_TENANT, TenancyService } from 'src/modules/tenants/tenancy.service';
import { type KeyOwner, KeysRepository } from './keys.repository';

/**
 * The delivery services the SSL, URL signing and URI signing keys belong to: the lookups and the
 * original's two tenancy checks the three key families share.
 */
@Injectable()
export class KeyOwnersService {
  constructor(
    private readonly repository: KeysRepository,
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
    return this.repository.ownerByXmlId(xmlId);
  }

  ownerById(id: number): Promise<KeyOwner | undefined> {
    return this.repository.ownerById(id);
  }
}
