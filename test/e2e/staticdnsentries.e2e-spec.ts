import { responseOf, uniqueName, type Wire } from 'test/e2e/support/api';
import { type CreatedUser, createTenant, createUser } from 'test/e2e/support/accounts';
import { expectError, expectErrors, expectMalformedJson, expectSuccessAlert } from 'test/e2e/support/alerts';
import { expectOk } from 'test/e2e/support/headers';
import { CUSTOM_TIME, RFC3339_TIME } from 'test/e2e/support/times';
import { createCachegroup, typeIdOf } from 'test/e2e/support/fixtures/cachegroups';
import { createDeliveryService } from 'test/e2e/support/fixtures/delivery-services-api';
import type { DeliveryServiceResponse } from 'test/e2e/support/fixtures/delivery-services-api';
import { createCdn } from 'test/e2e/support/fixtures/profiles';
import { sql } from 'test/e2e/support/fixtures/snapshots';
import type { StaticDnsEntryWire } from 'src/modules/static-dns-entries/dto/static-dns-entry.response';
import type { CRConfig } from 'src/modules/snapshots/dto/crconfig.response';
import { STATIC_DNS_ENTRY_V5 } from 'test/e2e/support/go-types';
import { useApp } from 'test/e2e/support/suite';

type Entry = Wire<StaticDnsEntryWire>;

const VERSIONS = ['3.0', '3.1', '4.0', '4.1', '5.0'];

