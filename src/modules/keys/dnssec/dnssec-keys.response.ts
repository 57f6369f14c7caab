import { dsRecordText, type StoredDnssecKey, type StoredDnssecKeySet } from 'src/modules/keys/dnssec/dnssec';

/** A CDN key-signing key's DS record as answered (lib/go-tc DNSSECKeyDSRecord): with its text. */
export interface DnssecKeyDsRecord {
  algorithm: string;
  digestType: string;
  digest: string;
  text: string;
}

/** One key as answered (lib/go-tc DNSSECKey), the same on every version. */
export interface DnssecKey {
  inceptionDate: number;
  expirationDate: number;
  name: string;
  ttl: string;
  status: string;
  effectiveDate: number;
  public: string;
  private: string;
  dsRecord?: DnssecKeyDsRecord;
}

/** A zone's keys (lib/go-tc DNSSECKeySet). */
export interface DnssecKeySet {
  zsk: DnssecKey[] | null;
  ksk: DnssecKey[] | null;
}

/** GET cdns/name/{name}/dnsseckeys (lib/go-tc DNSSECKeys): the key sets by CDN name and xmlId. */
export type CdnDnssecKeys = Record<string, DnssecKeySet>;

/** Thrown when a stored key-signing key's DNSKEY record cannot be read back. */
export class MalformedKeyError extends Error {}

function toKey(key: StoredDnssecKey, dsTtlSeconds: number): DnssecKey {
  const { dsRecord, ...rest } = key;
  if (!dsRecord) {
    return rest;
  }
  const text = dsRecordText(key, dsTtlSeconds);
  if (text === undefined) {
    throw new MalformedKeyError(
      `creating DNSSEC keys object: making DS record text of key ${key.name} failed`,
    );
  }
  return { ...rest, dsRecord: { ...dsRecord, text } };
}

/**
 * The stored sets as the original answers them (MakeDNSSECKeysFromTrafficVaultKeys): the names in
 * byte order (Go writes a map's keys sorted), each KSK with a DS record given that record's text.
 */
export function toCdnDnssecKeys(sets: Map<string, StoredDnssecKeySet>, dsTtlSeconds: number): CdnDnssecKeys {
  const names = [...sets.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const answer: CdnDnssecKeys = {};
  for (const name of names) {
    const set = sets.get(name)!;
    answer[name] = {
      zsk: set.zsk && set.zsk.length > 0 ? set.zsk.map((key) => toKey(key, dsTtlSeconds)) : null,
      ksk: set.ksk && set.ksk.length > 0 ? set.ksk.map((key) => toKey(key, dsTtlSeconds)) : null,
    };
  }
  return answer;
}
