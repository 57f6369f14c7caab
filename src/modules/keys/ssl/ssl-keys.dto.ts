import { GoField } from 'src/common/validation/go-field';
import { GoStruct } from 'src/common/validation/go-struct';
import { INT32 } from 'src/common/validation/integers';

const STRUCT = 'DeliveryServiceAddSSLKeysReq';

/** The original's list of missing fields, after decoding (one of `key`/`deliveryservice` stands for both). */
function missingFields(body: SslKeysAddDto): string | undefined {
  if (body.deliveryservice === undefined && body.key !== undefined) {
    body.deliveryservice = body.key;
  } else if (body.key === undefined && body.deliveryservice !== undefined) {
    body.key = body.deliveryservice;
  }
  const { cdn, deliveryservice, hostname, key, version, certificate, authType } = body;
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
  return missing.length > 0
    ? `parsing request: validating: missing fields: ${missing.join('; ')}`
    : undefined;
}

/** tc.DeliveryServiceSSLKeysCertificate: an absent or null field is empty. */
@GoStruct('DeliveryServiceSSLKeysCertificate', { failure: 'parsing request: decoding: ', withCause: true })
export class SslCertificate {
  @GoField.string({
    required: true,
    schema: { description: 'the PEM certificate chain, server certificate first' },
  })
  crt = '';

  @GoField.string({ required: true, schema: { description: 'the PEM private key' } })
  key = '';

  @GoField.string({ schema: { description: "the PEM signing request (not for 'Lets Encrypt')" } })
  csr = '';
}

/**
 * The body of POST deliveryservices/sslkeys/add (the original's DeliveryServiceAddSSLKeysReq):
 * decoded as Go decodes it, then validated with its texts (`parsing request: validating: missing
 * fields: cdn required; …`). `key` and `deliveryservice` both name the delivery service; one given
 * alone stands for both.
 */
@GoStruct<SslKeysAddDto>(STRUCT, {
  failure: 'parsing request: decoding: ',
  withCause: true,
  nullBody: 'object',
  check: missingFields,
})
export class SslKeysAddDto {
  @GoField.string({ schema: { description: "how the certificate was signed, e.g. 'Self Signed'" } })
  authType?: string;

  @GoField.string({ required: true, schema: { description: "the name of the delivery service's CDN" } })
  cdn!: string;

  @GoField.string({ schema: { description: 'the xmlId of the delivery service (or `key`)' } })
  deliveryservice!: string;

  @GoField.string({ required: true })
  hostname!: string;

  @GoField.string({ schema: { description: 'the xmlId of the delivery service (or `deliveryservice`)' } })
  key!: string;

  /** The version is also the delivery service's ssl_key_version, a 32-bit column (docs/decisions.md#d46). */
  @GoField.intStr(
    { min: INT32.min, max: INT32.max, maxDigits: 10 },
    { required: true, schema: { description: 'an integer, or a string of one' } },
  )
  version!: number;

  @GoField.struct(() => SslCertificate, 'tc.DeliveryServiceSSLKeysCertificate', { required: true })
  certificate!: SslCertificate;
}
