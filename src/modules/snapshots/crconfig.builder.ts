import type { SnapshotsRepository } from './snapshots.repository';
import type { CRConfigStaticDnsEntry } from 'src/modules/static-dns-entries/dto/static-dns-entry.response';
import type { CRConfig } from './dto/crconfig.response';
import { type CdnRow, snapshotTopologies, sortedObject, str } from './snapshot-queries';
import { tf } from './crconfig-parts';
import { crConfigDeliveryServices } from './crconfig-delivery-services';
import { crConfigLocations, crConfigServers } from './crconfig-servers';

/**
 * The static DNS entries of a CDN's active delivery services by XML id, each with the CDN's TTL
 * override applied (the static DNS entries module's `crConfigEntries`, which owns them).
 */
export type StaticDnsEntriesReader = (
  cdnId: number,
  ttlOverride: number | null,
) => Promise<Map<string, CRConfigStaticDnsEntry[]>>;

/** Who and where the document is made, for its `stats`. */
export interface CRConfigContext {
  user: string;
  version: string;
}

/**
 * Builds a CDN's CRConfig (docs/original-behaviour.md#snapshots) with a fixed set of queries, each
 * over the whole CDN: their number does not grow with the number of servers, delivery services or
 * cache groups.
 */
export class CRConfigBuilder {
  constructor(
    private readonly snapshots: SnapshotsRepository,
    private readonly staticDnsEntries: StaticDnsEntriesReader,
  ) {}

  async build(cdn: CdnRow, context: CRConfigContext): Promise<CRConfig> {
    const config = await this.config(cdn);
    const { servers, routers, monitors } = await crConfigServers(this.snapshots, cdn);
    const { edge, router } = await crConfigLocations(this.snapshots, cdn);
    const deliveryServices = await crConfigDeliveryServices(this.snapshots, this.staticDnsEntries, cdn);
    const document: CRConfig = { config } as CRConfig;
    const maps: [keyof CRConfig, Record<string, unknown>][] = [
      ['contentServers', servers],
      ['contentRouters', routers],
      ['deliveryServices', deliveryServices],
      ['edgeLocations', edge],
      ['trafficRouterLocations', router],
      ['monitors', monitors],
    ];
    for (const [key, map] of maps) {
      if (Object.keys(map).length > 0) {
        (document as unknown as Record<string, unknown>)[key] = map;
      }
    }
    document.stats = {
      CDN_name: cdn.name,
      date: Math.floor(Date.now() / 1000),
      tm_host: await this.trafficOpsHost(),
      tm_user: context.user,
      tm_version: context.version,
    };
    const topologies = snapshotTopologies(await this.snapshots.topologyEdgeCachegroups());
    if (Object.keys(topologies).length > 0) {
      document.topologies = topologies;
    }
    return document;
  }

  /** The host (and port) of the global `tm.url` parameter; empty without one. */
  private async trafficOpsHost(): Promise<string> {
    const [row] = await this.snapshots.trafficOpsUrl();
    let url = str(row?.value);
    if (!url.startsWith('http://') && !url.startsWith('https://')) {
      url = `http://${url}`;
    }
    try {
      return new URL(url).host;
    } catch {
      const bare = url.replace(/^https?:\/\//, '');
      const slash = bare.indexOf('/');
      return slash === -1 ? bare : bare.slice(0, slash);
    }
  }

  /** `config`: the CRConfig.json parameters of the profiles of the CDN's Traffic Routers. */
  private async config(cdn: CdnRow): Promise<Record<string, unknown>> {
    const params = await this.snapshots.routerConfigParameters(cdn.id);
    const soa = new Map<string, string>();
    const ttls = new Map<string, string>();
    const overrides: { countryCode: string; lat: number; long: number }[] = [];
    const config = new Map<string, unknown>();
    for (const param of params) {
      const name = str(param.name);
      const value = str(param.value);
      if (name.startsWith('tld.soa.')) {
        soa.set(name.slice('tld.soa.'.length), value);
      } else if (name.startsWith('tld.ttls.')) {
        ttls.set(name.slice('tld.ttls.'.length), value);
      } else if (name === 'LogRequestHeaders') {
        config.set(
          'requestHeaders',
          value.split('__RETURN__').map((header) => header.trim()),
        );
      } else if (name === 'maxmind.default.override') {
        const override = maxmindOverride(value);
        if (override) {
          overrides.push(override);
        }
      } else {
        config.set(name, value);
      }
    }
    config.set('domain_name', cdn.domainName);
    if (soa.size > 0) {
      config.set('soa', sortedObject(soa));
    }
    if (ttls.size > 0) {
      config.set('ttls', sortedObject(ttls));
    }
    if (overrides.length > 0) {
      config.set('maxmindDefaultOverride', overrides);
    }
    config.set('dnssec.enabled', tf(cdn.dnssecEnabled));
    return sortedObject(config);
  }
}

/** `maxmind.default.override`: `<country code>;<latitude>,<longitude>`; a malformed one is left out. */
function maxmindOverride(value: string): { countryCode: string; lat: number; long: number } | undefined {
  const [countryCode, coordinates] = value.split(';');
  if (coordinates === undefined) {
    return undefined;
  }
  const [lat, long] = coordinates.split(',');
  if (long === undefined || lat.trim() === '' || long.trim() === '') {
    return undefined;
  }
  const latitude = Number(lat);
  const longitude = Number(long);
  if (Number.isNaN(latitude) || Number.isNaN(longitude)) {
    return undefined;
  }
  return { countryCode, lat: latitude, long: longitude };
}