/** staticdnsentries (docs/original-behaviour.md#static-dns-entries). */
describe('staticdnsentries', () => {
  const { app, admin } = useApp();
  let cdn: { id: number; name: string };
  let ds: DeliveryServiceResponse;
  const types: Record<string, number> = {};

  const all = async (): Promise<Entry[]> => responseOf<Entry[]>(await admin.get('staticdnsentries'));
  const body = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
    host: uniqueName('host').toLowerCase(),
    address: '192.0.2.10',
    deliveryserviceId: ds.id,
    ttl: 300,
    typeId: types.A_RECORD,
    ...overrides,
  });
  const create = async (overrides: Record<string, unknown> = {}, client = admin): Promise<Entry> => {
    const res = await client.post('staticdnsentries', body(overrides));
    expect(res.status).toBe(200);
    return responseOf<Entry>(res);
  };

  beforeAll(async () => {
    cdn = await createCdn(admin);
    ds = await createDeliveryService(admin, cdn.id);
    for (const name of ['A_RECORD', 'AAAA_RECORD', 'CNAME_RECORD', 'TXT_RECORD', 'EDGE', 'HOST_REGEXP']) {
      types[name] = await typeIdOf(admin, name);
    }
  });

  it.each(VERSIONS)('creates, lists, updates and deletes on %s, with every field', async (version) => {
    const client = admin.at(version);
    const time = version === '5.0' ? RFC3339_TIME : CUSTOM_TIME;
    const cg = await createCachegroup(admin);
    const host = uniqueName('www').toLowerCase();
    const created = await client.post(
      'staticdnsentries',
      body({ host, address: 'target.example.net.', typeId: types.CNAME_RECORD, cachegroupId: cg.id }),
    );
    expectOk(created);
    expectSuccessAlert(created, 'staticDNSEntry was created.');
    const entry = responseOf<Entry>(created);
    expect(entry).toEqual({
      address: 'target.example.net.',
      cachegroup: cg.name,
      cachegroupId: cg.id,
      deliveryservice: ds.xmlId,
      deliveryserviceId: ds.id,
      host,
      id: expect.any(Number),
      lastUpdated: expect.stringMatching(time),
      ttl: 300,
      type: 'CNAME_RECORD',
      typeId: types.CNAME_RECORD,
    });
    // lib/go-tc's StaticDNSEntry keys, in order, on every version (V5 differs in lastUpdated's format only).
    expect(Object.keys(entry)).toEqual([...STATIC_DNS_ENTRY_V5.keys]);
    const listed = expectOk(await client.get(`staticdnsentries?id=${entry.id}`));
    expect(responseOf(listed)).toEqual([entry]);

    const updated = await client.put(
      `staticdnsentries?id=${entry.id}`,
      body({ host, address: '2001:db8::10', typeId: types.AAAA_RECORD, ttl: 60 }),
    );
    expect(updated.status).toBe(200);
    expectSuccessAlert(updated, 'staticDNSEntry was updated.');
    expect(responseOf(updated)).toEqual({
      ...entry,
      address: '2001:db8::10',
      cachegroup: null,
      cachegroupId: null,
      lastUpdated: expect.stringMatching(time),
      ttl: 60,
      type: 'AAAA_RECORD',
      typeId: types.AAAA_RECORD,
    });

    const deleted = await client.delete(`staticdnsentries?id=${entry.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ alerts: [{ level: 'success', text: 'staticDNSEntry was deleted.' }] });
    expect(responseOf(await client.get(`staticdnsentries?id=${entry.id}`))).toEqual([]);
  });

  it("reads keys in any case, as the original's decoding: Traffic Portal's forms", async () => {
    const v5 = admin.at('5.0');
    // The portal's new-entry form: host, typeId, ttl, address, and the delivery service as deliveryServiceId.
    const host = uniqueName('tp').toLowerCase();
    const created = await v5.post('staticdnsentries', {
      host,
      typeId: types.A_RECORD,
      ttl: 120,
      address: '192.0.2.44',
      deliveryServiceId: ds.id,
    });
    expect(created.status).toBe(200);
    const entry = responseOf<Entry>(created);
    expect(entry).toMatchObject({ host, deliveryserviceId: ds.id, ttl: 120 });
    // The edit form sends the record it read, with deliveryServiceId added last (the last key wins).
    const other = await createDeliveryService(admin, cdn.id);
    const edited = await v5.put(`staticdnsentries?id=${entry.id}`, {
      ...entry,
      TTL: 90,
      deliveryServiceId: other.id,
    });
    expect(edited.status).toBe(200);
    expect(responseOf(edited)).toMatchObject({ id: entry.id, deliveryserviceId: other.id, ttl: 90 });
  });

  it("filters by the original's query parameters and orders by host", async () => {
    const other = await createDeliveryService(admin, cdn.id);
    const cg = await createCachegroup(admin);
    const prefix = uniqueName('f').toLowerCase();
    const a = await create({ host: `${prefix}-b`, deliveryserviceId: other.id, cachegroupId: cg.id });
    const b = await create({
      host: `${prefix}-a`,
      deliveryserviceId: other.id,
      address: '2001:db8::1',
      typeId: types.AAAA_RECORD,
      ttl: 42,
    });
    const ids = async (query: string): Promise<number[]> => {
      const res = await admin.get(`staticdnsentries?${query}`);
      expect(res.status).toBe(200);
      return responseOf<Entry[]>(res).map((e) => e.id);
    };
    expect(await ids(`deliveryserviceId=${other.id}`)).toEqual([b.id, a.id]);
    expect(await ids(`deliveryservice=${other.xmlId}`)).toEqual([b.id, a.id]);
    expect(await ids(`deliveryserviceId=${other.id}&orderby=host&sortOrder=desc`)).toEqual([a.id, b.id]);
    expect(await ids(`deliveryserviceId=${other.id}&type=AAAA_RECORD`)).toEqual([b.id]);
    expect(await ids(`deliveryserviceId=${other.id}&typeId=${types.A_RECORD}`)).toEqual([a.id]);
    expect(await ids(`cachegroup=${cg.name}`)).toEqual([a.id]);
    expect(await ids(`cachegroupId=${cg.id}`)).toEqual([a.id]);
    expect(await ids(`host=${prefix}-a`)).toEqual([b.id]);
    expect(await ids(`deliveryserviceId=${other.id}&address=2001:db8::1`)).toEqual([b.id]);
    expect(await ids(`deliveryserviceId=${other.id}&ttl=42`)).toEqual([b.id]);
    expect(await ids(`deliveryserviceId=${other.id}&limit=1&page=2`)).toEqual([a.id]);
    await expectErrors([
      [admin.get('staticdnsentries?deliveryserviceId=x'), 400, 'deliveryserviceId cannot parse to integer'],
      [admin.get('staticdnsentries?ttl=1.5'), 400, 'ttl cannot parse to integer'],
    ]);
  });

  it('checks the address against the record type, and the other fields', async () => {
    const before = await all();
    const cases: [Record<string, unknown>, string][] = [
      [{ address: 'target.example.net.' }, "'address' must be a valid IPv4 address"],
      [{ address: '2001:db8::1' }, "'address' must be a valid IPv4 address"],
      [{ address: '192.0.2.1', typeId: types.AAAA_RECORD }, "'address' must be a valid IPv6 address"],
      [{ address: 'fe80::1%eth0', typeId: types.AAAA_RECORD }, "'address' must be a valid IPv6 address"],
      [
        { address: 'target.example.net', typeId: types.CNAME_RECORD },
        "'address' for type: CNAME_RECORD must have a trailing period",
      ],
      [{ address: 'not a name.', typeId: types.CNAME_RECORD }, "'address' must be a valid DNS name"],
      [{ address: '', typeId: types.TXT_RECORD }, "'address' cannot be blank"],
      [{ address: undefined, typeId: types.CNAME_RECORD }, "'address' cannot be blank"],
      [{ host: 'bad host' }, "'host' must be a valid DNS name"],
      [
        { host: '', address: 'x', deliveryserviceId: 0, ttl: undefined },
        "'host' cannot be blank, 'address' must be a valid IPv4 address, 'deliveryserviceId' cannot be blank, 'ttl' cannot be blank",
      ],
      [{ host: 'h'.repeat(256) }, "'host' the length must be between 1 and 255"],
      [{ typeId: types.EDGE }, 'type is not a valid staticdnsentry type'],
      [{ typeId: 2147483000, host: '' }, 'type not found'],
      [{ typeId: undefined }, 'type not found'],
      [{ ttl: 'x' }, "'ttl' must be an integer"],
      [{ host: 7 }, "'host' must be a string"],
      [{ deliveryserviceId: 2 ** 31 }, "'deliveryserviceId' must be no greater than 2147483647"],
    ];
    for (const [overrides, text] of cases) {
      const res = await admin.post('staticdnsentries', body(overrides));
      expect({ overrides, text: (res.body as { alerts?: { text: string }[] }).alerts?.[0]?.text }).toEqual({
        overrides,
        text,
      });
      expectError(res, 400, text);
    }
    await expectErrors([
      [
        admin.at('5.0').post('staticdnsentries', body({ typeId: undefined })),
        400,
        "missing property: 'typeId'",
      ],
      [admin.at('5.0').post('staticdnsentries', body({ typeId: null })), 400, "missing property: 'typeId'"],
    ]);
    expectMalformedJson(await admin.raw('post', 'staticdnsentries', '{"host"'));
    expectError(
      await admin.raw('post', 'staticdnsentries', '[]'),
      400,
      'the request body must be a JSON object',
    );
    expect(await all()).toEqual(before);
  });

  it('accepts what the original accepts: a TTL of 0, any text for other record types, IPv4-mapped IPv6', async () => {
    const zero = await create({ ttl: 0 });
    expect(zero.ttl).toBe(0);
    const txt = await create({ typeId: types.TXT_RECORD, address: 'v=spf1 -all' });
    expect(txt.type).toBe('TXT_RECORD');
    const mapped = await create({ typeId: types.AAAA_RECORD, address: '::ffff:192.0.2.1' });
    expect(mapped.address).toBe('::ffff:192.0.2.1');
    const big = await create({ ttl: 2 ** 40 });
    expect(big.ttl).toBe(2 ** 40);
  });

  it('answers unknown references, duplicates and bad ids with a 4xx, writing nothing', async () => {
    const cg = await createCachegroup(admin);
    const existing = await create({ cachegroupId: cg.id });
    const before = await all();
    await expectErrors([
      [
        admin.post('staticdnsentries', body({ deliveryserviceId: 2147483000 })),
        404,
        'deliveryservice not found',
      ],
      [admin.post('staticdnsentries', body({ cachegroupId: 2147483000 })), 404, 'cachegroup not found'],
      [
        admin.post(
          'staticdnsentries',
          body({ host: existing.host, address: existing.address, cachegroupId: cg.id }),
        ),
        400,
        `staticdnsentry host, address, deliveryservice, cachegroup '${existing.host}, ${existing.address}, ${ds.id}, ${cg.id}' already exists.`,
      ],
    ]);
    for (const version of ['3.0', '4.1']) {
      const client = admin.at(version);
      await expectErrors([
        [client.put('staticdnsentries', body()), 400, 'missing key: id'],
        [client.put('staticdnsentries?id=', body()), 400, 'missing key: id'],
        [client.put('staticdnsentries?id=x', body()), 400, 'failed to parse key: id'],
        [client.delete('staticdnsentries'), 400, 'missing key: id'],
        [client.delete('staticdnsentries?id=x'), 400, 'failed to parse key: id'],
      ]);
    }
    const v5 = admin.at('5.0');
    await expectErrors([
      [v5.put('staticdnsentries', body()), 400, 'missing key: id'],
      [
        v5.put('staticdnsentries?id=x', body()),
        400,
        `couldn't convert ID into a numeric value: strconv.Atoi: parsing "x": invalid syntax`,
      ],
      [
        v5.delete('staticdnsentries?id=99999999999999999999'),
        400,
        `couldn't convert ID into a numeric value: strconv.Atoi: parsing "99999999999999999999": value out of range`,
      ],
    ]);
    // The body is checked before the id, as the original.
    expectError(await admin.put('staticdnsentries?id=x', body({ host: '' })), 400, "'host' cannot be blank");
    for (const version of VERSIONS) {
      const client = admin.at(version);
      await expectErrors([
        [client.put('staticdnsentries?id=2147483000', body()), 404, 'no staticDNSEntry found with this id'],
        [client.delete('staticdnsentries?id=2147483000'), 404, 'no staticDNSEntry with that key found'],
      ]);
    }
    await expectErrors([
      [
        admin.put(`staticdnsentries?id=${existing.id}`, body({ deliveryserviceId: 2147483000 })),
        404,
        'deliveryservice not found',
      ],
      [
        admin.delete(`cachegroups/${cg.id}`),
        400,
        'cannot delete cachegroup because it is being used by a staticdnsentry',
      ],
    ]);
    expect(await all()).toEqual(before);
  });

  it("goes with its delivery service, and keeps a type in use (the original's keys)", async () => {
    const gone = await createDeliveryService(admin, cdn.id);
    const entry = await create({ deliveryserviceId: gone.id });
    await sql(app, "DELETE FROM last_deleted WHERE table_name = 'staticdnsentry'");
    expect((await admin.delete(`deliveryservices/${gone.id}`)).status).toBe(200);
    expect((await all()).find((e) => e.id === entry.id)).toBeUndefined();
    // The deletion the cascade made is tracked, so the list's If-Modified-Since sees it.
    expect(
      await sql(app, "SELECT table_name FROM last_deleted WHERE table_name = 'staticdnsentry'"),
    ).toHaveLength(1);
    await create({ typeId: types.TXT_RECORD, address: 'in use' });
    expectError(await admin.delete(`types/${types.TXT_RECORD}`), 400, 'can not delete type');
    await expect(sql(app, 'DELETE FROM type WHERE id = ?', [types.TXT_RECORD])).rejects.toThrow();
  });

  describe('tenancy (D109)', () => {
    let child: { id: number }, sibling: { id: number };
    let ops: CreatedUser;
    let inside: DeliveryServiceResponse, outside: DeliveryServiceResponse;

    beforeAll(async () => {
      child = await createTenant(admin);
      sibling = await createTenant(admin);
      ops = await createUser(app, admin, 'operations', child.id);
      inside = await createDeliveryService(admin, cdn.id, { tenantId: child.id });
      outside = await createDeliveryService(admin, cdn.id, { tenantId: sibling.id });
    });

    it('lists only entries of delivery services within reach and refuses writes out of reach', async () => {
      const mine = await create({ deliveryserviceId: inside.id }, ops.client);
      const theirs = await create({ deliveryserviceId: outside.id });
      const listed = responseOf<Entry[]>(await ops.client.get('staticdnsentries')).map((e) => e.id);
      expect(listed).toContain(mine.id);
      expect(listed).not.toContain(theirs.id);
      expect(responseOf(await ops.client.get(`staticdnsentries?deliveryserviceId=${outside.id}`))).toEqual(
        [],
      );
      for (const version of ['3.0', '4.0', '5.0']) {
        const client = ops.client.at(version);
        await expectErrors([
          [
            client.post('staticdnsentries', body({ deliveryserviceId: outside.id })),
            403,
            'not authorized on this tenant',
          ],
          [
            client.put(`staticdnsentries?id=${theirs.id}`, body({ deliveryserviceId: inside.id })),
            403,
            'not authorized on this tenant',
          ],
          [
            client.put(`staticdnsentries?id=${mine.id}`, body({ deliveryserviceId: outside.id })),
            403,
            'not authorized on this tenant',
          ],
          [client.delete(`staticdnsentries?id=${theirs.id}`), 403, 'not authorized on this tenant'],
        ]);
      }
      expect((await all()).find((e) => e.id === theirs.id)).toEqual(theirs);
      expect((await all()).find((e) => e.id === mine.id)).toEqual(mine);
      const moved = await ops.client.put(
        `staticdnsentries?id=${mine.id}`,
        body({ host: mine.host, deliveryserviceId: inside.id, ttl: 5 }),
      );
      expect(moved.status).toBe(200);
      expectSuccessAlert(
        await ops.client.delete(`staticdnsentries?id=${mine.id}`),
        'staticDNSEntry was deleted.',
      );
    });
  });

  it("refuses writes while another user holds a hard lock on the delivery service's CDN", async () => {
    const holder = await createUser(app, admin, 'operations');
    const entry = await create();
    const lock = await holder.client.post('cdn_locks', {
      cdn: cdn.name,
      message: 'maintenance',
      soft: false,
    });
    expect(lock.status).toBe(200);
    try {
      const refusal = `user ${holder.username} currently has a hard lock on cdn ${cdn.name}`;
      expectError(await admin.post('staticdnsentries', body()), 403, refusal);
      expectError(
        await admin.put(`staticdnsentries?id=${entry.id}`, body({ host: entry.host })),
        403,
        refusal,
      );
      expectError(await admin.delete(`staticdnsentries?id=${entry.id}`), 403, refusal);
      expect((await all()).find((e) => e.id === entry.id)).toEqual(entry);
      expect(
        (await holder.client.put(`staticdnsentries?id=${entry.id}`, body({ host: entry.host }))).status,
      ).toBe(200);
    } finally {
      expect((await holder.client.delete(`cdn_locks?cdn=${encodeURIComponent(cdn.name)}`)).status).toBe(200);
    }
  });

  it('answers If-Modified-Since with 304 and a stale If-Unmodified-Since with 412 (D33)', async () => {
    const entry = await create();
    const future = new Date(Date.now() + 60_000).toUTCString();
    expect((await admin.get('staticdnsentries').set('If-Modified-Since', future)).status).toBe(304);
    const past = new Date(Date.now() - 3_600_000).toUTCString();
    for (const send of [
      () => admin.put(`staticdnsentries?id=${entry.id}`, body({ host: entry.host })),
      () => admin.delete(`staticdnsentries?id=${entry.id}`),
    ]) {
      expectError(
        await send().set('If-Unmodified-Since', past),
        412,
        'resource was modified since the time specified by the request headers',
      );
    }
    expect((await all()).find((e) => e.id === entry.id)).toEqual(entry);
  });

  describe('in the CRConfig', () => {
    it("lists each active delivery service's entries as Traffic Router reads them", async () => {
      const snapCdn = await createCdn(admin);
      const active = await createDeliveryService(admin, snapCdn.id);
      const inactive = await createDeliveryService(admin, snapCdn.id, { active: false });
      const bare = await createDeliveryService(admin, snapCdn.id);
      const first = await create({
        deliveryserviceId: active.id,
        host: 'www',
        address: '192.0.2.7',
        ttl: 30,
      });
      await create({
        deliveryserviceId: active.id,
        host: 'alias',
        address: 'target.example.net.',
        typeId: types.CNAME_RECORD,
        ttl: 3600,
      });
      await create({
        deliveryserviceId: active.id,
        host: 'v6',
        address: '2001:db8::7',
        typeId: types.AAAA_RECORD,
        ttl: 60,
      });
      await create({ deliveryserviceId: inactive.id, host: 'hidden' });
      const crconfig = async (): Promise<CRConfig> => {
        const res = await admin.get(`cdns/${snapCdn.name}/snapshot/new`);
        expect(res.status).toBe(200);
        return responseOf<CRConfig>(res);
      };
      let doc = await crconfig();
      const services = doc.deliveryServices!;
      expect(services[active.xmlId].staticDnsEntries).toEqual([
        { name: 'www', ttl: 30, type: 'A', value: '192.0.2.7' },
        { name: 'alias', ttl: 3600, type: 'CNAME', value: 'target.example.net.' },
        { name: 'v6', ttl: 60, type: 'AAAA', value: '2001:db8::7' },
      ]);
      expect(Object.keys(services[active.xmlId])).toContain('staticDnsEntries');
      const keys = Object.keys(services[active.xmlId]);
      expect(keys.indexOf('staticDnsEntries')).toBe(keys.indexOf('sslEnabled') + 1);
      expect(services[bare.xmlId]).not.toHaveProperty('staticDnsEntries');
      expect(services[inactive.xmlId]).toBeUndefined();

      // The CDN's TTL override replaces every entry's TTL.
      await sql(app, 'UPDATE cdn SET ttl_override = ? WHERE id = ?', [10, snapCdn.id]);
      doc = await crconfig();
      expect(doc.deliveryServices![active.xmlId].staticDnsEntries!.map((e) => e.ttl)).toEqual([10, 10, 10]);

      // A snapshot stores them; later edits show only in the next one.
      expect((await admin.put(`snapshot?cdn=${snapCdn.name}`, {})).status).toBe(200);
      expectSuccessAlert(
        await admin.delete(`staticdnsentries?id=${first.id}`),
        'staticDNSEntry was deleted.',
      );
      const stored = responseOf<CRConfig>(await admin.get(`cdns/${snapCdn.name}/snapshot`));
      expect(stored.deliveryServices![active.xmlId].staticDnsEntries).toHaveLength(3);
      doc = await crconfig();
      expect(doc.deliveryServices![active.xmlId].staticDnsEntries!.map((e) => e.name)).toEqual([
        'alias',
        'v6',
      ]);
    });
  });
});
