import { Injectable, NotFoundException } from '@nestjs/common';
import { type Alert, successAlert, warningAlert } from 'src/common/http/alerts';
import { toDate } from 'src/common/time/timestamps';
import type { CurrentUser } from 'src/common/types/current-user';
import { DeliveryServicesService } from 'src/modules/delivery-services/core/delivery-services.service';
import { KeyOwnersService } from 'src/modules/keys/key-owners.service';
import { KeyStoreRepository } from 'src/modules/keys/store/key-store.repository';
import { KeyStoreService } from 'src/modules/keys/store/key-store.service';
import { expirationAndSans, verifyCertificateAndKey } from './certificate';
import { SslKeysAddDto } from './ssl-keys.dto';
import {
  type CdnSslKey,
  goTime,
  type SslKeyExpiration,
  type SslKeysCertificate,
  type SslKeysView,
  type StoredSslKeys,
} from './ssl-keys.response';

const LATEST = 'latest';
const DAY_MS = 86_400_000;
/** The furthest a JavaScript Date reaches, in milliseconds from 1970. */
const MAX_TIME_MS = 8.64e15;

const encode = (text: string): string => Buffer.from(text, 'utf8').toString('base64');
const decode = (text: string): string => Buffer.from(text, 'base64').toString('utf8');

/**
 * The SSL keys the original keeps in Traffic Vault (docs/original-behaviour.md#keys), in the
 * encrypted key store: a delivery service's certificate and key, a CDN's, and their expirations.
 * Every check is the original handler's, in its order; a secret never reaches a log or the change
 * log (the change log names the route and the success alerts only).
 */
@Injectable()
export class SslKeysService {
  constructor(
    private readonly store: KeyStoreService,
    private readonly storeRows: KeyStoreRepository,
    private readonly owners: KeyOwnersService,
    private readonly deliveryServices: DeliveryServicesService,
  ) {}

  /** A delivery service's SSL keys of one version (the latest by default); undefined when none are stored. */
  async getSslKeys(
    user: CurrentUser,
    xmlId: string,
    query: { version?: string; decode?: string },
  ): Promise<SslKeysView | undefined> {
    await this.owners.checkTenant(user, xmlId);
    const stored = await this.store.get<StoredSslKeys>('ssl', xmlId, query.version || LATEST);
    if (!stored) {
      return undefined;
    }
    const decoded: SslKeysCertificate = {
      crt: decode(stored.certificate.crt),
      key: decode(stored.certificate.key),
      csr: decode(stored.certificate.csr),
    };
    const wantsDecoded = query.decode !== undefined && query.decode !== '' && query.decode !== '0';
    const view: SslKeysView = { stored, certificate: wantsDecoded ? decoded : stored.certificate, sans: [] };
    if (decoded.crt !== '') {
      const { expiration, sans } = expirationAndSans(decoded.crt, stored.hostname);
      view.expiration = expiration;
      view.sans = sans;
    }
    return view;
  }

  async addSslKeys(user: CurrentUser, dto: SslKeysAddDto): Promise<Alert[]> {
    await this.owners.checkTenant(user, dto.deliveryservice);
    const owner = await this.owners.ownerByXmlId(dto.deliveryservice);
    if (!owner) {
      throw new NotFoundException(`no DS with name ${dto.deliveryservice}`);
    }
    const verified = verifyCertificateAndKey(
      dto.certificate.crt,
      dto.certificate.key,
      owner.typeName.startsWith('DNS'),
    );
    const stored: StoredSslKeys = {
      ...(dto.authType ? { authType: dto.authType } : {}),
      cdn: dto.cdn,
      deliveryservice: dto.deliveryservice,
      hostname: dto.hostname,
      key: dto.key,
      version: dto.version,
      certificate: {
        crt: encode(verified.crt),
        key: encode(verified.key),
        csr: encode(dto.certificate.csr),
      },
    };
    const { expiration } = expirationAndSans(verified.crt, dto.hostname);
    await this.store.put('ssl', dto.deliveryservice, [String(dto.version), LATEST], stored, {
      cdn: dto.cdn,
      provider: dto.authType ?? '',
      expiration,
    });
    await this.deliveryServices.setSslKeyVersion(dto.deliveryservice, dto.version);
    const alerts: Alert[] = [];
    if (verified.unknownAuthority) {
      alerts.push(
        warningAlert(
          `The input certificate may be invalid for '${dto.deliveryservice}' (certificate is signed by an unknown authority)`,
        ),
      );
    }
    if (verified.differentChain) {
      alerts.push(
        warningAlert(
          `The input certificate may be invalid for '${dto.deliveryservice}' (certificate verification produced a different chain)`,
        ),
      );
    }
    alerts.push(successAlert(`Added ssl keys for ${dto.deliveryservice}`));
    return alerts;
  }

  async deleteSslKeys(user: CurrentUser, xmlId: string, version: string | undefined): Promise<string> {
    if (!(await this.owners.ownerByXmlId(xmlId))) {
      throw new NotFoundException(`no DS with name ${xmlId}`);
    }
    await this.owners.checkTenant(user, xmlId);
    await this.store.delete('ssl', xmlId, version || LATEST);
    return `Successfully deleted ssl keys for ${xmlId}`;
  }

  /** Every delivery service's latest certificate in the CDN named `cdn` (no tenancy, as the original). */
  async cdnSslKeys(cdn: string): Promise<CdnSslKey[] | null> {
    const keys = await this.store.all<StoredSslKeys>('ssl', LATEST, { cdn });
    if (keys.length === 0) {
      return null;
    }
    return keys.map((k) => ({
      deliveryservice: k.deliveryservice,
      hostname: k.hostname,
      certificate: { crt: k.certificate.crt, key: k.certificate.key },
    }));
  }

  /**
   * The latest certificates' expirations (clear metadata, nothing decrypted), without those of
   * inactive or primed delivery services; with `days`, only those expiring within that many days.
   */
  async expirations(days: number): Promise<SslKeyExpiration[]> {
    const rows = await this.storeRows.sslExpirations(LATEST);
    const cutoff = Math.max(-MAX_TIME_MS, Math.min(MAX_TIME_MS, Date.now() + days * DAY_MS));
    return rows
      .filter((row) => row.active !== 'INACTIVE' && row.active !== 'PRIMED')
      .map((row) => ({ row, expiration: row.expiration === null ? undefined : toDate(row.expiration) }))
      .filter(({ expiration }) => days === 0 || (expiration !== undefined && expiration.getTime() <= cutoff))
      .map(({ row, expiration }) => ({
        deliveryservice: row.owner,
        cdn: row.cdn ?? '',
        provider: row.provider ?? '',
        expiration: goTime(expiration),
        federated: Number(row.federations) > 0,
      }));
  }
}
