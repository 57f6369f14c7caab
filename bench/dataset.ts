/**
 * The comparison data set, created through the API (4.0) as an operator would: one extra CDN, and in
 * the CDN `bench` 300 ASNs, 300 HTTP delivery services and 1,000 EDGE servers in one cache group, each
 * server with one interface carrying an IPv4 and an IPv6 service address. The three bulk creations are
 * the write scenarios: WRITERS clients at once, each posting one record after another.
 */
import type { BenchClient } from './client';

export const WRITERS = 8;

export interface DatasetSize {
  asns: number;
  deliveryServices: number;
  servers: number;
}

export const COMPARISON_DATASET: DatasetSize = { asns: 300, deliveryServices: 300, servers: 1000 };

/** One write scenario: how many records, how long it took, and the server's CPU for it. */
export interface WriteRate {
  scenario: string;
  count: number;
  seconds: number;
  cpuMicros: number;
}

/** Runs `count` writes, WRITERS at a time (each writer with its own connection), and times them. */
async function concurrently(
  client: BenchClient,
  count: number,
  write: (index: number, writer: BenchClient) => Promise<unknown>,
  serverCpu: () => number,
): Promise<{ seconds: number; cpuMicros: number }> {
  let next = 0;
  const cpuBefore = serverCpu();
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: WRITERS }, async () => {
      const writer = client.fork();
      try {
        while (next < count) {
          await write(next++, writer);
        }
      } finally {
        writer.close();
      }
    }),
  );
  return {
    seconds: Number(process.hrtime.bigint() - started) / 1e9,
    cpuMicros: serverCpu() - cpuBefore,
  };
}

async function idOf(client: BenchClient, path: string): Promise<number> {
  const [row] = await client.ok<{ id: number }[]>('GET', path);
  if (!row) {
    throw new Error(`GET ${path} found nothing`);
  }
  return row.id;
}

/** Creates the data set and answers the rates of its three write scenarios. */
export async function createDataset(
  client: BenchClient,
  size: DatasetSize,
  serverCpu: () => number,
): Promise<WriteRate[]> {
  await client.ok('POST', '/api/4.0/cdns', {
    name: 'bench-extra',
    domainName: 'extra.bench.example.net',
    dnssecEnabled: false,
  });
  const cdn = await client.ok<{ id: number }>('POST', '/api/4.0/cdns', {
    name: 'bench',
    domainName: 'bench.example.net',
    dnssecEnabled: false,
  });
  const division = await client.ok<{ id: number }>('POST', '/api/4.0/divisions', { name: 'bench-division' });
  const region = await client.ok<{ id: number }>('POST', '/api/4.0/regions', {
    name: 'bench-region',
    division: division.id,
  });
  const physLocation = await client.ok<{ id: number }>('POST', '/api/4.0/phys_locations', {
    name: 'bench-location',
    shortName: 'bench',
    address: '1 Bench Street',
    city: 'Denver',
    state: 'CO',
    zip: '80202',
    regionId: region.id,
  });
  const cachegroup = await client.ok<{ id: number }>('POST', '/api/4.0/cachegroups', {
    name: 'bench-edge',
    shortName: 'bench-edge',
    latitude: 39.74,
    longitude: -104.99,
    typeId: await idOf(client, '/api/4.0/types?name=EDGE_LOC'),
  });
  const profile = await client.ok<{ name: string }>('POST', '/api/4.0/profiles', {
    name: 'BENCH_EDGE',
    description: 'edges of the bench CDN',
    cdn: cdn.id,
    type: 'ATS_PROFILE',
    routingDisabled: false,
  });
  const statusId = await idOf(client, '/api/4.0/statuses?name=REPORTED');
  const edgeType = await idOf(client, '/api/4.0/types?name=EDGE');
  const httpType = await idOf(client, '/api/4.0/types?name=HTTP');

  const rates: WriteRate[] = [];
  const measured = async (
    scenario: string,
    count: number,
    write: (i: number, writer: BenchClient) => Promise<unknown>,
  ) => rates.push({ scenario, count, ...(await concurrently(client, count, write, serverCpu)) });

  await measured('POST /api/4.0/asns', size.asns, (i, writer) =>
    writer.ok('POST', '/api/4.0/asns', { asn: 64512 + i, cachegroupId: cachegroup.id }),
  );
  await measured('POST /api/4.0/deliveryservices', size.deliveryServices, (i, writer) =>
    writer.ok('POST', '/api/4.0/deliveryservices', {
      active: true,
      anonymousBlockingEnabled: false,
      cdnId: cdn.id,
      deepCachingType: 'NEVER',
      displayName: `Bench delivery service ${i}`,
      dscp: 0,
      ecsEnabled: false,
      geoLimit: 0,
      geoProvider: 0,
      initialDispersion: 1,
      ipv6RoutingEnabled: true,
      logsEnabled: false,
      missLat: 39.74,
      missLong: -104.99,
      multiSiteOrigin: false,
      orgServerFqdn: `http://origin-${i}.example.net`,
      protocol: 0,
      qstringIgnore: 0,
      rangeRequestHandling: 0,
      regionalGeoBlocking: false,
      routingName: 'cdn',
      tenantId: 1,
      typeId: httpType,
      xmlId: `bench-ds-${i}`,
    }),
  );
  await measured('POST /api/4.0/servers', size.servers, (i, writer) =>
    writer.ok('POST', '/api/4.0/servers', {
      hostName: `edge-${i}`,
      domainName: 'bench.example.net',
      cachegroupId: cachegroup.id,
      cdnId: cdn.id,
      physLocationId: physLocation.id,
      profileNames: [profile.name],
      statusId,
      typeId: edgeType,
      interfaces: [
        {
          name: 'eth0',
          monitor: true,
          mtu: 1500,
          maxBandwidth: null,
          ipAddresses: [
            {
              address: `198.18.${i >> 8}.${i & 255}/24`,
              gateway: `198.18.${i >> 8}.1`,
              serviceAddress: true,
            },
            { address: `2001:db8::${(i + 1).toString(16)}/64`, gateway: null, serviceAddress: true },
          ],
        },
      ],
    }),
  );
  return rates;
}
