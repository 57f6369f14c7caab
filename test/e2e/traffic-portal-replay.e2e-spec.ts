import { ApiClient, responseOf, uniqueName } from 'test/e2e/support/api';
import {
  type GoType,
  wire,
  ASN_V5,
  CACHEGROUP_V5,
  CACHE_DATA,
  CACHE_STATS,
  CAPACITY,
  CDNI_REQUEST,
  CDN_V5,
  COORDINATE_V5,
  CURRENT_STATS,
  DELIVERY_SERVICE_V5,
  DIVISION_V5,
  DS_REQUEST_COMMENT_V5,
  DS_REQUEST_V5,
  DS_STATS,
  HEALTH,
  JOB_V4,
  LOCK_V4,
  LOG_V5,
  NEW_LOG_COUNT,
  NOTIFICATION_V4,
  ORIGIN_V5,
  PARAMETER_V5,
  PHYS_LOCATION_V5,
  PROFILE_PARAMETER_BY_NAME_V5,
  PROFILE_V5,
  REGEX_V5,
  REGION_V5,
  ROLE_V4,
  ROUTING,
  SERVER_CAPABILITY_V5,
  SERVER_CHECK,
  SERVER_SERVER_CAPABILITY_V5,
  SERVER_V5,
  SERVICE_CATEGORY_V5,
  SNAPSHOT,
  STATIC_DNS_ENTRY_V5,
  STATUS_V5,
  TENANT_V5,
  TOPOLOGY_V5,
  TYPE_V5,
  USER_V4,
} from 'test/e2e/support/go-types';
import { type Cachegroup, createCachegroup, typeIdOf } from 'test/e2e/support/fixtures/cachegroups';
import { createDeliveryService, deliveryServiceBody } from 'test/e2e/support/fixtures/delivery-services-api';
import type { DeliveryServiceResponse } from 'test/e2e/support/fixtures/delivery-services-api';
import {
  assignParameter,
  createCdn,
  createParameter,
  createProfile,
  type ParameterResponse,
  type ProfileResponse,
} from 'test/e2e/support/fixtures/profiles';
import { createServer, type ServerResponse } from 'test/e2e/support/fixtures/servers';
import { signHs256 } from 'src/modules/cdni/cdni-token';
import { CDNI_DCDN_ID, CDNI_JWT_DECODING_SECRET } from 'test/e2e/support/constants';
import { useApp } from 'test/e2e/support/suite';
import type { DnssecKeySet } from 'src/modules/keys/dnssec/dnssec-keys.response';

/**
 * Traffic Portal 8.x (API 5.0, `ENV.api.unstable`) signed in as admin: every page of
 * docs/traffic-portal.md replays the GET requests it sends when it loads, in its order, each
 * answering 2xx with the original's shape (the key set of the first record of lib/go-tc's 5.0 type;
 * `omitempty` keys may be absent).
 */

/** One request a page sends: its path under /api/5.0/ and what it answers. */
interface Call {
  path: string;
  /**
   * `list`: an array whose first record has the shape (`empty`: an array that may be empty);
   * `keyed`: an object of records by name, each with the shape; `names`: an object of strings by name.
   */
  answer: 'list' | 'object' | 'empty' | 'keyed' | 'names';
  shape?: GoType;
}

const list = (path: string, shape: GoType): Call => ({ path, answer: 'list', shape });
const object = (path: string, shape: GoType): Call => ({ path, answer: 'object', shape });
const maybeEmpty = (path: string): Call => ({ path, answer: 'empty' });
const keyed = (path: string, shape: GoType): Call => ({ path, answer: 'keyed', shape });
const names = (path: string): Call => ({ path, answer: 'names' });

// GET cdns/name/{name}/dnsseckeys: the CDN's and each delivery service's key set by name.
const DNSSEC_KEY_SET = wire<DnssecKeySet>()(['zsk', 'ksk']);

