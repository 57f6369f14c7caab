/**
 * A delivery service as a request gives it, in one shape for every API version (the original upgrades
 * every body to its 5.0 structure before validating it, docs/original-behaviour.md#deliveryservices):
 * `active` is the state name, `geoLimitCountries` a list. Absent fields are `undefined`, JSON nulls `null`.
 */
export interface DeliveryServiceInput {
  active?: string | null;
  anonymousBlockingEnabled?: boolean | null;
  ccrDnsTtl?: number | null;
  cdnId?: number | null;
  cdnName?: string | null;
  checkPath?: string | null;
  consistentHashQueryParams?: string[] | null;
  consistentHashRegex?: string | null;
  deepCachingType?: string | null;
  displayName?: string | null;
  dnsBypassCname?: string | null;
  dnsBypassIp?: string | null;
  dnsBypassIp6?: string | null;
  dnsBypassTtl?: number | null;
  dscp?: number | null;
  ecsEnabled?: boolean | null;
  edgeHeaderRewrite?: string | null;
  firstHeaderRewrite?: string | null;
  fqPacingRate?: number | null;
  geoLimit?: number | null;
  geoLimitCountries?: string[] | null;
  geoLimitRedirectURL?: string | null;
  geoProvider?: number | null;
  globalMaxMbps?: number | null;
  globalMaxTps?: number | null;
  httpBypassFqdn?: string | null;
  infoUrl?: string | null;
  initialDispersion?: number | null;
  innerHeaderRewrite?: string | null;
  ipv6RoutingEnabled?: boolean | null;
  lastHeaderRewrite?: string | null;
  logsEnabled?: boolean | null;
  longDesc?: string | null;
  maxDnsAnswers?: number | null;
  maxOriginConnections?: number | null;
  maxRequestHeaderBytes?: number | null;
  midHeaderRewrite?: string | null;
  missLat?: number | null;
  missLong?: number | null;
  multiSiteOrigin?: boolean | null;
  orgServerFqdn?: string | null;
  originShield?: string | null;
  profileId?: number | null;
  protocol?: number | null;
  qstringIgnore?: number | null;
  rangeRequestHandling?: number | null;
  rangeSliceBlockSize?: number | null;
  regexRemap?: string | null;
  regional?: boolean | null;
  regionalGeoBlocking?: boolean | null;
  remapText?: string | null;
  requiredCapabilities?: string[] | null;
  routingName?: string | null;
  serviceCategory?: string | null;
  signed?: boolean | null;
  signingAlgorithm?: string | null;
  sslKeyVersion?: number | null;
  tenantId?: number | null;
  tlsVersions?: string[] | null;
  topology?: string | null;
  trRequestHeaders?: string | null;
  trResponseHeaders?: string | null;
  typeId?: number | null;
  xmlId?: string | null;
}

/** Fields only API 3.x carries (written only when given, as the original does). */
export interface LegacyFields {
  longDesc1?: string | null;
  longDesc2?: string | null;
  cacheurl?: string | null;
}

/**
 * A delivery service write, whichever version's body gave it (`toInput`, delivery-service.body.ts):
 * the input, the 3.x-only fields, and which parts the body's version carries at all (a part it does
 * not carry is left as stored).
 */
export interface DeliveryServiceWrite {
  input: DeliveryServiceInput;
  legacy: LegacyFields;
  carries: {
    /** `longDesc1`, `longDesc2`, `cacheurl` are written (3.x); otherwise a given longDesc1/2 is refused. */
    legacyFields: boolean;
    /** `tlsVersions` replace the stored ones on update (4.0+). */
    tlsVersions: boolean;
    /** `requiredCapabilities` are written (4.1+); otherwise the stored ones count. */
    requiredCapabilities: boolean;
    /** `active` is a state name checked against the states (5.0+). */
    activeState: boolean;
  };
}
