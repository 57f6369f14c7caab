import { BadRequestException, Inject, Injectable, ServiceUnavailableException } from '@nestjs/common';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { keyStoreConfig, type KeyStoreConfig } from 'src/config/key-store.config';
import type { KeyStoreEntry, KeyKind } from './key-store.entity';
import { KeyStoreRepository } from './key-store.repository';
import { UnitOfWork } from 'src/common/database/unit-of-work';

/** The clear metadata stored beside an SSL keys document. */
export interface KeyMetadata {
  cdn?: string | null;
  provider?: string | null;
  expiration?: Date | null;
}

const ALGORITHM = 'aes-256-gcm';
/** The most a `text` column holds on MySQL (bytes; the base64 ciphertext is ASCII). */
const MAX_CIPHERTEXT = 65_535;

/**
 * The encrypted key store (docs/decisions.md#d65): JSON documents sealed with AES-256-GCM under
 * KEY_STORE_KEY, a fresh 12-byte nonce each, the row's kind, owner and version as additional data
 * (a ciphertext moved to another row does not open). Nothing here logs or answers a document.
 */
@Injectable()
export class KeyStoreService {
  constructor(
    private readonly repository: KeyStoreRepository,
    @Inject(keyStoreConfig.KEY) private readonly config: KeyStoreConfig,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  /** Whether KEY_STORE_KEY is set: without it, the original's answer without a Traffic Vault. */
  get configured(): boolean {
    return this.config.key !== undefined;
  }

  /**
   * Without KEY_STORE_KEY the SSL, URL signing and expiration routes answer as the original without
   * a Traffic Vault: a bare 500, the reason in the request's log line (docs/decisions.md#d65).
   */
  requireStore(what: string): void {
    if (!this.configured) {
      throw new Error(`${what}: Traffic Vault is not configured (KEY_STORE_KEY is not set)`);
    }
  }

  /** The URI signing routes answer 503 with the original's text (its DELETE with its typo). */
  requireStoreForUriSigning(text = 'the Traffic Vault service is unavailable'): void {
    if (!this.configured) {
      throw new ServiceUnavailableException(text);
    }
  }

  /** The document stored under (kind, owner, version), or undefined. */
  async get<T>(kind: KeyKind, owner: string, version = ''): Promise<T | undefined> {
    const entry = await this.repository.entry(kind, owner, version);
    return entry ? this.open<T>(entry) : undefined;
  }

  /** Every entry of `kind` and `version` whose clear metadata matches `where`, opened. */
  async all<T>(kind: KeyKind, version: string, where: { cdn?: string } = {}): Promise<T[]> {
    const entries = await this.repository.entries(kind, version, where);
    return entries.map((entry) => this.open<T>(entry));
  }

  /**
   * Replaces the entries (kind, owner, each of `versions`) with `document`, all or nothing: the
   * original's delete-then-insert, in one transaction (a savepoint inside the request's).
   */
  async put(
    kind: KeyKind,
    owner: string,
    versions: string[],
    document: unknown,
    metadata: KeyMetadata = {},
  ): Promise<void> {
    const sealed = versions.map((version) => ({ version, ...this.seal(kind, owner, version, document) }));
    if (sealed.some((entry) => entry.ciphertext.length > MAX_CIPHERTEXT)) {
      throw new BadRequestException('the keys are too large to store');
    }
    await this.unitOfWork.run(async (manager) => {
      await this.repository.removeVersions(manager, kind, owner, versions);
      for (const entry of sealed) {
        await this.repository.add(manager, {
          kind,
          owner,
          cdn: metadata.cdn ?? null,
          provider: metadata.provider ?? null,
          expiration: metadata.expiration ?? null,
          ...entry,
        });
      }
    });
  }

  /** Every entry of `kind` and `version` with its owner, opened, by owner (a group of documents). */
  async group<T>(kind: KeyKind, version: string): Promise<{ owner: string; document: T }[]> {
    const entries = await this.repository.entries(kind, version);
    return entries.map((entry) => ({ owner: entry.owner, document: this.open<T>(entry) }));
  }

  /**
   * Replaces the entries (kind, each owner of `documents`, version) with the documents, all or
   * nothing; with `replaceAll`, every other entry of (kind, version) is deleted as well (the
   * original's whole-document put).
   */
  async putGroup(
    kind: KeyKind,
    version: string,
    documents: { owner: string; document: unknown }[],
    metadata: KeyMetadata & { replaceAll?: boolean } = {},
  ): Promise<void> {
    const sealed = documents.map(({ owner, document }) => ({
      owner,
      ...this.seal(kind, owner, version, document),
    }));
    if (sealed.some((entry) => entry.ciphertext.length > MAX_CIPHERTEXT)) {
      throw new BadRequestException('the keys are too large to store');
    }
    await this.unitOfWork.run(async (manager) => {
      if (metadata.replaceAll) {
        await this.repository.removeGroup(kind, version, manager);
      } else if (sealed.length > 0) {
        await this.repository.removeOwners(
          manager,
          kind,
          version,
          sealed.map((entry) => entry.owner),
        );
      }
      for (const entry of sealed) {
        await this.repository.add(manager, {
          kind,
          version,
          cdn: metadata.cdn ?? null,
          provider: metadata.provider ?? null,
          expiration: metadata.expiration ?? null,
          ...entry,
        });
      }
    });
  }

  /** Deletes every entry of `kind` and `version`; how many there were. */
  deleteGroup(kind: KeyKind, version: string): Promise<number> {
    return this.repository.removeGroup(kind, version);
  }

  /** Deletes the entry (kind, owner, version); whether there was one. */
  delete(kind: KeyKind, owner: string, version = ''): Promise<boolean> {
    return this.repository.remove(kind, owner, version);
  }

  private key(): Buffer {
    if (!this.config.key) {
      throw new Error('the key store is not configured (KEY_STORE_KEY)');
    }
    return this.config.key;
  }

  private seal(
    kind: KeyKind,
    owner: string,
    version: string,
    document: unknown,
  ): Pick<KeyStoreEntry, 'ciphertext' | 'iv' | 'tag'> {
    const iv = randomBytes(12);
    const cipher = createCipheriv(ALGORITHM, this.key(), iv);
    cipher.setAAD(additionalData(kind, owner, version));
    const ciphertext = Buffer.concat([cipher.update(JSON.stringify(document), 'utf8'), cipher.final()]);
    return {
      ciphertext: ciphertext.toString('base64'),
      iv: iv.toString('base64'),
      tag: cipher.getAuthTag().toString('base64'),
    };
  }

  private open<T>(entry: KeyStoreEntry): T {
    const decipher = createDecipheriv(ALGORITHM, this.key(), Buffer.from(entry.iv, 'base64'));
    decipher.setAAD(additionalData(entry.kind, entry.owner, entry.version));
    decipher.setAuthTag(Buffer.from(entry.tag, 'base64'));
    const plain = Buffer.concat([decipher.update(Buffer.from(entry.ciphertext, 'base64')), decipher.final()]);
    return JSON.parse(plain.toString('utf8')) as T;
  }
}

function additionalData(kind: string, owner: string, version: string): Buffer {
  return Buffer.from(`${kind}\u0000${owner}\u0000${version}`, 'utf8');
}