/** What the suite seeds, as the pages' URLs need it. */
interface World {
  cdn: { id: number; name: string };
  edgeGroup: Cachegroup;
  midGroup: Cachegroup;
  edge: ServerResponse;
  profile: ProfileResponse;
  parameter: ParameterResponse;
  ds: DeliveryServiceResponse;
  /** The region of the edge's phys location, and its division. */
  region: { id: number; division: number };
  topology: string;
  capability: string;
  serviceCategory: string;
  coordinateId: number;
  originId: number;
  dsRequestId: number;
  edgeTypeId: number;
  staticDnsEntryId: number;
  aRecordTypeId: number;
  physLocationId: number;
  onlineStatusId: number;
  adminId: number;
}

/**
 * What every signed-in page sends first: the private root resolves the current user; the change-log
 * model polls the count of new entries, the notifications bar the notifications, then the header
 * reads the CDNs; the locks bar polls the locks.
 */
const header = (): Call[] => [
  object('user/current', USER_V4),
  object('logs/newcount', NEW_LOG_COUNT),
  list('cdn_notifications', NOTIFICATION_V4),
  list('cdns', CDN_V5),
  list('cdn_locks', LOCK_V4),
];

/**
 * The range the portal's charts ask for: from a day ago to now, seconds dropped, as moment's
 * `format()` writes it (with the offset) and Angular encodes it in the query.
 */
function chartRange(): string {
  const time = (ms: number) =>
    encodeURIComponent(new Date(Math.floor(ms / 60000) * 60000).toISOString().replace('.000Z', '+00:00'));
  const now = Date.now();
  return `startDate=${time(now - 86400000)}&endDate=${time(now - 10000)}`;
}

/** What a delivery-service chart asks for (DeliveryServiceStatsService). */
const dsStats = (xmlId: string, metricType: string): Call =>
  object(
    `deliveryservice_stats?deliveryServiceName=${encodeURIComponent(xmlId)}&metricType=${metricType}` +
      `&serverType=edge&${chartRange()}&interval=1m`,
    DS_STATS,
  );

