import 'tsconfig-paths/register';
import { rmSync } from 'node:fs';
import { layoutFromEnv, stopCluster } from 'test/cluster/support/galera';

/** Stops every node of the cluster and removes its data directories (CLUSTER_KEEP=1 keeps them). */
export default async function globalTeardown(): Promise<void> {
  const layout = layoutFromEnv();
  if (!layout.dir) {
    return;
  }
  await stopCluster(layout);
  if (process.env.CLUSTER_KEEP !== '1') {
    rmSync(layout.dir, { recursive: true, force: true });
  }
}
