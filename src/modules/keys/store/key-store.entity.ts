import { Column, Entity, Index, PrimaryGeneratedColumn, Unique, UpdateDateColumn } from 'typeorm';
import { datetimeColumn, LAST_UPDATED } from 'src/common/database/columns';

/**
 * What a row of the key store holds: SSL keys (one row per version and `latest`), URL or URI signing
 * keys, or one DNSSEC key set of a CDN (`version` the CDN's id; `owner` the delivery service's
 * xml_id, empty for the CDN's own set; docs/decisions.md#d110).
 */
export type KeyKind = 'ssl' | 'url_sig' | 'uri_signing' | 'dnssec';

/**
 * One encrypted entry of the key store (docs/decisions.md#d65): `owner` is the delivery service's
 * xml_id, as the original's Traffic Vault keys them. Only `ciphertext` holds secrets.
 */
@Entity({ name: 'key_store' })
@Unique('uq_key_store__kind__owner__version', ['kind', 'owner', 'version'])
@Index('ix_key_store__last_updated', ['lastUpdated'])
export class KeyStoreEntry {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'varchar', length: 16 })
  kind!: KeyKind;

  @Column({ type: 'varchar', length: 48 })
  owner!: string;

  @Column({ type: 'varchar', length: 32 })
  version!: string;

  @Column({ type: 'text', nullable: true })
  cdn!: string | null;

  @Column({ type: 'text', nullable: true })
  provider!: string | null;

  @Column(datetimeColumn({ name: 'expiration', nullable: true }))
  expiration!: Date | null;

  /** AES-256-GCM ciphertext of the JSON document, base64. */
  @Column({ type: 'text' })
  ciphertext!: string;

  /** The 12-byte nonce, base64. */
  @Column({ type: 'varchar', length: 24 })
  iv!: string;

  /** The 16-byte authentication tag, base64. */
  @Column({ type: 'varchar', length: 24 })
  tag!: string;

  @UpdateDateColumn(LAST_UPDATED)
  lastUpdated!: Date;
}
