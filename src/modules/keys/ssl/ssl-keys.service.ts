import {
  BadRequestException,
  ForbiddenException,
  Injectable,
  NotFoundException,
  ServiceUnavailableException,
} from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomInt } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { type Alert, successAlert, warningAlert } from 'src/common/http/alerts';
import { toDate } from 'src/common/time/timestamps';
import type { CurrentUser } from 'src/common/types/current-user';
import type { DeferredBody } from 'src/common/validation/valid-body';
import { DeliveryServicesService } from 'src/modules/delivery-services/core/delivery-services.service';
import { NOT_AUTHORIZED_ON_TENANT, TenancyService } from 'src/modules/tenants/tenancy.service';
import { expirationAndSans, verifyCertificateAndKey } from './certificate';
import { SslKeysAddDto } from './ssl-keys.dto';
import type { UriSigningKeysDto } from 'src/modules/keys/uri-sig/uri-signing-keys.dto';
import {
  type CdnSslKey,
  goTime,
  type SslKeyExpiration,
  type SslKeysCertificate,
  type SslKeysView,
  type StoredSslKeys,
  type UrlSigKeys,
} from './ssl-keys.response';
import { KeyStoreService } from 'src/modules/keys/store/key-store.service';

/** The delivery service a key route is about. */
interface KeyOwner {
  id: number;
  xmlId: string;
  tenantId: number;
  typeName: string;
}

const LATEST = 'latest';
const URL_SIG_KEY_CHARS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_';
const DAY_MS = 86_400_000;
/** The furthest a JavaScript Date reaches, in milliseconds from 1970. */
const MAX_TIME_MS = 8.64e15;

/** The uri signing keys answered when a delivery service has none (the original's explicit nulls). */
export const NO_URI_SIGNING_KEYS: { renewal_kid: null; keys: null } = { renewal_kid: null, keys: null };

const encode = (text: string): string => Buffer.from(text, 'utf8').toString('base64');
const decode = (text: string): string => Buffer.from(text, 'base64').toString('utf8');

/**
 * The keys the original keeps in Traffic Vault (docs/original-behaviour.md#keys), in the encrypted
 * key store: SSL certificates and keys, URL signing keys and URI signing keys of delivery services.
 * Every check is the original handler's, in its order; a secret never reaches a log or the change
 * log (the change log names the route and the success alerts only).
 */
