import { Injectable, NotFoundException } from '@nestjs/common';
import type { CurrentUser } from 'src/common/types/current-user';
import type { DeferredBody } from 'src/common/validation/valid-body';
import { KeyOwnersService } from 'src/modules/keys/key-owners.service';
import { KeyStoreService } from 'src/modules/keys/store/key-store.service';
import type { UriSigningKeysDto } from './uri-signing-keys.dto';

/** The uri signing keys answered when a delivery service has none (the original's explicit nulls). */
export const NO_URI_SIGNING_KEYS: { renewal_kid: null; keys: null } = { renewal_kid: null, keys: null };

/** A delivery service's URI signing keys (docs/original-behaviour.md#keys), in the encrypted key store. */
@Injectable()
export class UriSigningKeysService {
  constructor(
    private readonly store: KeyStoreService,
    private readonly owners: KeyOwnersService,
  ) {}

  async uriSigningKeys(
    user: CurrentUser,
    xmlId: string,
  ): Promise<UriSigningKeysDto | typeof NO_URI_SIGNING_KEYS> {
    await this.owners.checkTenant(user, xmlId);
    return (await this.store.get<UriSigningKeysDto>('uri_signing', xmlId)) ?? NO_URI_SIGNING_KEYS;
  }

  async saveUriSigningKeys(
    user: CurrentUser,
    xmlId: string,
    body: DeferredBody<UriSigningKeysDto>,
  ): Promise<UriSigningKeysDto> {
    await this.owners.checkTenant(user, xmlId);
    if (!(await this.owners.ownerByXmlId(xmlId))) {
      throw new NotFoundException('Not Found');
    }
    const keys = await body.read();
    await this.store.put('uri_signing', xmlId, [''], keys);
    return keys;
  }

  /** Whether there were keys to delete. */
  async deleteUriSigningKeys(user: CurrentUser, xmlId: string): Promise<boolean> {
    await this.owners.checkTenant(user, xmlId);
    if (!(await this.owners.ownerByXmlId(xmlId))) {
      throw new NotFoundException('Not Found');
    }
    return this.store.delete('uri_signing', xmlId);
  }
}
