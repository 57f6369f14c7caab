import {
  isValidOrgServerFqdn,
  parseOrgServerFqdn,
  sanitize,
  typeFieldsError,
  validateDeliveryService,
} from './delivery-service-rules';
import { exampleUrls } from './delivery-service-match-list';
import { tlsVersionWarnings } from './delivery-service-tls-versions';
import type { DeliveryServiceInput } from './delivery-service.input';

const HTTP = { name: 'HTTP', useInTable: 'deliveryservice' };

const valid = (overrides: DeliveryServiceInput = {}): DeliveryServiceInput =>
  sanitize({
    cdnId: 1,
    displayName: 'd',
    dscp: 0,
    geoLimit: 0,
    geoProvider: 0,
    logsEnabled: false,
    regionalGeoBlocking: false,
    typeId: 1,
    xmlId: 'ds1',
    tenantId: 1,
    initialDispersion: 1,
    ipv6RoutingEnabled: true,
    missLat: 0,
    missLong: 0,
    multiSiteOrigin: false,
    orgServerFqdn: 'http://o.example.net',
    protocol: 0,
    qstringIgnore: 0,
    rangeRequestHandling: 0,
    ...overrides,
  });

describe('delivery service validation', () => {
  it('accepts a complete HTTP body', () => {
    expect(validateDeliveryService(valid(), HTTP, true)).toEqual([]);
  });

  it('sanitises as the original', () => {
    const ds = sanitize({
      geoLimitCountries: ['u s', 'ca'],
      profileId: -1,
      routingName: '',
      signed: true,
      edgeHeaderRewrite: ' ',
      deepCachingType: 'always',
    });
    expect(ds).toMatchObject({
      geoLimitCountries: ['US', 'CA'],
      profileId: null,
      routingName: 'cdn',
      signingAlgorithm: 'url_sig',
      signed: true,
      edgeHeaderRewrite: null,
      deepCachingType: 'ALWAYS',
      maxOriginConnections: 0,
      maxRequestHeaderBytes: 0,
    });
    expect(sanitize({ signingAlgorithm: 'url_sig' }).signed).toBe(true);
  });

  it('orders problems by schema field, then cross-field rules, then type fields (D7)', () => {
    const errors = validateDeliveryService(
      valid({ xmlId: 'a b', displayName: '', geoLimit: 1, missLat: 95 }),
      HTTP,
    );
    expect(errors).toEqual([
      "'displayName' cannot be blank",
      "'geoLimitCountries' cannot be blank",
      "'xmlId' cannot contain spaces",
      "type fields: 'missLat' Must be a floating point number within the range +-90",
    ]);
  });

  it('ties rangeSliceBlockSize to rangeRequestHandling 3', () => {
    expect(typeFieldsError(valid({ rangeRequestHandling: 3 }), HTTP)).toBe(
      "'rangeSliceBlockSize' cannot be blank",
    );
    expect(
      typeFieldsError(valid({ rangeRequestHandling: 3, rangeSliceBlockSize: 33554432 }), HTTP),
    ).toBeUndefined();
    expect(typeFieldsError(valid({ rangeRequestHandling: 0, rangeSliceBlockSize: 262144 }), HTTP)).toMatch(
      /can only be set/,
    );
  });

  it('checks the type', () => {
    expect(typeFieldsError(valid(), undefined)).toBe('type not found');
    expect(typeFieldsError(valid(), { name: 'EDGE', useInTable: 'server' })).toBe(
      'type is not a valid deliveryservice type',
    );
    expect(
      typeFieldsError(valid({ orgServerFqdn: null }), { name: 'ANY_MAP', useInTable: 'deliveryservice' }),
    ).toBeUndefined();
    expect(
      typeFieldsError(valid({ protocol: null }), { name: 'STEERING', useInTable: 'deliveryservice' }),
    ).toBe("'protocol' is required if type is 'STEERING'");
  });

  it('reads orgServerFqdn as the original', () => {
    expect(parseOrgServerFqdn('https://o.example.net:8080')).toEqual({
      protocol: 'https',
      fqdn: 'o.example.net',
      port: 8080,
    });
    expect(isValidOrgServerFqdn('http://192.0.2.1')).toBe(true);
    expect(isValidOrgServerFqdn('http://o.example.net/')).toBe(false);
    expect(isValidOrgServerFqdn('http://o.example.net:70000')).toBe(false);
    expect(isValidOrgServerFqdn('ftp://o.example.net')).toBe(false);
  });

  it('warns about TLS versions', () => {
    expect(tlsVersionWarnings(null, 1)).toEqual([]);
    expect(tlsVersionWarnings(['1.1', '9.9'], 0)).toEqual([
      "setting TLS Versions that are explicitly supported may break older clients that can't use the specified versions",
      "unknown TLS version '9.9' - possible typo",
      'old TLS version 1.1 is allowed, but newer versions 1.2, and 1.3 are disallowed; this configuration may be insecure',
      "tlsVersions has no effect on Delivery Services with Protocol '0' (HTTP_ONLY)",
    ]);
  });

  it('builds example URLs', () => {
    const match = [{ type: 'HOST_REGEXP', setNumber: 0, pattern: '.*\\.ds1\\..*' }];
    expect(exampleUrls(3, 'HTTP', 'cdn', match, 'example.net')).toEqual([
      'http://cdn.ds1.example.net',
      'https://cdn.ds1.example.net',
    ]);
    expect(
      exampleUrls(null, 'HTTP', 'cdn', [{ type: 'PATH_REGEXP', setNumber: 1, pattern: '/p' }], 'x'),
    ).toEqual(['/p']);
  });
});
