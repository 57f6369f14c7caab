import { BadRequestException, ForbiddenException, Injectable, NotFoundException } from '@nestjs/common';
import { randomInt } from 'node:crypto';
import type { CurrentUser } from 'src/common/types/current-user';
import { KeyOwnersService } from 'src/modules/keys/key-owners.service';
import type { UrlSigKeys } from 'src/modules/keys/ssl/ssl-keys.response';
import { KeyStoreService } from 'src/modules/keys/store/key-store.service';
import { NOT_AUTHORIZED_ON_TENANT, TenancyService } from 'src/modules/tenants/tenancy.service';

const URL_SIG_KEY_CHARS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_';

/** A delivery service's URL signing keys (docs/original-behaviour.md#keys), in the encrypted key store. */
@Injectable()
export class UrlSigKeysService {
  constructor(
    private readonly store: KeyStoreService,
    private readonly owners: KeyOwnersService,
    private readonly tenancy: TenancyService,
  ) {}

  /** The keys of the delivery service `xmlId`, or undefined when it has none. */
  async urlSigKeysByXmlId(user: CurrentUser, xmlId: string): Promise<UrlSigKeys | undefined> {
    await this.owners.checkUrlKeyTenant(user, xmlId);
    return this.store.get<UrlSigKeys>('url_sig', xmlId);
  }

  async urlSigKeysById(user: CurrentUser, id: number): Promise<UrlSigKeys | undefined> {
    const owner = await this.owners.ownerById(id);
    if (!owner) {
      throw new NotFoundException(`delivery service ${id} not found`);
    }
    if (!(await this.tenancy.isWithinReach(user.tenantId, owner.tenantId))) {
      throw new ForbiddenException(NOT_AUTHORIZED_ON_TENANT);
    }
    return this.store.get<UrlSigKeys>('url_sig', owner.xmlId);
  }

  /** 16 keys `key0`…`key15` of 32 random characters each, as the original generates them. */
  async generateUrlSigKeys(user: CurrentUser, xmlId: string): Promise<void> {
    await this.owners.checkUrlKeyTenant(user, xmlId);
    const keys: UrlSigKeys = {};
    for (let i = 0; i < 16; i++) {
      let key = '';
      for (let c = 0; c < 32; c++) {
        key += URL_SIG_KEY_CHARS[randomInt(URL_SIG_KEY_CHARS.length)];
      }
      keys[`key${i}`] = key;
    }
    await this.store.put('url_sig', xmlId, [''], keys);
  }

  async copyUrlSigKeys(user: CurrentUser, xmlId: string, fromXmlId: string): Promise<void> {
    await this.owners.checkUrlKeyTenant(user, xmlId);
    const from = await this.owners.ownerByXmlId(fromXmlId);
    if (!from) {
      // The original names the destination here.
      throw new NotFoundException(`delivery service ${xmlId} not found`);
    }
    if (!(await this.tenancy.isWithinReach(user.tenantId, from.tenantId))) {
      throw new ForbiddenException('not authorized on this copy tenant');
    }
    const keys = await this.store.get<UrlSigKeys>('url_sig', fromXmlId);
    if (!keys) {
      throw new BadRequestException(`Unable to retrieve keys from Delivery Service '${fromXmlId}'`);
    }
    await this.store.put('url_sig', xmlId, [''], keys);
  }
}