/** Pages in the portal's menu order; each page's calls in the order its route and form send them. */
const pages = (w: World): [string, Call[]][] => [
  [
    'dashboard',
    [
      list('cdns', CDN_V5),
      object('cdns/health', HEALTH),
      object('current_stats', CURRENT_STATS),
      list('servers?type=EDGE', SERVER_V5),
      list('deliveryservices', DELIVERY_SERVICE_V5),
      object('cdns/capacity', CAPACITY),
      list('logs?limit=5', LOG_V5),
      object('cdns/routing', ROUTING),
    ],
  ],
  [
    'dashboard, CDN chart widget',
    [
      list(`cdns?id=${w.cdn.id}`, CDN_V5),
      object('current_stats', CURRENT_STATS),
      object(
        `cache_stats?cdnName=${encodeURIComponent(w.cdn.name)}&metricType=bandwidth&${chartRange()}`,
        CACHE_STATS,
      ),
      object(
        `cache_stats?cdnName=${encodeURIComponent(w.cdn.name)}&metricType=connections&${chartRange()}`,
        CACHE_STATS,
      ),
    ],
  ],
  ['dashboard, delivery services widget', [dsStats(w.ds.xmlId, 'kbps')]],
  ['CDNs', [list('cdns', CDN_V5)]],
  ['CDN edit', [list(`cdns?id=${w.cdn.id}`, CDN_V5)]],
  [
    'CDN servers',
    [list(`cdns?id=${w.cdn.id}`, CDN_V5), list(`servers?cdn=${w.cdn.id}&orderby=hostName`, SERVER_V5)],
  ],
  [
    'CDN delivery services',
    [
      list(`cdns?id=${w.cdn.id}`, CDN_V5),
      list(`deliveryservices?cdn=${w.cdn.id}`, DELIVERY_SERVICE_V5),
      maybeEmpty('steering'),
    ],
  ],
  [
    'CDN config changes',
    [
      list(`cdns?id=${w.cdn.id}`, CDN_V5),
      object(`cdns/${w.cdn.name}/snapshot`, SNAPSHOT),
      object(`cdns/${w.cdn.name}/snapshot/new`, SNAPSHOT),
    ],
  ],
  ['CDN federations', [list(`cdns?id=${w.cdn.id}`, CDN_V5), maybeEmpty(`cdns/${w.cdn.name}/federations`)]],
  [
    'CDN notifications',
    [
      list(`cdns?id=${w.cdn.id}`, CDN_V5),
      list(`cdn_notifications?cdn=${w.cdn.name}&orderby=lastUpdated`, NOTIFICATION_V4),
    ],
  ],
  [
    'CDN DNSSEC keys',
    [list(`cdns?id=${w.cdn.id}`, CDN_V5), keyed(`cdns/name/${w.cdn.name}/dnsseckeys`, DNSSEC_KEY_SET)],
  ],
  ['cache groups', [list('cachegroups?orderby=name', CACHEGROUP_V5)]],
  [
    'cache group edit',
    [
      list(`cachegroups?id=${w.edgeGroup.id}`, CACHEGROUP_V5),
      list('types?useInTable=cachegroup', TYPE_V5),
      list('cachegroups?orderby=name', CACHEGROUP_V5),
    ],
  ],
  [
    'cache group servers',
    [
      list(`cachegroups?id=${w.edgeGroup.id}`, CACHEGROUP_V5),
      list(`servers?cachegroup=${w.edgeGroup.id}&orderby=hostName`, SERVER_V5),
    ],
  ],
  [
    'cache group ASNs',
    [
      list(`cachegroups?id=${w.edgeGroup.id}`, CACHEGROUP_V5),
      list(`asns?cachegroup=${w.edgeGroup.id}`, ASN_V5),
    ],
  ],
  ['servers', [list('servers?orderby=hostName', SERVER_V5)]],
  [
    'server edit',
    [
      list(`servers?id=${w.edge.id}`, SERVER_V5),
      list('phys_locations', PHYS_LOCATION_V5),
      list('cachegroups?orderby=name', CACHEGROUP_V5),
      list('types?useInTable=server', TYPE_V5),
      list('cdns', CDN_V5),
      list(`profiles?orderby=name&cdn=${w.cdn.id}`, PROFILE_V5),
    ],
  ],
  [
    'server capabilities of a server',
    [
      list(`servers?id=${w.edge.id}`, SERVER_V5),
      list(`server_server_capabilities?serverId=${w.edge.id}`, SERVER_SERVER_CAPABILITY_V5),
    ],
  ],
  [
    'server delivery services',
    [
      list(`servers?id=${w.edge.id}`, SERVER_V5),
      list(`servers/${w.edge.id}/deliveryservices`, DELIVERY_SERVICE_V5),
      maybeEmpty('steering'),
    ],
  ],
  ['delivery services', [list('deliveryservices', DELIVERY_SERVICE_V5), maybeEmpty('steering')]],
  [
    'delivery service edit',
    [
      list(`deliveryservices?id=${w.ds.id}`, DELIVERY_SERVICE_V5),
      list(`origins?deliveryservice=${w.ds.id}&primary=true`, ORIGIN_V5),
      list('topologies', TOPOLOGY_V5),
      list('types?useInTable=deliveryservice', TYPE_V5),
      maybeEmpty('steering'),
      list('cdns', CDN_V5),
      list('profiles?orderby=name', PROFILE_V5),
      list('tenants', TENANT_V5),
      list('server_capabilities', SERVER_CAPABILITY_V5),
      list(`service_categories?dsId=${w.ds.id}`, SERVICE_CATEGORY_V5),
    ],
  ],
  [
    'delivery service servers',
    [
      list(`deliveryservices?id=${w.ds.id}`, DELIVERY_SERVICE_V5),
      list(`servers?dsId=${w.ds.id}&orderby=hostName`, SERVER_V5),
    ],
  ],
  [
    'delivery service origins',
    [
      list(`deliveryservices?id=${w.ds.id}`, DELIVERY_SERVICE_V5),
      list(`origins?deliveryservice=${w.ds.id}`, ORIGIN_V5),
    ],
  ],
  [
    'delivery service regexes',
    [
      list(`deliveryservices?id=${w.ds.id}`, DELIVERY_SERVICE_V5),
      list(`deliveryservices/${w.ds.id}/regexes`, REGEX_V5),
    ],
  ],
  [
    'delivery service static DNS entries',
    [
      list(`deliveryservices?id=${w.ds.id}`, DELIVERY_SERVICE_V5),
      list(`staticdnsentries?deliveryserviceId=${w.ds.id}`, STATIC_DNS_ENTRY_V5),
    ],
  ],
  [
    'delivery service static DNS entry edit',
    [
      list(`deliveryservices?id=${w.ds.id}`, DELIVERY_SERVICE_V5),
      list(`staticdnsentries?id=${w.staticDnsEntryId}`, STATIC_DNS_ENTRY_V5),
      list('types?useInTable=staticdnsentry', TYPE_V5),
    ],
  ],
  [
    'delivery service invalidation requests',
    [
      list(`deliveryservices?id=${w.ds.id}`, DELIVERY_SERVICE_V5),
      list(`jobs?dsId=${w.ds.id}&orderby=startTime&sortOrder=desc`, JOB_V4),
    ],
  ],
  [
    'delivery service charts',
    [
      // Each of the three charts resolves the delivery service, then asks for its figures.
      list(`deliveryservices?id=${w.ds.id}`, DELIVERY_SERVICE_V5),
      list(`deliveryservices?id=${w.ds.id}`, DELIVERY_SERVICE_V5),
      list(`deliveryservices?id=${w.ds.id}`, DELIVERY_SERVICE_V5),
      dsStats(w.ds.xmlId, 'kbps'),
      dsStats(w.ds.xmlId, 'tps_total'),
      dsStats(w.ds.xmlId, 'tps_2xx'),
      dsStats(w.ds.xmlId, 'tps_3xx'),
      dsStats(w.ds.xmlId, 'tps_4xx'),
      dsStats(w.ds.xmlId, 'tps_5xx'),
    ],
  ],
  [
    'delivery service requests',
    [list('deliveryservice_requests?orderby=createdAt&sortOrder=desc', DS_REQUEST_V5)],
  ],
  [
    'delivery service request edit',
    [
      list(`deliveryservice_requests?id=${w.dsRequestId}`, DS_REQUEST_V5),
      list('topologies', TOPOLOGY_V5),
      list('types?useInTable=deliveryservice', TYPE_V5),
      list(
        `deliveryservice_request_comments?deliveryServiceRequestId=${w.dsRequestId}`,
        DS_REQUEST_COMMENT_V5,
      ),
    ],
  ],
  ['profiles', [list('profiles?orderby=name', PROFILE_V5)]],
  ['profile edit', [list(`profiles?id=${w.profile.id}`, PROFILE_V5), list('cdns', CDN_V5)]],
  [
    'profile parameters',
    [
      list(`profiles?id=${w.profile.id}`, PROFILE_V5),
      list(`profiles/${w.profile.id}/parameters`, PROFILE_PARAMETER_BY_NAME_V5),
    ],
  ],
  ['parameters', [list('parameters', PARAMETER_V5)]],
  ['parameter edit', [list(`parameters?id=${w.parameter.id}`, PARAMETER_V5)]],
  [
    'parameter profiles',
    [
      list(`parameters?id=${w.parameter.id}`, PARAMETER_V5),
      list(`profiles?param=${w.parameter.id}`, PROFILE_V5),
    ],
  ],
  ['types', [list('types', TYPE_V5)]],
  ['type edit', [list(`types?id=${w.edgeTypeId}`, TYPE_V5)]],
  [
    'type servers',
    [list(`types?id=${w.edgeTypeId}`, TYPE_V5), list('servers?type=EDGE&orderby=hostName', SERVER_V5)],
  ],
  [
    'type cache groups',
    [
      list(`types?id=${w.edgeGroup.typeId}`, TYPE_V5),
      list(`cachegroups?type=${w.edgeGroup.typeId}&orderby=name`, CACHEGROUP_V5),
    ],
  ],
  [
    'type delivery services',
    [
      list(`types?id=${w.ds.typeId}`, TYPE_V5),
      list(`deliveryservices?type=${w.ds.typeId}`, DELIVERY_SERVICE_V5),
      maybeEmpty('steering'),
    ],
  ],
  [
    'type static DNS entries',
    [
      list(`types?id=${w.aRecordTypeId}`, TYPE_V5),
      list('staticdnsentries?type=A_RECORD', STATIC_DNS_ENTRY_V5),
    ],
  ],
  ['statuses', [list('statuses', STATUS_V5)]],
  ['status edit', [list(`statuses?id=${w.onlineStatusId}`, STATUS_V5)]],
  [
    'status servers',
    [
      list(`statuses?id=${w.onlineStatusId}`, STATUS_V5),
      list('servers?status=ONLINE&orderby=hostName', SERVER_V5),
    ],
  ],
  ['divisions', [list('divisions', DIVISION_V5)]],
  ['division edit', [list(`divisions?id=${w.region.division}`, DIVISION_V5)]],
  [
    'division regions',
    [
      list(`divisions?id=${w.region.division}`, DIVISION_V5),
      list(`regions?division=${w.region.division}`, REGION_V5),
    ],
  ],
  ['regions', [list('regions', REGION_V5)]],
  ['region edit', [list(`regions?id=${w.region.id}`, REGION_V5), list('divisions', DIVISION_V5)]],
  [
    'region phys locations',
    [
      list(`regions?id=${w.region.id}`, REGION_V5),
      list(`phys_locations?region=${w.region.id}`, PHYS_LOCATION_V5),
    ],
  ],
  ['phys locations', [list('phys_locations', PHYS_LOCATION_V5)]],
  [
    'phys location edit',
    [list(`phys_locations?id=${w.physLocationId}`, PHYS_LOCATION_V5), list('regions', REGION_V5)],
  ],
  [
    'phys location servers',
    [
      list(`phys_locations?id=${w.physLocationId}`, PHYS_LOCATION_V5),
      list(`servers?physLocation=${w.physLocationId}&orderby=hostName`, SERVER_V5),
    ],
  ],
  ['tenants', [list('tenants?orderby=name', TENANT_V5)]],
  [
    'tenant edit',
    [list('tenants?id=1', TENANT_V5), list('tenants?id=1', TENANT_V5), list('tenants', TENANT_V5)],
  ],
  ['tenant users', [list('tenants?id=1', TENANT_V5), list('users?tenant=root', USER_V4)]],
  [
    'tenant delivery services',
    [
      list('tenants?id=1', TENANT_V5),
      list('deliveryservices?tenant=1', DELIVERY_SERVICE_V5),
      maybeEmpty('steering'),
    ],
  ],
  ['users', [list('users', USER_V4)]],
  [
    'user edit',
    [
      list(`users?id=${w.adminId}`, USER_V4),
      list('roles', ROLE_V4),
      list('tenants?id=1', TENANT_V5),
      list('tenants', TENANT_V5),
    ],
  ],
  ['own user', [list('roles', ROLE_V4), list('tenants', TENANT_V5)]],
  ['roles', [list('roles?orderby=name&sortOrder=asc', ROLE_V4)]],
  ['role edit', [list('roles?name=admin', ROLE_V4)]],
  ['role users', [list('roles?name=admin', ROLE_V4), list('users?role=admin', USER_V4)]],
  ['origins', [list('origins', ORIGIN_V5)]],
  [
    'origin edit',
    [
      list(`origins?id=${w.originId}`, ORIGIN_V5),
      list('profiles?orderby=name', PROFILE_V5),
      list('tenants?id=1', TENANT_V5),
      list('tenants', TENANT_V5),
      list('cachegroups?orderby=name', CACHEGROUP_V5),
      list('coordinates?orderby=name', COORDINATE_V5),
      list('deliveryservices', DELIVERY_SERVICE_V5),
    ],
  ],
  ['coordinates', [list('coordinates?orderby=name', COORDINATE_V5)]],
  [
    'coordinate edit',
    [
      list(`coordinates?id=${w.coordinateId}`, COORDINATE_V5),
      list('coordinates?orderby=name', COORDINATE_V5),
    ],
  ],
  ['service categories', [list('service_categories', SERVICE_CATEGORY_V5)]],
  ['service category edit', [list(`service_categories?name=${w.serviceCategory}`, SERVICE_CATEGORY_V5)]],
  [
    'service category delivery services',
    [
      list(`service_categories?name=${w.serviceCategory}`, SERVICE_CATEGORY_V5),
      list(`deliveryservices?serviceCategory=${w.serviceCategory}`, DELIVERY_SERVICE_V5),
      maybeEmpty('steering'),
    ],
  ],
  ['topologies', [list('topologies', TOPOLOGY_V5)]],
  ['topology edit', [list(`topologies?name=${w.topology}`, TOPOLOGY_V5), list('cachegroups', CACHEGROUP_V5)]],
  [
    'topology cache groups',
    [
      list(`topologies?name=${w.topology}`, TOPOLOGY_V5),
      list(`cachegroups?topology=${w.topology}`, CACHEGROUP_V5),
    ],
  ],
  [
    'topology delivery services',
    [
      list(`topologies?name=${w.topology}`, TOPOLOGY_V5),
      list(`deliveryservices?topology=${w.topology}`, DELIVERY_SERVICE_V5),
      maybeEmpty('steering'),
    ],
  ],
  [
    'topology servers',
    [list(`topologies?name=${w.topology}`, TOPOLOGY_V5), list(`servers?topology=${w.topology}`, SERVER_V5)],
  ],
  ['server capabilities', [list('server_capabilities', SERVER_CAPABILITY_V5)]],
  ['server capability edit', [list(`server_capabilities?name=${w.capability}`, SERVER_CAPABILITY_V5)]],
  [
    'server capability servers',
    [
      list(`server_capabilities?name=${w.capability}`, SERVER_CAPABILITY_V5),
      list(`server_server_capabilities?serverCapability=${w.capability}`, SERVER_SERVER_CAPABILITY_V5),
    ],
  ],
  [
    'server capability delivery services',
    [
      list(`server_capabilities?name=${w.capability}`, SERVER_CAPABILITY_V5),
      list(`deliveryservices?requiredCapability=${w.capability}`, DELIVERY_SERVICE_V5),
    ],
  ],
  ['cache checks', [list('servercheck', SERVER_CHECK)]],
  ['cache stats', [list('caches/stats', CACHE_DATA)]],
  ['notifications', [list('cdn_notifications', NOTIFICATION_V4)]],
  ['change logs', [list('logs?days=7', LOG_V5)]],
  ['invalidation requests', [list('jobs?orderby=startTime&sortOrder=desc', JOB_V4)]],
  ['new invalidation request', [list('deliveryservices', DELIVERY_SERVICE_V5)]],
  ['ISO generation', [list('servers?orderby=hostName', SERVER_V5), names('osversions')]],
  ['CDNi configuration requests', [list('OC/CI/configuration/requests', CDNI_REQUEST)]],
];

