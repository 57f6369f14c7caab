import type { CoordinateV5 } from 'src/modules/coordinates/dto/coordinate.response';
import type { DeliveryServiceRequestCommentV5 } from 'src/modules/delivery-service-requests/dto/delivery-service-request-comment.response';
import type { DeliveryServiceRequestV5 } from 'src/modules/delivery-service-requests/dto/delivery-service-request.response';
import type { OriginV5 } from 'src/modules/delivery-services/origins/origin.response';
import type { InvalidationJobV4 } from 'src/modules/jobs/dto/job.response';
import type { ServerCapabilityV5 } from 'src/modules/server-capabilities/dto/server-capability.response';
import type { ServerServerCapabilityV5 } from 'src/modules/server-capabilities/dto/server-server-capability.response';
import type { ServerUpdateStatusV5 } from 'src/modules/servers/dto/server-update-status.response';
import type { ServerV5 } from 'src/modules/servers/dto/server.response';
import type { ServiceCategoryV5 } from 'src/modules/service-categories/dto/service-category.response';
import type { CurrentStatsResponse } from 'src/modules/stats/dto/current-stats.response';
import type {
  TrafficDSStatsResponse,
  TrafficStatsResponse,
} from 'src/modules/stats/dto/traffic-stats.response';
import type { CdnLockV4 } from 'src/modules/cdn-locks/dto/cdn-lock.response';
import type { CdnNotificationV4 } from 'src/modules/cdn-notifications/dto/cdn-notification.response';
import type { CdniConfigurationRequestV4 } from 'src/modules/cdni/dto/cdni.response';
import type {
  CacheData,
  CapacityData,
  HealthData,
  RoutingData,
} from 'src/modules/monitoring/dto/monitoring.response';
import type { GenericServerCheck } from 'src/modules/servercheck/dto/servercheck.response';
import type { TopologyV5 } from 'src/modules/topologies/dto/topology.response';
import type { StaticDnsEntryV5 } from 'src/modules/static-dns-entries/dto/static-dns-entry.response';

/**
 * The JSON keys of the original's wire types (lib/go-tc), one constant per type and version, for the
 * suites that check shapes: test/e2e/wire-shapes (every resource × version), traffic-portal-replay
 * (Traffic Portal's 5.0 calls) and t3c-requests (the fields t3c reads).
 */

export interface GoType {
  keys: readonly string[];
  /** `omitempty` keys: absent when they have no value. */
  optional: readonly string[];
}

/**
 * The shape of a wire type this service exports, its keys checked against the type at compile time:
 * a key missing from the list, or a list key the type lacks, fails the type check.
 */
export function wire<T>() {
  return <const K extends readonly (keyof T & string)[]>(
    keys: K &
      (Exclude<keyof T, K[number]> extends never ? unknown : { missing: Exclude<keyof T, K[number]> }),
    optional: readonly (keyof T & string)[] = [],
  ): GoType => ({ keys, optional });
}

/** The shape of a lib/go-tc type this service has no exported wire type for. */
export const goTc = (keys: readonly string[], optional: readonly string[] = []): GoType => ({
  keys,
  optional,
});

