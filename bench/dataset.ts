/**
 * The comparison data set, created through the API (4.0) as an operator would: one extra CDN, and in
 * the CDN `bench` 300 ASNs, 300 HTTP delivery services and 1,000 EDGE servers in one cache group, each
 * server with one interface carrying an IPv4 and an IPv6 service address. The three bulk creations are
 * the write scenarios: WRITERS clients at once, each posting one record after another, after a warm-up
 * of the same routes (WARM_UP).
 */
import type { BenchClient } from './client';

export const WRITERS = 8;

export interface DatasetSize {
  asns: number;
  deliveryServices: number;
  servers: number;
}

export const COMPARISON_DATASET: DatasetSize = { asns: 300, deliveryServices: 300, servers: 1000 };

/** The records of each kind created and deleted before the measured creations (see `createDataset`). */
export const WARM_UP: DatasetSize = { asns: 200, deliveryServices: 100, servers: 200 };

/** A write scenario's median batch (by rate), and the rate of each of its batches in the order run. */
export interface WriteRate {
  scenario: string;
  count: number;
  seconds: number;
  cpuMicros: number;
  /** Records per second of each batch: the extra ones first, the data set's own last. */
  batchRates: number[];
}

/**
 * Batches measured per write scenario: the data set's own and, before it, this many less one of the
 * same size created then deleted. A batch of a few hundred creations lasts well under a second, and
 * its rate moves by a third from one to the next; the median of three is the one reported.
 */
export const WRITE_BATCHES = 3;

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

  const asn = (number: number) => ({ asn: number, cachegroupId: cachegroup.id });
  const deliveryService = (name: string, displayName: string, i: number) => ({
    active: true,
    anonymousBlockingEnabled: false,
    cdnId: cdn.id,
    deepCachingType: 'NEVER',
    displayName: `${displayName} ${i}`,
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
    xmlId: `${name}-ds-${i}`,
  });
  /** A server of `network` (a scenario's batch: see `scenarios`). */
  const server = (name: string, network: number, i: number) => ({
    hostName: `${name}-${i}`,
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
            address: `198.${18 + network}.${i >> 8}.${i & 255}/24`,
            gateway: `198.${18 + network}.${i >> 8}.1`,
            serviceAddress: true,
          },
          { address: `2001:db8:${network}::${(i + 1).toString(16)}/64`, gateway: null, serviceAddress: true },
        ],
      },
    ],
  });

  /**
   * The three write scenarios. A scenario's records are numbered by batch: batch 0 is the data set's
   * own, batch 1 the warm-up's, 2 and up the extra measured batches'; each batch's records (numbers,
   * names, addresses) are apart from every other's.
   */
  const scenarios: {
    scenario: string;
    count: number;
    warmUp: number;
    // (a delivery service's creation answers a list of the one created)
    create: (batch: number, i: number, writer: BenchClient) => Promise<{ id: number } | { id: number }[]>;
    remove: (id: number) => string;
  }[] = [
    {
      scenario: 'POST /api/4.0/asns',
      count: size.asns,
      warmUp: WARM_UP.asns,
      create: (batch, i, writer) =>
        writer.ok(
          'POST',
          '/api/4.0/asns',
          asn(batch === 0 ? 64512 + i : 4_100_000_000 + batch * 100_000 + i),
        ),
      remove: (id) => `/api/4.0/asns?id=${id}`,
    },
    {
      scenario: 'POST /api/4.0/deliveryservices',
      count: size.deliveryServices,
      warmUp: WARM_UP.deliveryServices,
      create: (batch, i, writer) =>
        writer.ok(
          'POST',
          '/api/4.0/deliveryservices',
          batch === 0
            ? deliveryService('bench', 'Bench delivery service', i)
            : deliveryService(`batch${batch}`, `Batch ${batch} delivery service`, i),
        ),
      remove: (id) => `/api/4.0/deliveryservices/${id}`,
    },
    {
      scenario: 'POST /api/4.0/servers',
      count: size.servers,
      warmUp: WARM_UP.servers,
      create: (batch, i, writer) =>
        writer.ok('POST', '/api/4.0/servers', server(batch === 0 ? 'edge' : `batch${batch}`, batch, i)),
      remove: (id) => `/api/4.0/servers/${id}`,
    },
  ];

  /** `count` records of a scenario's `batch` created, timed (with `cpu`), then deleted. */
  const createThenDelete = async (
    { create, remove }: (typeof scenarios)[number],
    batch: number,
    count: number,
    cpu: () => number,
  ): Promise<{ seconds: number; cpuMicros: number }> => {
    const ids: number[] = [];
    const timing = await concurrently(
      client,
      count,
      async (i, writer) => {
        const created = await create(batch, i, writer);
        ids.push(Array.isArray(created) ? created[0].id : created.id);
      },
      cpu,
    );
    await concurrently(
      client,
      ids.length,
      (i, writer) => writer.ok('DELETE', remove(ids[i])),
      () => 0,
    );
    return timing;
  };

  // The warm-up: records of each kind created, then deleted, through the same routes, so that the
  // rates below are those of a running server (Node compiles a route's code while it first serves it;
  // the original, compiled ahead of time, has nothing to warm). It leaves nothing but ids and change-log
  // entries behind.
  for (const scenario of scenarios) {
    await createThenDelete(scenario, 1, scenario.warmUp, () => 0);
  }

  // Each scenario's batches: WRITE_BATCHES - 1 extra ones created then deleted, then the data set's
  // own; the median by rate is reported, with every batch's rate.
  const rates: WriteRate[] = [];
  for (const scenario of scenarios) {
    const batches: { seconds: number; cpuMicros: number }[] = [];
    for (let batch = 2; batch <= WRITE_BATCHES; batch++) {
      batches.push(await createThenDelete(scenario, batch, scenario.count, serverCpu));
    }
    batches.push(
      await concurrently(client, scenario.count, (i, writer) => scenario.create(0, i, writer), serverCpu),
    );
    const median = [...batches].sort((a, b) => b.seconds - a.seconds)[Math.floor(batches.length / 2)];
    rates.push({
      scenario: scenario.scenario,
      count: scenario.count,
      ...median,
      batchRates: batches.map((b) => scenario.count / b.seconds),
    });
  }
  return rates;
}
