import { byVersion } from 'src/common/wire/by-version';

/** The certificate, key and CSR of a delivery service: base64 as stored, or PEM with `decode`. */
export interface SslKeysCertificate {
  crt: string;
  key: string;
  csr: string;
}

/** GET deliveryservices/xmlId/{xmlId}/sslkeys on 3.x (the original's DeliveryServiceSSLKeysV15). */
export interface DeliveryServiceSslKeysV3 {
  authType?: string;
  cdn?: string;
  deliveryservice?: string;
  hostname?: string;
  key: string;
  version: number;
  certificate: SslKeysCertificate;
  /** RFC 3339 (Go `time.Time`); `0001-01-01T00:00:00Z` when there are no keys. */
  expiration: string;
}

/** The same on 4.0 and later (DeliveryServiceSSLKeysV4): the certificate's other DNS names. */
export interface DeliveryServiceSslKeysV4 extends DeliveryServiceSslKeysV3 {
  sans?: string[];
}

/** One delivery service's certificate in GET cdns/name/{name}/sslkeys (base64, as stored). */
export interface CdnSslKey {
  deliveryservice: string;
  hostname: string;
  certificate: { crt: string; key: string };
}

/** One entry of GET sslkey_expirations. */
export interface SslKeyExpiration {
  deliveryservice: string;
  cdn: string;
  provider: string;
  expiration: string;
  federated: boolean;
}

/** URL signing keys: `key0` … `key15`. */
export type UrlSigKeys = Record<string, string>;

/** The SSL keys document the key store holds for a delivery service (certificate parts base64). */
export interface StoredSslKeys {
  authType?: string;
  cdn: string;
  deliveryservice: string;
  hostname: string;
  key: string;
  version: number;
  certificate: SslKeysCertificate;
}

/** SSL keys as read: the stored document, the certificate to answer and what the certificate says. */
export interface SslKeysView {
  stored?: StoredSslKeys;
  certificate: SslKeysCertificate;
  expiration?: Date;
  sans: string[];
}

/** Go's RFC 3339 of a time.Time: whole seconds without a fraction, the zero time as Go writes it. */
export function goTime(date: Date | undefined): string {
  return date ? date.toISOString().replace(/\.000Z$/, 'Z') : '0001-01-01T00:00:00Z';
}

function toV3(view: SslKeysView): DeliveryServiceSslKeysV3 {
  const stored = view.stored;
  return {
    ...(stored?.authType ? { authType: stored.authType } : {}),
    ...(stored?.cdn ? { cdn: stored.cdn } : {}),
    ...(stored?.deliveryservice ? { deliveryservice: stored.deliveryservice } : {}),
    ...(stored?.hostname ? { hostname: stored.hostname } : {}),
    key: stored?.key ?? '',
    version: stored?.version ?? 0,
    certificate: view.certificate,
    expiration: goTime(view.expiration),
  };
}

function toV4(view: SslKeysView): DeliveryServiceSslKeysV4 {
  return { ...toV3(view), ...(view.sans.length > 0 ? { sans: view.sans } : {}) };
}

/** The original's shape per version: 4.0 added `sans`. */
export const toSslKeysResponse = byVersion<SslKeysView, DeliveryServiceSslKeysV3 | DeliveryServiceSslKeysV4>({
  '3.0': toV3,
  '4.0': toV4,
});