// lib/go-tc 5.0 types (API 5.0 answers), one constant per type.
export const CDN_V5 = goTc(
  ['dnssecEnabled', 'domainName', 'id', 'lastUpdated', 'name', 'ttlOverride'],
  ['ttlOverride'],
);
export const CACHEGROUP_V5 = goTc([
  'fallbackToClosest',
  'fallbacks',
  'id',
  'lastUpdated',
  'latitude',
  'localizationMethods',
  'longitude',
  'name',
  'parentCachegroupId',
  'parentCachegroupName',
  'secondaryParentCachegroupId',
  'secondaryParentCachegroupName',
  'shortName',
  'typeId',
  'typeName',
]);
/** lib/go-tc CommonServerProperties under their 4.x names, with the interfaces (ServerV30 and ServerV40). */
const SERVER_COMMON_V3V4 = [
  'cachegroup',
  'cachegroupId',
  'cdnId',
  'cdnName',
  'domainName',
  'guid',
  'hostName',
  'httpsPort',
  'id',
  'iloIpAddress',
  'iloIpGateway',
  'iloIpNetmask',
  'iloPassword',
  'iloUsername',
  'interfaces',
  'lastUpdated',
  'mgmtIpAddress',
  'mgmtIpGateway',
  'mgmtIpNetmask',
  'offlineReason',
  'physLocation',
  'physLocationId',
  'rack',
  'revalPending',
  'status',
  'statusId',
  'statusLastUpdated',
  'tcpPort',
  'type',
  'typeId',
  'updPending',
  'xmppId',
  'xmppPasswd',
];
/** lib/go-tc ServerV30: one profile, the router port on the server. */
export const SERVER_V30 = goTc([
  ...SERVER_COMMON_V3V4,
  'profile',
  'profileDesc',
  'profileId',
  'routerHostName',
  'routerPortName',
]);
/** lib/go-tc ServerV40: profiles by name, the update times. */
export const SERVER_V40 = goTc([
  ...SERVER_COMMON_V3V4,
  'configApplyTime',
  'configUpdateTime',
  'profileNames',
  'revalApplyTime',
  'revalUpdateTime',
]);
/** lib/go-tc ServerV50. */
export const SERVER_V5 = wire<ServerV5>()(
  [
    'cacheGroup',
    'cacheGroupID',
    'cdn',
    'cdnID',
    'configApplyTime',
    'configUpdateFailed',
    'configUpdateTime',
    'domainName',
    'guid',
    'hostName',
    'httpsPort',
    'id',
    'iloIpAddress',
    'iloIpGateway',
    'iloIpNetmask',
    'iloPassword',
    'iloUsername',
    'interfaces',
    'lastUpdated',
    'mgmtIpAddress',
    'mgmtIpGateway',
    'mgmtIpNetmask',
    'offlineReason',
    'physicalLocation',
    'physicalLocationID',
    'profiles',
    'rack',
    'revalApplyTime',
    'revalUpdateFailed',
    'revalUpdateTime',
    'status',
    'statusID',
    'statusLastUpdated',
    'tcpPort',
    'type',
    'typeID',
    'xmppId',
    'xmppPasswd',
  ],
  [
    'configApplyTime',
    'configUpdateTime',
    'httpsPort',
    'iloIpAddress',
    'iloIpGateway',
    'iloIpNetmask',
    'iloPassword',
    'iloUsername',
    'mgmtIpAddress',
    'mgmtIpGateway',
    'mgmtIpNetmask',
    'profiles',
    'revalApplyTime',
    'revalUpdateTime',
    'statusLastUpdated',
  ],
);
export const DELIVERY_SERVICE_V5 = goTc([
  'active',
  'anonymousBlockingEnabled',
  'ccrDnsTtl',
  'cdnId',
  'cdnName',
  'checkPath',
  'consistentHashQueryParams',
  'consistentHashRegex',
  'deepCachingType',
  'displayName',
  'dnsBypassCname',
  'dnsBypassIp',
  'dnsBypassIp6',
  'dnsBypassTtl',
  'dscp',
  'ecsEnabled',
  'edgeHeaderRewrite',
  'exampleURLs',
  'firstHeaderRewrite',
  'fqPacingRate',
  'geoLimit',
  'geoLimitCountries',
  'geoLimitRedirectURL',
  'geoProvider',
  'globalMaxMbps',
  'globalMaxTps',
  'httpBypassFqdn',
  'id',
  'infoUrl',
  'initialDispersion',
  'innerHeaderRewrite',
  'ipv6RoutingEnabled',
  'lastHeaderRewrite',
  'lastUpdated',
  'logsEnabled',
  'longDesc',
  'matchList',
  'maxDnsAnswers',
  'maxOriginConnections',
  'maxRequestHeaderBytes',
  'midHeaderRewrite',
  'missLat',
  'missLong',
  'multiSiteOrigin',
  'orgServerFqdn',
  'originShield',
  'profileDescription',
  'profileId',
  'profileName',
  'protocol',
  'qstringIgnore',
  'rangeRequestHandling',
  'rangeSliceBlockSize',
  'regexRemap',
  'regional',
  'regionalGeoBlocking',
  'remapText',
  'requiredCapabilities',
  'routingName',
  'serviceCategory',
  'signed',
  'signingAlgorithm',
  'sslKeyVersion',
  'tenant',
  'tenantId',
  'tlsVersions',
  'topology',
  'trRequestHeaders',
  'trResponseHeaders',
  'type',
  'typeId',
  'xmlId',
]);
export const DS_REQUEST_V5 = wire<DeliveryServiceRequestV5>()(
  [
    'assignee',
    'author',
    'changeType',
    'createdAt',
    'id',
    'lastEditedBy',
    'lastUpdated',
    'original',
    'requested',
    'status',
  ],
  ['original', 'requested'],
);
export const DS_REQUEST_COMMENT_V5 = wire<DeliveryServiceRequestCommentV5>()([
  'author',
  'authorId',
  'deliveryServiceRequestId',
  'id',
  'lastUpdated',
  'value',
  'xmlId',
]);
export const PROFILE_V5 = goTc(
  ['cdn', 'cdnName', 'description', 'id', 'lastUpdated', 'name', 'params', 'routingDisabled', 'type'],
  ['params'],
);
/** ParameterV5 as lib/go-tc has it now: `comment` came after 8.0, with a column of its own. */
export const PARAMETER_V5 = goTc([
  'comment',
  'configFile',
  'id',
  'lastUpdated',
  'name',
  'profiles',
  'secure',
  'value',
]);
/** A profileparameters record (lib/go-tc ProfileParameterV5 as GET profileparameters answers it). */
export const PROFILE_PARAMETER_V5 = goTc(['lastUpdated', 'parameter', 'profile']);
/** lib/go-tc DeliveryServiceServer (every version). */
export const DELIVERY_SERVICE_SERVER = goTc(['deliveryService', 'lastUpdated', 'server']);
export const PROFILE_PARAMETER_BY_NAME_V5 = goTc([
  'configFile',
  'id',
  'lastUpdated',
  'name',
  'secure',
  'value',
]);
export const TYPE_V5 = goTc(['description', 'id', 'lastUpdated', 'name', 'useInTable']);
export const STATUS_V5 = goTc(['description', 'id', 'lastUpdated', 'name']);
export const DIVISION_V5 = goTc(['id', 'lastUpdated', 'name']);
export const REGION_V5 = goTc(['division', 'divisionName', 'id', 'lastUpdated', 'name']);
export const PHYS_LOCATION_V5 = goTc([
  'address',
  'city',
  'comments',
  'email',
  'id',
  'lastUpdated',
  'name',
  'phone',
  'poc',
  'region',
  'regionId',
  'shortName',
  'state',
  'zip',
]);
export const TENANT_V5 = goTc(
  ['active', 'id', 'lastUpdated', 'name', 'parentId', 'parentName'],
  ['parentName'],
);
/** The keys lib/go-tc's User (3.x) and UserV4 share. */
const USER_COMMON = [
  'addressLine1',
  'addressLine2',
  'city',
  'company',
  'country',
  'email',
  'fullName',
  'gid',
  'id',
  'lastUpdated',
  'newUser',
  'phoneNumber',
  'postalCode',
  'publicSshKey',
  'registrationSent',
  'role',
  'stateOrProvince',
  'tenant',
  'tenantId',
  'uid',
  'username',
];
/** lib/go-tc User, which 3.x answers for `users` (the role's name as `rolename`). */
export const USER_V30 = goTc([...USER_COMMON, 'rolename']);
/** lib/go-tc User as 3.x `PUT user/current` answers it: the role's name as `roleName`. */
export const USER_CURRENT_V30 = goTc([...USER_COMMON, 'roleName']);
/** lib/go-tc UserV4, which 4.0 and later answer for `users` and `user/current`. */
export const USER_V4 = goTc(
  [...USER_COMMON, 'changeLogCount', 'lastAuthenticated', 'localPasswd', 'ucdn'],
  ['localPasswd'],
);
/** lib/go-tc Role as 3.x answers it (capabilities and a privilege level). */
export const ROLE_V30 = goTc(['capabilities', 'description', 'id', 'name', 'privLevel']);
export const ROLE_V4 = goTc(['description', 'lastUpdated', 'name', 'permissions'], ['lastUpdated']);
export const ORIGIN_V5 = wire<OriginV5>()([
  'cachegroup',
  'cachegroupId',
  'coordinate',
  'coordinateId',
  'deliveryService',
  'deliveryServiceId',
  'fqdn',
  'id',
  'ip6Address',
  'ipAddress',
  'isPrimary',
  'lastUpdated',
  'name',
  'port',
  'profile',
  'profileId',
  'protocol',
  'tenant',
  'tenantId',
]);
export const COORDINATE_V5 = wire<CoordinateV5>()(['id', 'lastUpdated', 'latitude', 'longitude', 'name']);
export const SERVICE_CATEGORY_V5 = wire<ServiceCategoryV5>()(['lastUpdated', 'name']);
export const TOPOLOGY_V5 = wire<TopologyV5>()(['description', 'lastUpdated', 'name', 'nodes']);
export const STATIC_DNS_ENTRY_V5 = wire<StaticDnsEntryV5>()([
  'address',
  'cachegroup',
  'cachegroupId',
  'deliveryservice',
  'deliveryserviceId',
  'host',
  'id',
  'lastUpdated',
  'ttl',
  'type',
  'typeId',
]);
export const SERVER_CAPABILITY_V5 = wire<ServerCapabilityV5>()(['description', 'lastUpdated', 'name']);
export const SERVER_SERVER_CAPABILITY_V5 = wire<ServerServerCapabilityV5>()(
  ['lastUpdated', 'serverCapability', 'serverHostName', 'serverId'],
  ['serverHostName'],
);
export const JOB_V4 = wire<InvalidationJobV4>()([
  'assetUrl',
  'createdBy',
  'deliveryService',
  'id',
  'invalidationType',
  'startTime',
  'ttlHours',
]);
export const ASN_V5 = goTc(['asn', 'cachegroup', 'cachegroupId', 'id', 'lastUpdated']);
export const LOG_V5 = goTc(['id', 'lastUpdated', 'level', 'message', 'ticketNum', 'user']);
export const REGEX_V5 = goTc(['id', 'pattern', 'setNumber', 'type', 'typeName']);
export const CURRENT_STATS = wire<CurrentStatsResponse>()(['currentStats']);
/** Both parts are absent when InfluxDB has nothing to give (a warning says why), `series` also without data. */
export const CACHE_STATS = wire<TrafficStatsResponse>()(['series', 'summary'], ['series', 'summary']);
export const DS_STATS = wire<TrafficDSStatsResponse>()(['series', 'summary'], ['series', 'summary']);
export const NEW_LOG_COUNT = goTc(['newLogcount']);
export const NOTIFICATION_V4 = wire<CdnNotificationV4>()([
  'cdn',
  'id',
  'lastUpdated',
  'notification',
  'user',
]);
/** The original's `cdni.ConfigurationUpdateRequest`. */
export const CDNI_REQUEST = wire<CdniConfigurationRequestV4>()([
  'asyncStatusId',
  'data',
  'host',
  'id',
  'requestType',
  'ucdn',
]);
export const LOCK_V4 = wire<CdnLockV4>()([
  'cdn',
  'lastUpdated',
  'message',
  'sharedUserNames',
  'soft',
  'userName',
]);
/** Without a Traffic Monitor its cache groups are empty; the totals are there. */
export const HEALTH = wire<HealthData>()(['cachegroups', 'totalOffline', 'totalOnline']);
export const CAPACITY = wire<CapacityData>()([
  'availablePercent',
  'maintenancePercent',
  'unavailablePercent',
  'utilizedPercent',
]);
export const ROUTING = wire<RoutingData>()([
  'cz',
  'deepCz',
  'dsr',
  'err',
  'fed',
  'geo',
  'miss',
  'regionalAlternate',
  'regionalDenied',
  'staticRoute',
]);
export const CACHE_DATA = wire<CacheData>()([
  'cachegroup',
  'connections',
  'healthy',
  'hostname',
  'ip',
  'kbps',
  'profile',
  'status',
]);
export const SERVER_CHECK = wire<GenericServerCheck>()(
  ['adminState', 'cacheGroup', 'checks', 'hostName', 'id', 'profile', 'revalPending', 'type', 'updPending'],
  ['checks'],
);
export const SNAPSHOT = goTc(
  [
    'config',
    'contentRouters',
    'contentServers',
    'deliveryServices',
    'edgeLocations',
    'monitors',
    'stats',
    'topologies',
    'trafficRouterLocations',
  ],
  [
    'config',
    'contentRouters',
    'contentServers',
    'deliveryServices',
    'edgeLocations',
    'monitors',
    'topologies',
    'trafficRouterLocations',
  ],
);

