import { randomInt } from 'node:crypto';
import { DataSource } from 'typeorm';
import { responseOf } from 'test/e2e/support/api';
import { createCachegroup, typeIdOf } from 'test/e2e/support/fixtures/cachegroups';
import { deliveryServiceBody } from 'test/e2e/support/fixtures/delivery-services-api';
import { createCdn } from 'test/e2e/support/fixtures/profiles';
import { useApp } from 'test/e2e/support/suite';

/**
 * The statements one write issues, each as its verb and first table (`SELECT (…)` for a select from a
 * subquery), BEGIN and COMMIT included: what docs/performance.md ("Statements per write") counts.
 * Each write is measured the second time it is made, so that the first one has filled the caches
 * (the database's features), from its transaction's BEGIN on: the session check before it reads the
 * user only when the short-lived session cache has no entry, which depends on timing.
 */
describe('statements per write', () => {
  const { app, admin } = useApp();
  let dataSource: DataSource;
  let recording: string[] | undefined;

  const shape = (sql: string): string => {
    const text = sql.replace(/\s+/g, ' ').trim();
    if (/^(START|BEGIN) TRANSACTION/i.test(text)) {
      return 'BEGIN';
    }
    const verb = text.split(' ')[0].toUpperCase();
    const table =
      /^(?:INSERT INTO|UPDATE|DELETE FROM)\s+[`"]?(\w+)/i.exec(text)?.[1] ??
      / FROM\s+(\(|[`"]?\w+)/i.exec(text)?.[1]?.replace(/[`"]/g, '');
    return table ? `${verb} ${table === '(' ? '(…)' : table}` : verb;
  };
  /** The shapes of the statements `write` issued (made once before, unrecorded). */
  const statementsOf = async (write: () => Promise<void>): Promise<string[]> => {
    await write();
    const recorded: string[] = [];
    recording = recorded;
    try {
      await write();
    } finally {
      recording = undefined;
    }
    const shapes = recorded.map(shape);
    return shapes.slice(Math.max(0, shapes.indexOf('BEGIN')));
  };
  /** Whether the database answers an INSERT's new row itself (INSERT … RETURNING). */
  const insertReturns = async (): Promise<boolean> => {
    if (dataSource.options.type !== 'mysql') {
      return true;
    }
    const [{ version }] = await dataSource.query<{ version: string }[]>('SELECT VERSION() AS version');
    const mariadb = /^(\d+)\.(\d+)\..*mariadb/i.exec(version);
    return mariadb !== null && Number(mariadb[1]) * 1000 + Number(mariadb[2]) >= 10_005;
  };

  let cdnId: number, httpType: number;

  beforeAll(async () => {
    dataSource = app.get(DataSource);
    const logger = dataSource.logger;
    const logQuery = logger.logQuery.bind(logger);
    logger.logQuery = (query, parameters, runner) => {
      recording?.push(query);
      logQuery(query, parameters, runner);
    };
    cdnId = (await createCdn(admin)).id;
    httpType = await typeIdOf(admin, 'HTTP');
  });

  it('POST asns: the INSERT answers the new row where the database can, and the change log', async () => {
    const cachegroup = await createCachegroup(admin);
    const statements = await statementsOf(async () => {
      const res = await admin.post('asns', { asn: randomInt(1, 2 ** 31), cachegroupId: cachegroup.id });
      expect(res.status).toBe(200);
    });
    expect(statements).toEqual([
      'BEGIN',
      'INSERT asn',
      ...((await insertReturns()) ? [] : ['SELECT asn']),
      'INSERT log',
      'COMMIT',
    ]);
  });

  it.each(['4.0', '5.0'])(
    'POST deliveryservices on %s: the checks, the writes, the row read back, the change log',
    async (version) => {
      const statements = await statementsOf(async () => {
        const body = deliveryServiceBody(cdnId, httpType, version === '5.0' ? { active: 'ACTIVE' } : {});
        const res = await admin.at(version).post('deliveryservices', body);
        expect(res.status).toBe(200);
      });
      expect(statements).toEqual([
        'BEGIN',
        'SELECT type',
        'SELECT (…)',
        'SELECT cdn_lock',
        'INSERT deliveryservice',
        'INSERT regex',
        'INSERT deliveryservice_regex',
        'SELECT deliveryservice',
        'INSERT origin',
        'INSERT log',
        'COMMIT',
      ]);
    },
  );

  it('PUT deliveryservices/{id} (empty answer): the checks, the writes, the change log', async () => {
    const body = deliveryServiceBody(cdnId, httpType);
    const created = await admin.post('deliveryservices', body);
    const [{ id }] = responseOf<{ id: number }[]>(created);
    let n = 0;
    const statements = await statementsOf(async () => {
      const res = await admin.put(`deliveryservices/${id}`, { ...body, longDesc: `changed ${n++}` });
      expect(res.status).toBe(200);
    });
    expect(statements).toEqual([
      'BEGIN',
      'SELECT deliveryservice',
      'SELECT cdn_lock',
      'SELECT type',
      'SELECT (…)',
      'UPDATE deliveryservice',
      'DELETE deliveryservice_tls_version',
      'DELETE deliveryservice_consistent_hash_query_param',
      'SELECT origin',
      'INSERT log',
      'COMMIT',
    ]);
  });
});
