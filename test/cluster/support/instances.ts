import type { INestApplication } from '@nestjs/common';
import type { App } from 'supertest/types';
import { DataSource } from 'typeorm';
import { type ClusterLayout, layoutFromEnv, sqlPort } from 'test/cluster/support/galera';
import { ApiClient } from 'test/e2e/support/api';
import { createTestAppWithEnv } from 'test/e2e/support/app';

export const CLUSTER_DATABASE = 'cdn_cluster';

/** DATABASE_URL naming the nodes `order` (0-based) of the cluster, in that order. */
export function clusterUrl(layout: ClusterLayout, order: number[]): string {
  return `mysql://root@${order.map((i) => `127.0.0.1:${sqlPort(layout, i)}`).join(',')}/${CLUSTER_DATABASE}`;
}

/** One instance of the service per node: instance i names node i first, then the others. */
export interface Instances {
  layout: ClusterLayout;
  apps: INestApplication[];
  /** An admin client of each instance, all with the session the first one signed in. */
  admins: ApiClient[];
  close(): Promise<void>;
}

export async function startInstances(): Promise<Instances> {
  const layout = layoutFromEnv();
  const apps: INestApplication[] = [];
  for (let i = 0; i < layout.nodes; i++) {
    const order = Array.from({ length: layout.nodes }, (_, n) => (i + n) % layout.nodes);
    // One after the other: the first creates the admin user.
    apps.push(await createTestAppWithEnv({ DATABASE_URL: clusterUrl(layout, order) }));
  }
  const first = await ApiClient.admin(apps[0]);
  const admins = apps.map((app) => new ApiClient(app.getHttpServer() as App, '4.0', first.cookie));
  return {
    layout,
    apps,
    admins,
    close: async () => {
      for (const app of apps) {
        await app.close();
      }
    },
  };
}

/** The SQL port of the node the instance's next query goes to. */
export async function nodePortOf(app: INestApplication): Promise<number> {
  const rows = await app.get(DataSource).query<{ port: number }[]>('SELECT @@port AS port');
  return Number(rows[0].port);
}
