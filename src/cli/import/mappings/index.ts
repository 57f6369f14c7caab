import type { TableMapping } from 'src/cli/import/mapping';
import * as cdn from './cdns';
import * as ds from './delivery-services';
import * as fed from './federations';
import * as loc from './locations';
import * as people from './people';
import * as prof from './profiles';
import * as srv from './servers';
import * as topo from './topologies';
import * as work from './work';

/** Every copied table, parents before the tables that refer to them (deleted in reverse). */
export const MAPPINGS: readonly TableMapping[] = [
  people.tenants,
  people.roles,
  people.rolePermissions,
  people.users,
  cdn.types,
  cdn.statuses,
  cdn.cdns,
  cdn.cdnLocks,
  cdn.cdnLockUsers,
  cdn.cdnNotifications,
  loc.divisions,
  loc.regions,
  loc.physLocations,
  loc.coordinates,
  loc.cachegroups,
  loc.cachegroupFallbacks,
  loc.cachegroupLocalizationMethods,
  loc.asns,
  prof.profiles,
  prof.parameters,
  prof.profileParameters,
  srv.serverCapabilities,
  topo.serviceCategories,
  topo.topologies,
  topo.topologyCachegroups,
  topo.topologyCachegroupParents,
  srv.servers,
  srv.serverProfiles,
  srv.interfaces,
  srv.ipAddresses,
  srv.serverServerCapabilities,
  srv.extensions,
  srv.serverChecks,
  ds.deliveryServices,
  ds.consistentHashQueryParams,
  ds.regexes,
  ds.deliveryServiceRegexes,
  ds.tlsVersions,
  ds.requiredCapabilities,
  ds.deliveryServiceServers,
  ds.origins,
  ds.steeringTargets,
  ds.staticDnsEntries,
  work.jobs,
  work.deliveryServiceRequests,
  work.deliveryServiceRequestComments,
  fed.federations,
  fed.federationDeliveryServices,
  fed.federationResolvers,
  fed.federationFederationResolvers,
  fed.federationUsers,
  work.changeLog,
  cdn.snapshots,
];
