import { type CipherGCMTypes, createDecipheriv } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Row } from './mapping';
import { Source, SourceError } from './source';

/** The four kinds of keys Traffic Vault's PostgreSQL backend keeps, as this service's key store names them. */
export type VaultKeyKind = 'ssl' | 'dnssec' | 'url_sig' | 'uri_signing';

export const VAULT_KINDS: readonly VaultKeyKind[] = ['ssl', 'dnssec', 'url_sig', 'uri_signing'];

export const KIND_NAMES: Record<VaultKeyKind, string> = {
  ssl: 'SSL keys',
  dnssec: 'DNSSEC keys',
  url_sig: 'URL signing keys',
  uri_signing: 'URI signing keys',
};

/** One decrypted row of Traffic Vault. */
export interface VaultKey {
  kind: VaultKeyKind;
  /** The delivery service's xml_id (the CDN's name for DNSSEC keys). */
  owner: string;
  /** The SSL keys' version (a number or `latest`); empty for the other kinds. */
  version: string;
  /** How the key is named in reports. */
  label: string;
  /** The decrypted JSON document. */
  document: unknown;
  /** SSL keys' clear columns. */
  cdn?: string;
  provider?: string;
  expiration?: Date | null;
}

/** Traffic Vault's keys as read: the ones that opened, and the names of those that did not. */
export interface VaultContents {
  keys: VaultKey[];
  unreadable: string[];
  /** Rows left out: an SSL key version stored under two CDNs but the newest. */
  leftOut: string[];
}

/** AES-GCM as Traffic Vault's lib/go-util AESEncrypt writes it: nonce, ciphertext, tag. */
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

/** The tables of Traffic Vault's PostgreSQL backend (traffic_ops/app/db/trafficvault/create_tables.sql). */
const TABLES = ['sslkey', 'dnssec', 'url_sig_key', 'uri_signing_key'];

/**
 * The AES key file Traffic Ops' `traffic_vault_config.aes_key_location` names: the key in base64
 * (16, 24 or 32 bytes: AES-128, -192 or -256), surrounding white space ignored.
 */
export function readAesKeyFile(path: string): Buffer {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new SourceError(`cannot read the Traffic Vault AES key file ${path}: ${(error as Error).message}`);
  }
  const compact = text.replace(/\s+/g, '');
  const key = Buffer.from(compact, 'base64');
  if (
    compact === '' ||
    !/^[A-Za-z0-9+/]+={0,2}$/.test(compact) ||
    key.toString('base64').replace(/=+$/, '') !== compact.replace(/=+$/, '')
  ) {
    throw new SourceError(`the Traffic Vault AES key file ${path} does not hold a base64 key`);
  }
  if (![16, 24, 32].includes(key.length)) {
    throw new SourceError(
      `the Traffic Vault AES key in ${path} is ${key.length} bytes long: an AES key is 16, 24 or 32 bytes`,
    );
  }
  return key;
}

/** Opens one `data` column: undefined when it does not decrypt with `key`. */
export function openVaultData(data: Buffer, key: Buffer): Buffer | undefined {
  if (data.length < NONCE_BYTES + TAG_BYTES) {
    return undefined;
  }
  try {
    const algorithm = `aes-${key.length * 8}-gcm` as CipherGCMTypes;
    const decipher = createDecipheriv(algorithm, key, data.subarray(0, NONCE_BYTES));
    decipher.setAuthTag(data.subarray(data.length - TAG_BYTES));
    return Buffer.concat([
      decipher.update(data.subarray(NONCE_BYTES, data.length - TAG_BYTES)),
      decipher.final(),
    ]);
  } catch {
    return undefined;
  }
}

const dsLabel = (kind: VaultKeyKind, xmlId: string): string =>
  `${KIND_NAMES[kind]} of delivery service ${xmlId}`;

/**
 * Reads every key of Traffic Vault's PostgreSQL database and decrypts it with the original's AES
 * key. A row that does not decrypt, or whose content is not JSON, is named in `unreadable`.
 */
export async function readTrafficVault(url: string, aesKey: Buffer): Promise<VaultContents> {
  const source = await Source.connect(url, 'the Traffic Vault database');
  try {
    await source.requireTables(TABLES);
    const contents: VaultContents = { keys: [], unreadable: [], leftOut: [] };
    const open = (row: Row, kind: VaultKeyKind, owner: string, version: string, label: string) => {
      const plain = openVaultData(row.data as Buffer, aesKey);
      if (plain === undefined) {
        contents.unreadable.push(`${label}: does not decrypt with the given AES key`);
        return undefined;
      }
      try {
        return { kind, owner, version, label, document: JSON.parse(plain.toString('utf8')) as unknown };
      } catch {
        contents.unreadable.push(`${label}: decrypts, but is not JSON`);
        return undefined;
      }
    };

    // SSL keys: one row per delivery service, CDN and version (each number and `latest`).
    const ssl = await source.read(
      'SELECT deliveryservice, cdn, version, provider, expiration, data FROM sslkey ' +
        'ORDER BY deliveryservice, version, last_updated DESC, cdn',
    );
    const seen = new Map<string, string>();
    for (const row of ssl) {
      const owner = String(row.deliveryservice);
      const version = String(row.version);
      const label = `${dsLabel('ssl', owner)} (version ${version}, CDN ${String(row.cdn)})`;
      const kept = seen.get(`${owner}\u0000${version}`);
      if (kept !== undefined) {
        contents.leftOut.push(`${label}: the newer one of CDN ${kept} is copied`);
        continue;
      }
      seen.set(`${owner}\u0000${version}`, String(row.cdn));
      const key = open(row, 'ssl', owner, version, label);
      if (key && !isObject(key.document)) {
        contents.unreadable.push(`${label}: decrypts, but is not an SSL keys document`);
      } else if (key) {
        contents.keys.push({
          ...key,
          document: sslDocument(key.document, version),
          cdn: String(row.cdn),
          provider: typeof row.provider === 'string' ? row.provider : undefined,
          expiration: (row.expiration as Date | null) ?? null,
        });
      }
    }

    // DNSSEC keys: one row per CDN, a map of the CDN's and its delivery services' key sets.
    for (const row of await source.read('SELECT cdn, data FROM dnssec ORDER BY cdn')) {
      const owner = String(row.cdn);
      const key = open(row, 'dnssec', owner, '', `${KIND_NAMES.dnssec} of CDN ${owner}`);
      if (key) {
        if (!isObject(key.document)) {
          contents.unreadable.push(`${key.label}: decrypts, but is not a map of key sets`);
          continue;
        }
        contents.keys.push(key);
      }
    }

    for (const [kind, table] of [
      ['url_sig', 'url_sig_key'],
      ['uri_signing', 'uri_signing_key'],
    ] as const) {
      for (const row of await source.read(
        `SELECT deliveryservice, data FROM ${table} ORDER BY deliveryservice`,
      )) {
        const owner = String(row.deliveryservice);
        const key = open(row, kind, owner, '', dsLabel(kind, owner));
        if (key) {
          contents.keys.push(key);
        }
      }
    }
    return contents;
  } finally {
    await source.close();
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * The SSL keys document as this service stores it: Traffic Vault's, its `version` a number (the
 * original writes it as a number or a numeric string, util.JSONIntStr).
 */
function sslDocument(document: unknown, rowVersion: string): unknown {
  if (!isObject(document)) {
    return document;
  }
  const version = Number(document.version ?? rowVersion);
  return { ...document, version: Number.isFinite(version) ? version : 0 };
}
