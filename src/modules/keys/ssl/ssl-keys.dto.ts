import { INT32 } from 'src/common/validation/integers';
import type { JsonSchema } from 'src/common/validation/json-schema';
import { BadRequestException } from '@nestjs/common';

/** The JSON type names Go's decoder uses in its messages. */
function jsonTypeOf(value: unknown): string {
  if (Array.isArray(value)) {
    return 'array';
  }
  return typeof value === 'object' ? 'object' : typeof value === 'boolean' ? 'bool' : typeof value;
}

const STRUCT = 'DeliveryServiceAddSSLKeysReq';

function refuse(text: string): never {
  throw new BadRequestException(`parsing request: ${text}`);
}

/** A string field as Go decodes it into `*string`: null or absent is nil, anything else but a string fails. */
function stringField(raw: Record<string, unknown>, field: string, path = field): string | undefined {
  const value = raw[field];
  if (value === undefined || value === null) {
    return undefined;
  }
  if (typeof value !== 'string') {
    refuse(
      `decoding: json: cannot unmarshal ${jsonTypeOf(value)} into Go struct field ${STRUCT}.${path} of type string`,
    );
  }
  return value;
}

/** The original's util.JSONIntStr: a number or a string of digits. */
function versionField(value: unknown): number | undefined {
  if (value === undefined || value === null) {
    return undefined;
  }
  const text = typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
  // The version is also the delivery service's ssl_key_version, a 32-bit column (docs/decisions.md#d46).
  const version = /^[+-]?\d{1,10}$/.test(text) ? Number(text) : NaN;
  if (!Number.isInteger(version) || version < INT32.min || version > INT32.max) {
    refuse('decoding: not an integer');
  }
  return version;
}

/**
 * The body of POST deliveryservices/sslkeys/add (the original's DeliveryServiceAddSSLKeysReq):
 * decoded as Go decodes it, then validated with its texts (`parsing request: validating: missing
 * fields: cdn required; …`). `key` and `deliveryservice` both name the delivery service; one given
 * alone stands for both.
 */
export class SslKeysAddDto {
  authType?: string;
  cdn!: string;
  deliveryservice!: string;
  hostname!: string;
  key!: string;
  version!: number;
  certificate!: { crt: string; key: string; csr: string };

  /** The shape the OpenAPI documents show (parse checks it). */
  static readonly schema: JsonSchema = {
    type: 'object',
    required: ['cdn', 'version', 'hostname', 'certificate'],
    properties: {
      authType: { type: 'string', description: "how the certificate was signed, e.g. 'Self Signed'" },
      cdn: { type: 'string', description: "the name of the delivery service's CDN" },
      deliveryservice: { type: 'string', description: 'the xmlId of the delivery service (or `key`)' },
      hostname: { type: 'string' },
      key: { type: 'string', description: 'the xmlId of the delivery service (or `deliveryservice`)' },
      version: { type: 'integer', description: 'an integer, or a string of one' },
      certificate: {
        type: 'object',
        required: ['crt', 'key'],
        properties: {
          crt: { type: 'string', description: 'the PEM certificate chain, server certificate first' },
          key: { type: 'string', description: 'the PEM private key' },
          csr: { type: 'string', description: "the PEM signing request (not for 'Lets Encrypt')" },
        },
      },
    },
  };

  // Hand parser: Go's decoder texts, then the original's own list of missing fields; class-validator cannot say them.
  static parse(raw: unknown): SslKeysAddDto {
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
      refuse(`decoding: json: cannot unmarshal ${jsonTypeOf(raw)} into Go value of type tc.${STRUCT}`);
    }
    const body = raw as Record<string, unknown>;
    const authType = stringField(body, 'authType');
    const cdn = stringField(body, 'cdn');
    let deliveryservice = stringField(body, 'deliveryservice');
    const hostname = stringField(body, 'hostname');
    let key = stringField(body, 'key');
    const version = versionField(body.version);
    let certificate: { crt: string; key: string; csr: string } | undefined;
    const rawCertificate = body.certificate;
    if (rawCertificate !== undefined && rawCertificate !== null) {
      if (typeof rawCertificate !== 'object' || Array.isArray(rawCertificate)) {
        refuse(
          `decoding: json: cannot unmarshal ${jsonTypeOf(rawCertificate)} into Go struct field ${STRUCT}.certificate of type tc.DeliveryServiceSSLKeysCertificate`,
        );
      }
      const fields = rawCertificate as Record<string, unknown>;
      certificate = {
        crt: stringField(fields, 'crt', 'certificate.crt') ?? '',
        key: stringField(fields, 'key', 'certificate.key') ?? '',
        csr: stringField(fields, 'csr', 'certificate.csr') ?? '',
      };
    }
    if (deliveryservice === undefined && key !== undefined) {
      deliveryservice = key;
    } else if (key === undefined && deliveryservice !== undefined) {
      key = deliveryservice;
    }
    const missing: string[] = [];
    if (!cdn) {
      missing.push('cdn required');
    }
    if (version === undefined) {
      missing.push('version required');
    }
    if (!key) {
      missing.push('key required');
    }
    if (!deliveryservice) {
      missing.push('deliveryservice required');
    }
    if (key !== undefined && deliveryservice !== undefined && key !== deliveryservice) {
      missing.push('deliveryservice and key must match');
    }
    if (!hostname) {
      missing.push('hostname required');
    }
    if (!certificate) {
      missing.push('certificate required');
    } else {
      if (certificate.key === '') {
        missing.push('certificate.key required');
      }
      if (certificate.crt === '') {
        missing.push('certificate.crt required');
      }
      if (certificate.csr === '' && authType !== 'Lets Encrypt') {
        missing.push('certificate.csr required');
      }
    }
    if (missing.length > 0) {
      refuse(`validating: missing fields: ${missing.join('; ')}`);
    }
    return Object.assign(new SslKeysAddDto(), {
      authType,
      cdn,
      deliveryservice,
      hostname,
      key,
      version,
      certificate,
    });
  }
}
