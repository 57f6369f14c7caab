import { createHash, generateKeyPair, type JsonWebKey } from 'node:crypto';
import { promisify } from 'node:util';

/**
 * DNSSEC keys as the original makes them (docs/original-behaviour.md#dnssec-keys): RSA/SHA-1
 * (algorithm 5) keys, 1024 bits for a zone-signing key (flags 256) and 2048 for a key-signing key
 * (flags 257); the public key as the single-line DNSKEY record and the private key in BIND's
 * private-key-file format, each base64-encoded; a DS record (SHA-256) for the CDN's key-signing keys.
 */

/** One key as stored (lib/go-tc DNSSECKeyV11): dates in Unix seconds, `ttl` as a decimal string. */
export interface StoredDnssecKey {
  inceptionDate: number;
  expirationDate: number;
  name: string;
  ttl: string;
  status: string;
  effectiveDate: number;
  public: string;
  private: string;
  dsRecord?: StoredDsRecord;
}

/** The DS record of a CDN's key-signing key as stored (DNSSECKeyDSRecordV11). */
export interface StoredDsRecord {
  algorithm: string;
  digestType: string;
  /** Lower-case hexadecimal, as stored. */
  digest: string;
}

/** A zone's key set (DNSSECKeySetV11): `null` where the original has no keys of a kind. */
export interface StoredDnssecKeySet {
  zsk: StoredDnssecKey[] | null;
  ksk: StoredDnssecKey[] | null;
}

export const KEY_STATUS_NEW = 'new';
export const KEY_STATUS_EXPIRED = 'expired';
export const KEY_STATUS_EXISTING = 'existing';

const RSASHA1 = 5;
const ALGORITHM_NAME = 'RSASHA1';
const PROTOCOL = 3;
const ZONE_KEY = 256;
const SECURE_ENTRY_POINT = 1;
const SHA256_DIGEST = 2;

const generateRsa = promisify(generateKeyPair);

/** What a new key needs besides its kind. */
export interface NewKeyOptions {
  /** The zone's name, with its final dot. */
  name: string;
  ttlSeconds: number;
  inception: Date;
  expiration: Date;
  status: string;
  effective: Date;
  /** A CDN's key-signing key carries its DS record. */
  tld: boolean;
}

const unix = (date: Date): number => Math.floor(date.getTime() / 1000);

/** The original's GetDNSSECKeysV11: a new key of `kind`, generated now. */
export async function newDnssecKey(kind: 'ksk' | 'zsk', options: NewKeyOptions): Promise<StoredDnssecKey> {
  const ksk = kind === 'ksk';
  const flags = ksk ? ZONE_KEY | SECURE_ENTRY_POINT : ZONE_KEY;
  const { privateKey } = await generateRsa('rsa', {
    modulusLength: ksk ? 2048 : 1024,
    publicExponent: 65537,
  });
  const jwk = privateKey.export({ format: 'jwk' });
  const publicKey = rsaPublicKey(jwk);
  const record = dnskeyText(options.name, options.ttlSeconds, flags, publicKey);
  const key: StoredDnssecKey = {
    inceptionDate: unix(options.inception),
    expirationDate: unix(options.expiration),
    name: options.name,
    ttl: String(options.ttlSeconds),
    status: options.status,
    effectiveDate: unix(options.effective),
    public: Buffer.from(record, 'utf8').toString('base64'),
    private: Buffer.from(bindPrivateKey(jwk), 'utf8').toString('base64'),
  };
  if (ksk && options.tld) {
    key.dsRecord = {
      algorithm: String(RSASHA1),
      digestType: String(SHA256_DIGEST),
      digest: dsDigest(options.name, flags, PROTOCOL, RSASHA1, publicKey).toString('hex'),
    };
  }
  return key;
}

/** A JWK number as the minimal big-endian bytes Go's big.Int gives. */
function jwkBytes(value: string | undefined): Buffer {
  const bytes = Buffer.from(value ?? '', 'base64url');
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) {
    start++;
  }
  return bytes.subarray(start);
}

/** RFC 3110 §2: the exponent's length, the exponent, the modulus. */
function rsaPublicKey(jwk: JsonWebKey): Buffer {
  const exponent = jwkBytes(jwk.e);
  const modulus = jwkBytes(jwk.n);
  const length =
    exponent.length < 256
      ? Buffer.from([exponent.length])
      : Buffer.from([0, exponent.length >> 8, exponent.length & 0xff]);
  return Buffer.concat([length, exponent, modulus]);
}

/** BIND's private-key-file format (v1.3) of an RSA key, as miekg/dns writes it. */
function bindPrivateKey(jwk: JsonWebKey): string {
  const field = (label: string, value: string | undefined) =>
    `${label}: ${jwkBytes(value).toString('base64')}\n`;
  return (
    'Private-key-format: v1.3\n' +
    `Algorithm: ${RSASHA1} (${ALGORITHM_NAME})\n` +
    field('Modulus', jwk.n) +
    field('PublicExponent', jwk.e) +
    field('PrivateExponent', jwk.d) +
    field('Prime1', jwk.p) +
    field('Prime2', jwk.q) +
    field('Exponent1', jwk.dp) +
    field('Exponent2', jwk.dq) +
    field('Coefficient', jwk.qi)
  );
}

