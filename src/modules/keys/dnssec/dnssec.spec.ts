import { createPrivateKey, createPublicKey, createSign, createVerify } from 'node:crypto';
import { dsDigest, dsRecordText, dsZoneName, keyTag, newDnssecKey, type StoredDnssecKey } from './dnssec';

/** The key of RFC 4034 §5.4 (and RFC 4509 §2.3): dskey.example.com., flags 256, RSA/SHA-1. */
const RFC_KEY = Buffer.from(
  'AQOeiiR0GOMYkDshWoSKz9XzfwJr1AYtsmx3TGkJaNXVbfi/2pHm822aJ5iI9BMzNXxeYCmZDRD99WYwYqUSdjMmmAphXdvxegXd/' +
    'M5+X7OrzKBaMbCVdFLUUh6DhweJBjEVv5f2wwjM9XzcnOf+EPbtG9DMBmADjFDc2w/rljwvFw==',
  'base64',
);

const decode = (text: string) => Buffer.from(text, 'base64').toString('utf8');

/** The fields of a BIND private-key file. */
function bindFields(text: string): Record<string, string> {
  return Object.fromEntries(
    text
      .trim()
      .split('\n')
      .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)]),
  );
}

describe('DNSSEC key forms', () => {
  it('computes the key tag of RFC 4034 Appendix B (the example of §5.4: 60485)', () => {
    expect(keyTag(256, 3, 5, RFC_KEY)).toBe(60485);
  });

  it('computes the DS digests of RFC 4034 §5.4 (SHA-1) and RFC 4509 §2.3 (SHA-256), case-insensitive names', () => {
    expect(dsDigest('dskey.example.com.', 256, 3, 5, RFC_KEY, 1).toString('hex').toUpperCase()).toBe(
      '2BB183AF5F22588179A53B0A98631FAD1A292118',
    );
    expect(dsDigest('DSKEY.Example.COM.', 256, 3, 5, RFC_KEY, 2).toString('hex').toUpperCase()).toBe(
      'D4B7D520E7BB5F0F67674A0CCEB1E3E0614B93C4F9E99B8383F6A1E4469DA50A',
    );
  });

  it("writes a stored KSK's DS record text with the DS TTL, as miekg/dns prints it", () => {
    const key: StoredDnssecKey = {
      inceptionDate: 0,
      expirationDate: 0,
      name: 'dskey.example.com.',
      ttl: '86400',
      status: 'new',
      effectiveDate: 0,
      public: Buffer.from(
        `dskey.example.com.\t86400\tIN\tDNSKEY\t256 3 5 ${RFC_KEY.toString('base64')}`,
      ).toString('base64'),
      private: '',
      dsRecord: { algorithm: '5', digestType: '2', digest: '' },
    };
    expect(dsRecordText(key, 60)).toBe(
      'dskey.example.com.\t60\tIN\tDS\t60485 5 2 D4B7D520E7BB5F0F67674A0CCEB1E3E0614B93C4F9E99B8383F6A1E4469DA50A',
    );
    expect(
      dsRecordText({ ...key, public: Buffer.from('too few fields').toString('base64') }, 60),
    ).toBeUndefined();
    expect(dsRecordText({ ...key, dsRecord: undefined }, 60)).toBeUndefined();
    // Characters special in a zone file are escaped, as miekg/dns prints names.
    expect(dsRecordText({ ...key, name: 'a b@c\u0001.example.' }, 60)).toMatch(
      /^a\\ b\\@c\\001\.example\.\t60\tIN\tDS\t/,
    );
  });

  it("names a delivery service's zone from its first example URL, as GetDSDomainName", () => {
    expect(dsZoneName(['http://cdn.Demo1.mycdn.example.net', 'https://x'])).toBe('demo1.mycdn.example.net.');
    expect(dsZoneName([])).toBeUndefined();
    expect(dsZoneName(['http://nodot'])).toBeUndefined();
  });

  it('generates a CDN KSK: 2048-bit RSA, flags 257, its DNSKEY record, BIND private key and DS record', async () => {
    const inception = new Date('2026-01-01T00:00:00Z');
    const key = await newDnssecKey('ksk', {
      name: 'cdn.example.net.',
      ttlSeconds: 60,
      inception,
      expiration: new Date('2027-01-01T00:00:00Z'),
      status: 'new',
      effective: inception,
      tld: true,
    });
    expect(key).toMatchObject({
      inceptionDate: 1767225600,
      expirationDate: 1798761600,
      effectiveDate: 1767225600,
      name: 'cdn.example.net.',
      ttl: '60',
      status: 'new',
      dsRecord: { algorithm: '5', digestType: '2' },
    });
    const record = decode(key.public);
    const match = /^cdn\.example\.net\.\t60\tIN\tDNSKEY\t257 3 5 ([A-Za-z0-9+/=]+)$/.exec(record);
    expect(match).not.toBeNull();
    const publicKey = Buffer.from(match![1], 'base64');
    expect(publicKey.subarray(0, 4)).toEqual(Buffer.from([3, 1, 0, 1]));
    expect(publicKey.length).toBe(4 + 256);
    expect(key.dsRecord!.digest).toBe(dsDigest('cdn.example.net.', 257, 3, 5, publicKey).toString('hex'));

    const fields = bindFields(decode(key.private));
    expect(Object.keys(fields)).toEqual([
      'Private-key-format',
      'Algorithm',
      'Modulus',
      'PublicExponent',
      'PrivateExponent',
      'Prime1',
      'Prime2',
      'Exponent1',
      'Exponent2',
      'Coefficient',
    ]);
    expect(fields['Private-key-format']).toBe('v1.3');
    expect(fields.Algorithm).toBe('5 (RSASHA1)');
    expect(fields.PublicExponent).toBe('AQAB');
    expect(Buffer.from(fields.Modulus, 'base64')).toEqual(publicKey.subarray(4));

    // The private key file is a whole key that signs what the DNSKEY's public key verifies.
    const b64url = (name: string) => Buffer.from(fields[name], 'base64').toString('base64url');
    const privateKey = createPrivateKey({
      format: 'jwk',
      key: {
        kty: 'RSA',
        n: b64url('Modulus'),
        e: b64url('PublicExponent'),
        d: b64url('PrivateExponent'),
        p: b64url('Prime1'),
        q: b64url('Prime2'),
        dp: b64url('Exponent1'),
        dq: b64url('Exponent2'),
        qi: b64url('Coefficient'),
      },
    });
    const signature = createSign('sha1').update('zone data').sign(privateKey);
    const verifier = createPublicKey({
      format: 'jwk',
      key: { kty: 'RSA', n: b64url('Modulus'), e: b64url('PublicExponent') },
    });
    expect(createVerify('sha1').update('zone data').verify(verifier, signature)).toBe(true);
  });

  it('generates a ZSK of 1024 bits, flags 256, without a DS record', async () => {
    const now = new Date();
    const key = await newDnssecKey('zsk', {
      name: 'ds.cdn.example.net.',
      ttlSeconds: 30,
      inception: now,
      expiration: now,
      status: 'new',
      effective: now,
      tld: false,
    });
    expect(key.dsRecord).toBeUndefined();
    const [, , , , flags, , , publicKey] = decode(key.public).split(/\s+/);
    expect(flags).toBe('256');
    expect(Buffer.from(publicKey, 'base64').length).toBe(4 + 128);
  });
});
