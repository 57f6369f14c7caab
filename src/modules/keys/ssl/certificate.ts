import { BadRequestException } from '@nestjs/common';
import {
  createPrivateKey,
  createPublicKey,
  type JsonWebKey,
  type KeyObject,
  X509Certificate,
} from 'node:crypto';
import { rootCertificates } from 'node:tls';

const END_CERTIFICATE = '-----END CERTIFICATE-----';
const PEM_BLOCK = /-----BEGIN ([^-\r\n]+)-----\r?\n([\s\S]*?)-----END \1-----/;

/** One PEM block: its type, its headers (`Proc-Type: 4,ENCRYPTED`) and its bytes. */
interface PemBlock {
  type: string;
  headers: string[];
  der: Buffer;
  /** The text after the block. */
  rest: string;
}

function decodePem(text: string): PemBlock | undefined {
  const match = PEM_BLOCK.exec(text);
  if (!match) {
    return undefined;
  }
  const lines = match[2].split(/\r?\n/);
  const headers = lines.filter((line) => line.includes(':'));
  const body = lines.filter((line) => !line.includes(':')).join('');
  if (!/^[A-Za-z0-9+/=\s]*$/.test(body)) {
    return undefined;
  }
  return {
    type: match[1],
    headers,
    der: Buffer.from(body, 'base64'),
    rest: text.slice(match.index + match[0].length),
  };
}

/** A DER element: its tag and where its content lies. */
interface Tlv {
  tag: number;
  start: number;
  end: number;
}

function readTlv(der: Buffer, pos: number): Tlv {
  const tag = der[pos];
  let length = der[pos + 1];
  let start = pos + 2;
  if (length & 0x80) {
    const count = length & 0x7f;
    length = 0;
    for (let i = 0; i < count; i++) {
      length = length * 256 + der[start + i];
    }
    start += count;
  }
  return { tag, start, end: start + length };
}

function childrenOf(der: Buffer, parent: Tlv): Tlv[] {
  const children: Tlv[] = [];
  for (let pos = parent.start; pos < parent.end;) {
    const child = readTlv(der, pos);
    children.push(child);
    pos = child.end;
  }
  return children;
}

const OID_KEY_USAGE = Buffer.from([0x55, 0x1d, 0x0f]);
const OID_EXT_KEY_USAGE = Buffer.from([0x55, 0x1d, 0x25]);
const OID_SERVER_AUTH = Buffer.from([0x2b, 0x06, 0x01, 0x05, 0x05, 0x07, 0x03, 0x01]);

/** What the checks need from a certificate that Node's X509Certificate does not say. */
interface CertificateFacts {
  version: number;
  /** The first byte of the keyUsage bit string (0 without the extension). */
  keyUsage: number;
  serverAuth: boolean;
}

function certificateFacts(raw: Buffer): CertificateFacts {
  const certificate = readTlv(raw, 0);
  const tbs = childrenOf(raw, certificate)[0];
  const fields = childrenOf(raw, tbs);
  const version = fields[0].tag === 0xa0 ? raw[childrenOf(raw, fields[0])[0].start] + 1 : 1;
  const facts: CertificateFacts = { version, keyUsage: 0, serverAuth: false };
  const extensions = fields.find((field) => field.tag === 0xa3);
  if (!extensions) {
    return facts;
  }
  for (const extension of childrenOf(raw, childrenOf(raw, extensions)[0])) {
    const parts = childrenOf(raw, extension);
    const oid = raw.subarray(parts[0].start, parts[0].end);
    const value = readTlv(raw, parts[parts.length - 1].start);
    if (oid.equals(OID_KEY_USAGE) && value.end - value.start >= 2) {
      facts.keyUsage = raw[value.start + 1];
    } else if (oid.equals(OID_EXT_KEY_USAGE)) {
      facts.serverAuth = childrenOf(raw, value).some((usage) =>
        raw.subarray(usage.start, usage.end).equals(OID_SERVER_AUTH),
      );
    }
  }
  return facts;
}

const DIGITAL_SIGNATURE = 0x80;
const KEY_ENCIPHERMENT = 0x20;

/** Go's time.RFC3339 of a certificate's bounds and of now. */
const goTime = (date: Date): string => date.toISOString().replace(/\.\d{3}Z$/, 'Z');

function refuse(text: string): never {
  throw new BadRequestException(`verifying certificate: ${text}`);
}

function parseCertificate(der: Buffer): X509Certificate | undefined {
  try {
    return new X509Certificate(der);
  } catch {
    return undefined;
  }
}