/** A world whose every field reads as 0: the page names, known before the seed exists. */
const PLACEHOLDER: World = new Proxy({} as World, {
  get: (_target, key): unknown => (key === Symbol.toPrimitive ? () => 0 : PLACEHOLDER),
});

describe('Traffic Portal 8.x page loads (API 5.0)', () => {
  const { app, admin } = useApp({ version: '5.0' });
  let portal: ApiClient;
  let world: World;

  const post = async <T>(path: string, body: unknown, client = admin): Promise<T> => {
    const res = await client.post(path, body);
    if (res.status !== 200) {
      throw new Error(`POST ${path} failed: ${res.status} ${res.text}`);
    }
    return responseOf<T>(res);
  };
  const regionOf = async (server: ServerResponse): Promise<{ id: number; division: number }> => {
    const physLocationId = (server as ServerResponse & { physLocationId: number }).physLocationId;
    const [location] = responseOf<{ regionId: number }[]>(
      await admin.get(`phys_locations?id=${physLocationId}`),
    );
    const [region] = responseOf<{ id: number; division: number }[]>(
      await admin.get(`regions?id=${location.regionId}`),
    );
    return region;
  };
  const idOf = async (path: string): Promise<number> =>
    responseOf<{ id: number }[]>(await admin.get(path))[0].id;

  /** A small CDN: two cache groups in a topology, an edge with a capability, a DS with an origin… */
  const seed = async (): Promise<World> => {
    const cdn = await createCdn(admin);
    const midGroup = await createCachegroup(admin, { typeName: 'MID_LOC' });
    const edgeGroup = await createCachegroup(admin, { parentCachegroupId: midGroup.id });
    const profile = await createProfile(admin, cdn.id);
    const parameter = await createParameter(admin);
    await assignParameter(admin, profile.id, parameter.id);
    const edge = await createServer(admin, cdn.id, { cachegroupId: edgeGroup.id, profileName: profile.name });
    await createServer(admin, cdn.id, { cachegroupId: midGroup.id, typeName: 'MID' });
    await post('asns', { asn: 64512 + edgeGroup.id, cachegroupId: edgeGroup.id });
    const capability = uniqueName('cap');
    await post('server_capabilities', { name: capability });
    await post('server_server_capabilities', { serverId: edge.id, serverCapability: capability });
    const topology = uniqueName('topo');
    await post('topologies', {
      name: topology,
      description: 'edge and mid',
      nodes: [
        { cachegroup: edgeGroup.name, parents: [1] },
        { cachegroup: midGroup.name, parents: [] },
      ],
    });
    const serviceCategory = uniqueName('sc');
    await post('service_categories', { name: serviceCategory });
    const ds = await createDeliveryService(admin, cdn.id, { topology, serviceCategory });
    const coordinate = await post<{ id: number }>('coordinates', {
      name: uniqueName('coord'),
      latitude: 40,
      longitude: -105,
    });
    const origin = await post<{ id: number }>('origins', {
      name: uniqueName('origin'),
      fqdn: 'origin.example.net',
      protocol: 'http',
      deliveryServiceId: ds.id,
      tenantId: 1,
      isPrimary: true,
      cachegroupId: midGroup.id,
      coordinateId: coordinate.id,
      profileId: profile.id,
    });
    await post('jobs', {
      deliveryService: ds.xmlId,
      regex: '/images/.*',
      startTime: new Date(Date.now() + 3600_000).toISOString(),
      ttlHours: 24,
      invalidationType: 'REFRESH',
    });
    const httpType = await typeIdOf(admin, 'HTTP');
    const dsRequest = await post<{ id: number }>('deliveryservice_requests', {
      changeType: 'create',
      status: 'draft',
      requested: { ...deliveryServiceBody(cdn.id, httpType), active: 'ACTIVE' },
    });
    await post('cdn_notifications', { cdn: cdn.name, notification: 'maintenance tonight' });
    const aRecordTypeId = await typeIdOf(admin, 'A_RECORD');
    const staticDnsEntry = await post<{ id: number }>('staticdnsentries', {
      host: 'www',
      address: '192.0.2.80',
      ttl: 300,
      typeId: aRecordTypeId,
      deliveryServiceId: ds.id,
    });
    await post('cdns/dnsseckeys/generate', {
      key: cdn.name,
      ttl: 60,
      kskExpirationDays: 365,
      zskExpirationDays: 30,
    });
    await post('deliveryservice_request_comments', {
      deliveryServiceRequestId: dsRequest.id,
      value: 'looks good',
    });
    // A uCDN's queued configuration request (the admin acts for it with ?ucdn=).
    const token = signHs256(
      { iss: '', aud: CDNI_DCDN_ID, exp: Math.floor(Date.now() / 1000) + 3600 },
      CDNI_JWT_DECODING_SECRET,
    );
    const queued = await admin
      .put('OC/CI/configuration?ucdn=ucdn1', { type: 'MI.HostMetadata', host: 'example.com', metadata: [] })
      .set('Authorization', `Bearer ${token}`);
    if (queued.status !== 202) {
      throw new Error(`PUT OC/CI/configuration failed: ${queued.status} ${queued.text}`);
    }
    // Last: the lock holds the CDN for the admin only.
    await post('cdn_locks', { cdn: cdn.name, message: 'portal replay', soft: true });
    return {
      cdn,
      edgeGroup,
      midGroup,
      edge,
      profile,
      parameter,
      ds,
      region: await regionOf(edge),
      topology,
      capability,
      serviceCategory,
      coordinateId: coordinate.id,
      originId: origin.id,
      dsRequestId: dsRequest.id,
      edgeTypeId: await typeIdOf(admin, 'EDGE'),
      staticDnsEntryId: staticDnsEntry.id,
      aRecordTypeId,
      physLocationId: (edge as ServerResponse & { physLocationId: number }).physLocationId,
      onlineStatusId: await idOf('statuses?name=ONLINE'),
      adminId: await idOf('users?username=admin'),
    };
  };

  beforeAll(async () => {
    portal = await ApiClient.admin(app, '5.0');
    world = await seed();
  });

  /** The sorted keys of a record, and the shape's keys the record must have. */
  const expectGoType = (call: Call, record: unknown): void => {
    expect(record).toEqual(expect.any(Object));
    const keys = Object.keys(record as object).sort();
    const shape = call.shape as GoType;
    const required = shape.keys.filter((k) => !shape.optional.includes(k)).sort();
    expect({ path: call.path, unknown: keys.filter((k) => !shape.keys.includes(k)) }).toEqual({
      path: call.path,
      unknown: [],
    });
    expect({ path: call.path, missing: required.filter((k) => !keys.includes(k)) }).toEqual({
      path: call.path,
      missing: [],
    });
  };

  const replay = async (calls: Call[]): Promise<void> => {
    for (const call of [...header(), ...calls]) {
      const res = await portal.get(call.path);
      expect({ path: call.path, status: res.status }).toEqual({ path: call.path, status: 200 });
      const response = (res.body as { response: unknown }).response;
      if (call.answer === 'object') {
        expectGoType(call, response);
        continue;
      }
      if (call.answer === 'keyed' || call.answer === 'names') {
        expect(response).toEqual(expect.any(Object));
        const values = Object.values(response as object) as unknown[];
        expect({ path: call.path, empty: values.length === 0 }).toEqual({ path: call.path, empty: false });
        for (const value of values) {
          if (call.answer === 'keyed') {
            expectGoType(call, value);
          } else {
            expect({ path: call.path, type: typeof value }).toEqual({ path: call.path, type: 'string' });
          }
        }
        continue;
      }
      expect({ path: call.path, isArray: Array.isArray(response) }).toEqual({
        path: call.path,
        isArray: true,
      });
      const records = response as unknown[];
      if (call.answer === 'list') {
        expect({ path: call.path, empty: records.length === 0 }).toEqual({ path: call.path, empty: false });
        expectGoType(call, records[0]);
      }
    }
  };

  it('own user page saves the current user as it read it (PUT user/current)', async () => {
    // The page PUTs the object GET user/current answered, edited, as the portal's UserService does.
    const current = responseOf<Record<string, unknown>>(await portal.get('user/current'));
    // The seeded admin has no email; the form requires one, as the original's validation does.
    const res = await portal.put('user/current', {
      ...current,
      fullName: 'Portal Admin',
      email: 'admin@example.net',
    });
    expect({ status: res.status, body: res.body as unknown }).toEqual({
      status: 200,
      body: expect.objectContaining({ response: expect.objectContaining({ fullName: 'Portal Admin' }) }),
    });
    expectGoType(object('user/current', USER_V4), (res.body as { response: unknown }).response);
  });

  it.each(pages(PLACEHOLDER).map(([name]) => name))('%s', async (name) => {
    const page = pages(world).find(([n]) => n === name);
    await replay((page as [string, Call[]])[1]);
  });
});