/** lib/go-tc ServerUpdateStatusV50. */
export const SERVER_UPDATE_STATUS_V5 = wire<ServerUpdateStatusV5>()([
  'config_apply_time',
  'config_update_failed',
  'config_update_time',
  'host_id',
  'host_name',
  'parent_pending',
  'parent_reval_pending',
  'reval_pending',
  'revalidate_apply_time',
  'revalidate_update_failed',
  'revalidate_update_time',
  'status',
  'upd_pending',
  'use_reval_pending',
]);

/**
 * The keys a record answers when the `omitempty` keys of its type other than `given` have no value.
 */
export const answered = (type: GoType, given: readonly string[] = []): string[] =>
  type.keys.filter((key) => !type.optional.includes(key) || given.includes(key));

/** Some of a type's keys; a key the type lacks fails on load. */
function subset(type: GoType, keys: readonly string[]): readonly string[] {
  const unknown = keys.filter((key) => !type.keys.includes(key));
  if (unknown.length > 0) {
    throw new Error(`not keys of the type: ${unknown.join(', ')}`);
  }
  return keys;
}

/** The keys of each type that t3c (cache-config) reads from Traffic Ops. */
export const T3C_READS = {
  server: subset(SERVER_V5, [
    'cacheGroup',
    'cacheGroupID',
    'cdn',
    'cdnID',
    'profiles',
    'statusID',
    'typeID',
    'interfaces',
  ]),
  deliveryService: subset(DELIVERY_SERVICE_V5, [
    'xmlId',
    'cdnName',
    'type',
    'signingAlgorithm',
    'requiredCapabilities',
    'topology',
  ]),
  job: subset(JOB_V4, ['assetUrl', 'deliveryService', 'startTime', 'ttlHours', 'invalidationType']),
  updateStatus: subset(SERVER_UPDATE_STATUS_V5, [
    'config_update_time',
    'config_apply_time',
    'config_update_failed',
    'parent_pending',
  ]),
};