function jwkOf(key: KeyObject): JsonWebKey {
  return key.export({ format: 'jwk' });
}

function countEnds(text: string): number {
  return text.split('\n-----END').length - 1;
}

function privateKeyFrom(der: Buffer, types: ('pkcs8' | 'pkcs1' | 'sec1')[]): KeyObject | undefined {
  for (const type of types) {
    try {
      return createPrivateKey({ key: der, format: 'der', type });
    } catch {
      // the next encoding
    }
  }
  return undefined;
}

function checkNotEncrypted(block: PemBlock | undefined): asserts block is PemBlock {
  if (!block) {
    refuse('private key validation error: could not decode pem-encoded private key');
  }
  if (block.type.includes('ENCRYPTED')) {
    refuse(`private key validation error: encrypted private key not supported - block type: ${block.type}`);
  }
  const encrypted = block.headers.find((header) => header.includes('ENCRYPTED'));
  if (encrypted) {
    const value = encrypted.slice(encrypted.indexOf(':') + 1).trim();
    refuse(`private key validation error: encrypted private key not supported - header: ${value}`);
  }
}

function rsaPrivateKey(pem: string): KeyObject {
  const blocks = countEnds(pem);
  if (blocks < 1) {
    refuse('private key validation error: no RSA private key PEM blocks found');
  }
  if (blocks > 1) {
    refuse('private key validation error: multiple private key PEM blocks found');
  }
  const block = decodePem(pem);
  checkNotEncrypted(block);
  const key = privateKeyFrom(block.der, ['pkcs8', 'pkcs1']);
  if (!key || key.asymmetricKeyType !== 'rsa') {
    refuse(
      `private key validation error: incorrect private key type: ${key?.asymmetricKeyType ?? 'unreadable'}`,
    );
  }
  return key;
}

function ecPrivateKey(pem: string): KeyObject {
  const blocks = countEnds(pem);
  if (blocks < 1) {
    refuse('private key validation error: no EC private key PEM blocks found');
  }
  if (blocks > 2) {
    refuse('private key validation error: too many EC related PEM blocks found');
  }
  for (let rest = pem; countEnds(rest) > 0;) {
    const block = decodePem(rest);
    if (!block) {
      refuse('private key validation error: could not decode pem-encoded block');
    }
    checkNotEncrypted(block);
    rest = block.rest;
    if (!block.type.includes('KEY')) {
      continue;
    }
    const key = privateKeyFrom(block.der, ['sec1', 'pkcs8']);
    if (!key || key.asymmetricKeyType !== 'ec') {
      refuse(
        `private key validation error: incorrect private key type: ${key?.asymmetricKeyType ?? 'unreadable'}`,
      );
    }
    return key;
  }
  refuse('private key validation error: no ECDSA private keys found');
}

/** The outcome of an accepted certificate: what to store and the original's warnings. */
export interface VerifiedCertificate {
  crt: string;
  key: string;
  unknownAuthority: boolean;
  differentChain: boolean;
}

/**
 * The original's checks of an uploaded certificate chain and private key (verifyCertKeyPair): the
 * server certificate parses, is a server certificate (x509v3: serverAuth), has the key usage its
 * algorithm needs, its public key matches the private key (RSA modulus; ECDSA curve and point, only
 * for DNS delivery services), the chain is in order and the certificate is within its validity.
 * A chain that ends at no trusted root is accepted with a warning (self-signed certificates).
 */
