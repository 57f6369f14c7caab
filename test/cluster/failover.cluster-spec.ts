import type { Response } from 'supertest';
import { killNode, nodeStatus, restartNode, waitFor } from 'test/cluster/support/galera';
import { type Instances, nodePortOf, startInstances } from 'test/cluster/support/instances';
import { responseOf, uniqueName } from 'test/e2e/support/api';

interface Outcome {
  instance: number;
  at: number;
  write: boolean;
  res: Response;
  name?: string;
}

const UNAVAILABLE = 'the database is unavailable; please retry later';
const BUSY = 'the database is busy; please retry the request';

/**
 * The loss of a node under load: node 2 is killed (SIGKILL) while six clients keep writing and
 * reading through the three instances. Requests that were on that node may fail with a 503 and an
 * alert; its instance then serves through another node; the node is restarted, rejoins by an
 * incremental state transfer and its instance goes back to it; and every write acknowledged with a
 * 2xx is there afterwards, once.
 */
describe('failover: a node killed in the middle of a mixed load', () => {
  let cluster: Instances;

  beforeAll(async () => {
    cluster = await startInstances();
  });

  afterAll(() => cluster.close());

  it('loses no acknowledged write, and moves the dead node’s instance to another node and back', async () => {
    const { admins, apps, layout } = cluster;
    const prefix = uniqueName('fo', 20);
    const outcomes: Outcome[] = [];
    let running = true;
    let sequence = 0;
    const worker = async (instance: number): Promise<void> => {
      while (running) {
        const n = sequence++;
        if (n % 3 === 2) {
          const res = await admins[instance].get('divisions?orderby=id&limit=5');
          outcomes.push({ instance, at: Date.now(), write: false, res });
        } else {
          const name = `${prefix}-${n}`;
          const res = await admins[instance].post('divisions', { name });
          outcomes.push({ instance, at: Date.now(), write: true, res, name });
        }
      }
    };
    const successesOn = (instance: number, after: number) =>
      outcomes.filter((o) => o.instance === instance && o.at > after && o.res.status === 200).length;

    const workers = [0, 1, 2, 0, 1, 2].map((instance) => worker(instance));
    try {
      await waitFor('some load on every instance', () =>
        Promise.resolve([0, 1, 2].every((i) => successesOn(i, 0) >= 5)),
      );
      killNode(layout, 1);
      const killedAt = Date.now();
      // The dead node's instance serves again, through another node.
      await waitFor(
        'instance 2 to serve through another node',
        () => Promise.resolve(successesOn(1, killedAt) >= 10),
        30_000,
      );
      const failedOver = outcomes.find(
        (o) => o.instance === 1 && o.at > killedAt && o.res.status === 200,
      )!.at;
      process.stdout.write(
        `failover: instance 2 served again ${failedOver - killedAt} ms after its node was killed\n`,
      );
      expect(await nodePortOf(apps[1])).not.toBe(layout.basePort + 1);

      await restartNode(layout, 1);
      expect(await nodeStatus(layout, 0, 'wsrep_cluster_size')).toBe('3');
      // Back on its own node once the retry delay has passed.
      await waitFor(
        'instance 2 to use node 2 again',
        async () => (await nodePortOf(apps[1])) === layout.basePort + 1,
        30_000,
      );
      const rejoinedAt = Date.now();
      await waitFor(
        'load on the rejoined node',
        () => Promise.resolve(successesOn(1, rejoinedAt) >= 10),
        30_000,
      );
    } finally {
      running = false;
      await Promise.all(workers);
    }

    // Failures are 503s with an alert, never a 500.
    const failed = outcomes.filter((o) => o.res.status !== 200);
    for (const o of failed) {
      expect(o.res.status).toBe(503);
      expect([UNAVAILABLE, BUSY]).toContain((o.res.body as { alerts: { text: string }[] }).alerts[0].text);
    }
    // Every acknowledged write is there, once, whichever instance is asked.
    const acknowledged = outcomes
      .filter((o) => o.write && o.res.status === 200)
      .map((o) => ({ name: o.name!, id: responseOf<{ id: number }>(o.res).id }));
    expect(acknowledged.length).toBeGreaterThan(30);
    expect(new Set(acknowledged.map((a) => a.id)).size).toBe(acknowledged.length);
    for (const [k, { id, name }] of acknowledged.entries()) {
      const res = await admins[k % 3].get(`divisions?id=${id}`);
      expect(responseOf<{ id: number; name: string }[]>(res)).toEqual([
        expect.objectContaining({ id, name }),
      ]);
    }
    const listed = responseOf<{ name: string }[]>(await admins[2].get('divisions'))
      .map((d) => d.name)
      .filter((name) => name.startsWith(`${prefix}-`));
    for (const { name } of acknowledged) {
      expect(listed.filter((n) => n === name)).toHaveLength(1);
    }
  });
});