/**
 * A record's owner name as miekg/dns prints it: the characters special in a label (space, quote,
 * `@`, `;`, parentheses, backslash) escaped with a backslash, unprintable bytes as `\DDD`.
 */
function presentName(name: string): string {
  let out = '';
  for (const byte of Buffer.from(name, 'utf8')) {
    const char = String.fromCharCode(byte);
    if (` '@;()"\\`.includes(char)) {
      out += `\\${char}`;
    } else if (byte < 0x20 || byte > 0x7e) {
      out += `\\${String(byte).padStart(3, '0')}`;
    } else {
      out += char;
    }
  }
  return out;
}

/** The RFC 1035 single-line DNSKEY record: `name\tttl\tIN\tDNSKEY\tflags protocol algorithm key`. */
function dnskeyText(name: string, ttl: number, flags: number, publicKey: Buffer): string {
  return `${presentName(name)}\t${ttl}\tIN\tDNSKEY\t${flags} ${PROTOCOL} ${RSASHA1} ${publicKey.toString('base64')}`;
}

/** The DNSKEY RDATA (RFC 4034 §2.1): flags, protocol, algorithm, public key. */
function dnskeyRdata(flags: number, protocol: number, algorithm: number, publicKey: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt16BE(flags & 0xffff, 0);
  head.writeUInt8(protocol & 0xff, 2);
  head.writeUInt8(algorithm & 0xff, 3);
  return Buffer.concat([head, publicKey]);
}

/** RFC 4034 Appendix B: the key tag of a DNSKEY (any algorithm but 1). */
export function keyTag(flags: number, protocol: number, algorithm: number, publicKey: Buffer): number {
  const rdata = dnskeyRdata(flags, protocol, algorithm, publicKey);
  let sum = 0;
  for (let i = 0; i < rdata.length; i++) {
    sum += i & 1 ? rdata[i] : rdata[i] << 8;
  }
  sum += (sum >> 16) & 0xffff;
  return sum & 0xffff;
}

/** The canonical wire form of a name (RFC 4034 §6.2): lower case, length-prefixed labels, a zero. */
function canonicalName(name: string): Buffer {
  const labels = name
    .toLowerCase()
    .split('.')
    .filter((label) => label !== '');
  return Buffer.concat([
    ...labels.map((label) => {
      const bytes = Buffer.from(label, 'utf8');
      return Buffer.concat([Buffer.from([bytes.length]), bytes]);
    }),
    Buffer.from([0]),
  ]);
}

/** RFC 4034 §5.1.4: digest = hash(owner name | DNSKEY RDATA); SHA-1 (1) or SHA-256 (2). */
export function dsDigest(
  name: string,
  flags: number,
  protocol: number,
  algorithm: number,
  publicKey: Buffer,
  digestType = SHA256_DIGEST,
): Buffer {
  const hash = createHash(digestType === 1 ? 'sha1' : 'sha256');
  hash.update(canonicalName(name));
  hash.update(dnskeyRdata(flags, protocol, algorithm, publicKey));
  return hash.digest();
}

/**
 * The DS record's text of a stored key-signing key, as the original's MakeDSRecordText gives it:
 * the owner name, the DS TTL (not the key's), `IN DS`, the key tag, algorithm, digest type and the
 * upper-case digest, computed from the stored DNSKEY record. Undefined when that record is malformed.
 */
export function dsRecordText(key: StoredDnssecKey, dsTtlSeconds: number): string | undefined {
  if (!key.dsRecord) {
    return undefined;
  }
  const record = Buffer.from(key.public.replace(/\\n/g, '').replace(/\n/g, ''), 'base64').toString('utf8');
  const fields = record.split(/\s+/).filter((field) => field !== '');
  if (fields.length < 8 || !/^\d+$/.test(fields[4]) || !/^\d+$/.test(fields[5])) {
    return undefined;
  }
  const flags = Number(fields[4]);
  const protocol = Number(fields[5]);
  const algorithm = Number(key.dsRecord.algorithm);
  const digestType = Number(key.dsRecord.digestType);
  if (flags > 0xffff || protocol > 0xff || !(digestType === 1 || digestType === 2)) {
    return undefined;
  }
  const publicKey = Buffer.from(fields[7], 'base64');
  const tag = keyTag(flags, protocol, algorithm, publicKey);
  const digest = dsDigest(key.name, flags, protocol, algorithm, publicKey, digestType);
  return (
    `${presentName(key.name)}\t${dsTtlSeconds}\tIN\tDS\t${tag} ${algorithm} ${digestType} ` +
    digest.toString('hex').toUpperCase()
  );
}

/** The original's GetDSDomainName: the first example URL's host after its first label, lower case. */
export function dsZoneName(exampleUrls: string[]): string | undefined {
  if (exampleUrls.length === 0) {
    return undefined;
  }
  const name = `${exampleUrls[0]}.`;
  const firstDot = name.indexOf('.');
  if (name.length < firstDot + 2) {
    return undefined;
  }
  return name.slice(firstDot + 1).toLowerCase();
}