export function verifyCertificateAndKey(crt: string, key: string, allowEc: boolean): VerifiedCertificate {
  const pieces = crt.split(END_CERTIFICATE);
  if (pieces.length <= 1) {
    refuse('no certificate chain to verify');
  }
  const chainTexts = pieces.slice(0, -1).map((piece) => piece + END_CERTIFICATE);
  const leafBlock = decodePem(chainTexts[0]);
  if (!leafBlock) {
    refuse('could not decode pem-encoded server certificate');
  }
  const leaf = parseCertificate(leafBlock.der);
  if (!leaf) {
    refuse('could not parse the server certificate: x509: malformed certificate');
  }
  const facts = certificateFacts(leaf.raw);
  if (facts.version > 1 && !facts.serverAuth) {
    refuse(
      "certificate (x509v3) validation error: server certificate missing 'serverAuth' extended key usage",
    );
  }
  const publicKey = leaf.publicKey;
  let cleanKey: string;
  switch (publicKey.asymmetricKeyType) {
    case 'rsa': {
      if (facts.version > 1 && !(facts.keyUsage & KEY_ENCIPHERMENT)) {
        refuse(
          'cert/key (rsa) validation: no keyEncipherment keyUsage extension present in x509v3 server certificate',
        );
      }
      cleanKey = key.trim();
      const privateKey = rsaPrivateKey(cleanKey);
      if (jwkOf(createPublicKey(privateKey)).n !== jwkOf(publicKey).n) {
        refuse('cert/key (rsa) mismatch error: RSA public N modulus value mismatch');
      }
      break;
    }
    case 'ec': {
      if (!allowEc) {
        refuse(
          'cert/key validation error: ECDSA public key algorithm unsupported for non-DNS delivery service type',
        );
      }
      if (facts.version > 1 && !(facts.keyUsage & DIGITAL_SIGNATURE)) {
        refuse(
          'cert/key (ecdsa) validation error: no digitalSignature keyUsage extension present in x509v3 server certificate',
        );
      }
      cleanKey = key.trim();
      const mine = jwkOf(createPublicKey(ecPrivateKey(cleanKey)));
      const theirs = jwkOf(publicKey);
      if (mine.crv !== theirs.crv) {
        refuse(
          'cert/key (ecdsa) mismatch error: ECDSA curve name in cert does not match curve name in private key',
        );
      }
      if (mine.x !== theirs.x) {
        refuse('cert/key (ecdsa) mismatch error: ECDSA public X value mismatch');
      }
      if (mine.y !== theirs.y) {
        refuse('cert/key (ecdsa) mismatch error: ECDSA public Y value mismatch');
      }
      break;
    }
    case 'dsa':
      refuse('cert/key validation error: DSA public key algorithm unsupported');
    // falls through: refuse never returns
    default:
      refuse('cert/key validation error: Unknown public key algorithm');
  }
  const chain = chainTexts.map((text) => {
    const block = decodePem(text);
    const certificate = block && parseCertificate(block.der);
    if (!certificate) {
      refuse('unable to parse intermediate certificate: x509: malformed certificate');
    }
    return certificate;
  });
  for (let i = 0; i < chain.length - 1; i++) {
    if (chain[i].issuer !== chain[i + 1].subject) {
      throw new BadRequestException(
        'verifying certificate chain: intermediate chain contains certificates that do not match',
      );
    }
  }
  const now = new Date();
  const notBefore = new Date(leaf.validFrom);
  const notAfter = new Date(leaf.validTo);
  if (now > notAfter || now < notBefore) {
    const bound = now > notAfter ? `after ${goTime(notAfter)}` : `before ${goTime(notBefore)}`;
    refuse(
      `could not verify the certificate chain: x509: certificate has expired or is not yet valid: current time ${goTime(now)} is ${bound}`,
    );
  }
  const root = trustedRootOf(chain);
  if (!root) {
    return { crt, key: cleanKey, unknownAuthority: true, differentChain: false };
  }
  const verified = [...chain.filter((c) => c.fingerprint256 !== root.fingerprint256), root]
    .map((c) => c.toString().trim())
    .join('\n');
  return { crt: crt.trim(), key: cleanKey, unknownAuthority: false, differentChain: verified !== crt.trim() };
}

let roots: X509Certificate[] | undefined;

/** The system root that signed the last certificate of a chain whose links sign each other, if any. */
function trustedRootOf(chain: X509Certificate[]): X509Certificate | undefined {
  for (let i = 0; i < chain.length - 1; i++) {
    if (!chain[i].verify(chain[i + 1].publicKey)) {
      return undefined;
    }
  }
  roots ??= rootCertificates.map((pem) => new X509Certificate(pem));
  const last = chain[chain.length - 1];
  return roots.find((root) => last.checkIssued(root) && last.verify(root.publicKey));
}

/** A stored certificate's expiry and its DNS names other than `hostname`, as the original reads them. */
export function expirationAndSans(crt: string, hostname: string): { expiration: Date; sans: string[] } {
  const block = decodePem(crt);
  const certificate = block && parseCertificate(block.der);
  if (!certificate) {
    throw new Error('Error parsing cert to get expiration');
  }
  const sans = (certificate.subjectAltName ?? '')
    .split(', ')
    .filter((name) => name.startsWith('DNS:'))
    .map((name) => name.slice(4))
    .filter((name) => name !== hostname);
  return { expiration: new Date(certificate.validTo), sans };
}