@Injectable()
export class KeysService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly store: KeyStoreService,
    private readonly tenancy: TenancyService,
    private readonly deliveryServices: DeliveryServicesService,
  ) {}

  /**
   * Without KEY_STORE_KEY the SSL, URL signing and expiration routes answer as the original without
   * a Traffic Vault: a bare 500, the reason in the request's log line (docs/decisions.md#d65).
   */
  requireStore(what: string): void {
    if (!this.store.configured) {
      throw new Error(`${what}: Traffic Vault is not configured (KEY_STORE_KEY is not set)`);
    }
  }

  /** The URI signing routes answer 503 with the original's text (its DELETE with its typo). */
  requireStoreForUriSigning(text = 'the Traffic Vault service is unavailable'): void {
    if (!this.store.configured) {
      throw new ServiceUnavailableException(text);
    }
  }

  // SSL keys

  /** A delivery service's SSL keys of one version (the latest by default); undefined when none are stored. */
  async getSslKeys(
    user: CurrentUser,
    xmlId: string,
    query: { version?: string; decode?: string },
  ): Promise<SslKeysView | undefined> {
    await this.checkTenant(user, xmlId);
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
    await this.checkTenant(user, dto.deliveryservice);
    const owner = await this.ownerByXmlId(dto.deliveryservice);
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
    if (!(await this.ownerByXmlId(xmlId))) {
      throw new NotFoundException(`no DS with name ${xmlId}`);
    }
    await this.checkTenant(user, xmlId);
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
    const rows: {
      owner: string;
      cdn: string | null;
      provider: string | null;
      expiration: Date | string | null;
      active: string | null;
      federations: number | string;
    }[] = await this.dataSource.query(
      'SELECT k.owner AS owner, k.cdn AS cdn, k.provider AS provider, k.expiration AS expiration, ' +
        'ds.active AS active, (SELECT COUNT(*) FROM federation_deliveryservice fd ' +
        'WHERE fd.deliveryservice = ds.id) AS federations ' +
        'FROM key_store k LEFT JOIN deliveryservice ds ON ds.xml_id = k.owner ' +
        "WHERE k.kind = 'ssl' AND k.version = ? ORDER BY k.owner",
      [LATEST],
    );
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

  // URL signing keys

  /** The keys of the delivery service `xmlId`, or undefined when it has none. */
  async urlSigKeysByXmlId(user: CurrentUser, xmlId: string): Promise<UrlSigKeys | undefined> {
    await this.checkUrlKeyTenant(user, xmlId);
    return this.store.get<UrlSigKeys>('url_sig', xmlId);
  }

  async urlSigKeysById(user: CurrentUser, id: number): Promise<UrlSigKeys | undefined> {
    const owner = await this.owner('ds.id = ?', id);
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
    await this.checkUrlKeyTenant(user, xmlId);
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
    await this.checkUrlKeyTenant(user, xmlId);
    const from = await this.ownerByXmlId(fromXmlId);
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

  // URI signing keys

  async uriSigningKeys(
    user: CurrentUser,
    xmlId: string,
  ): Promise<UriSigningKeysDto | typeof NO_URI_SIGNING_KEYS> {
    await this.checkTenant(user, xmlId);
    return (await this.store.get<UriSigningKeysDto>('uri_signing', xmlId)) ?? NO_URI_SIGNING_KEYS;
  }

  async saveUriSigningKeys(
    user: CurrentUser,
    xmlId: string,
    body: DeferredBody<UriSigningKeysDto>,
  ): Promise<UriSigningKeysDto> {
    await this.checkTenant(user, xmlId);
    if (!(await this.ownerByXmlId(xmlId))) {
      throw new NotFoundException('Not Found');
    }
    const keys = await body.read();
    await this.store.put('uri_signing', xmlId, [''], keys);
    return keys;
  }

  /** Whether there were keys to delete. */
  async deleteUriSigningKeys(user: CurrentUser, xmlId: string): Promise<boolean> {
    await this.checkTenant(user, xmlId);
    if (!(await this.ownerByXmlId(xmlId))) {
      throw new NotFoundException('Not Found');
    }
    return this.store.delete('uri_signing', xmlId);
  }

  // Lookups and the original's two tenancy checks

  /** The original's tenant.Check: an unknown xmlId is a 400, one out of reach a bare 403. */
  private async checkTenant(user: CurrentUser, xmlId: string): Promise<void> {
    const owner = await this.ownerByXmlId(xmlId);
    if (!owner) {
      throw new BadRequestException(`no such deliveryservice: '${xmlId}'`);
    }
    if (!(await this.tenancy.isWithinReach(user.tenantId, owner.tenantId))) {
      throw new ForbiddenException('Forbidden');
    }
  }

  /** The URL signing key handlers' check: an unknown xmlId is a 404, one out of reach a 403. */
  private async checkUrlKeyTenant(user: CurrentUser, xmlId: string): Promise<void> {
    const owner = await this.ownerByXmlId(xmlId);
    if (!owner) {
      throw new NotFoundException(`delivery service ${xmlId} not found`);
    }
    if (!(await this.tenancy.isWithinReach(user.tenantId, owner.tenantId))) {
      throw new ForbiddenException(NOT_AUTHORIZED_ON_TENANT);
    }
  }

  private ownerByXmlId(xmlId: string): Promise<KeyOwner | undefined> {
    return this.owner('ds.xml_id = ?', xmlId);
  }

  private async owner(condition: string, value: string | number): Promise<KeyOwner | undefined> {
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
