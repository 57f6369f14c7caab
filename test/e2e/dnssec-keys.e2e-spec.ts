import { DataSource } from 'typeorm';
import { dsDigest, keyTag } from 'src/modules/keys/dnssec/dnssec';
import type { CdnDnssecKeys, DnssecKey } from 'src/modules/keys/dnssec/dnssec-keys.response';
import { responseOf } from 'test/e2e/support/api';
import { type CreatedUser, createUser } from 'test/e2e/support/accounts';
import { expectError, expectErrors, expectMalformedJson } from 'test/e2e/support/alerts';
import { expectApiHeaders } from 'test/e2e/support/headers';
import { createDeliveryService, deliveryServiceBody } from 'test/e2e/support/fixtures/delivery-services-api';
import type { DeliveryServiceResponse } from 'test/e2e/support/fixtures/delivery-services-api';
import { insertDeliveryService } from 'test/e2e/support/fixtures/delivery-services';
import { createCdn } from 'test/e2e/support/fixtures/profiles';
import { insertDeliveryServiceRegex } from 'test/e2e/support/fixtures/steering';
import { useApp } from 'test/e2e/support/suite';

const DAY = 86_400;
const decode = (text: string) => Buffer.from(text, 'base64').toString('utf8');
const notFound = (name: string) => ` - Dnssec keys for ${name} could not be found. `;

interface KeyRow {
  owner: string;
  version: string;
  cdn: string | null;
  ciphertext: string;
}

/** The DNSKEY record of a key: name, TTL, flags and the public key's bytes. */
function dnskey(key: DnssecKey) {
  const match = /^(\S+)\t(\d+)\tIN\tDNSKEY\t(\d+) 3 5 ([A-Za-z0-9+/=]+)$/.exec(decode(key.public));
  expect(match).not.toBeNull();
  return {
    name: match![1],
    ttl: Number(match![2]),
    flags: Number(match![3]),
    publicKey: Buffer.from(match![4], 'base64'),
  };
}

/** What every generated key shows: the zone's name, the TTL, its kind's flags and key size, a BIND private key. */
function expectKey(key: DnssecKey, zone: string, ttl: number, kind: 'ksk' | 'zsk') {
  const record = dnskey(key);
  expect(record).toMatchObject({ name: zone, ttl, flags: kind === 'ksk' ? 257 : 256 });
  expect(record.publicKey.length).toBe(4 + (kind === 'ksk' ? 256 : 128));
  expect(key.name).toBe(zone);
  expect(key.ttl).toBe(String(ttl));
  const privateKey = decode(key.private);
  expect(privateKey).toMatch(/^Private-key-format: v1\.3\nAlgorithm: 5 \(RSASHA1\)\nModulus: /);
  expect(privateKey).toContain(`Modulus: ${record.publicKey.subarray(4).toString('base64')}\n`);
}

/** A CDN KSK's DS record: the digest of its DNSKEY and the record's text with the DS TTL. */
function expectDsRecord(key: DnssecKey, dsTtl: number) {
  const { name, flags, publicKey } = dnskey(key);
  const digest = dsDigest(name, flags, 3, 5, publicKey).toString('hex');
  expect(key.dsRecord).toEqual({
    algorithm: '5',
    digestType: '2',
    digest,
    text: `${name}\t${dsTtl}\tIN\tDS\t${keyTag(flags, 3, 5, publicKey)} 5 2 ${digest.toUpperCase()}`,
  });
}

describe('DNSSEC keys (docs/original-behaviour.md#dnssec-keys)', () => {
  const { app, admin } = useApp();
  let dataSource: DataSource;
  let cdn: { id: number; name: string };
  let zone: string;
  let ds: DeliveryServiceResponse;
  let anyMap: string;

  const rows = (cdnId: number): Promise<KeyRow[]> =>
    dataSource.query(
      "SELECT owner, version, cdn, ciphertext FROM key_store WHERE kind = 'dnssec' AND version = ? ORDER BY owner",
      [String(cdnId)],
    );
  const allRows = (): Promise<unknown[]> => dataSource.query("SELECT * FROM key_store WHERE kind = 'dnssec'");
  const keysOf = async (name: string, client = admin): Promise<CdnDnssecKeys> => {
    const res = await client.get(`cdns/name/${name}/dnsseckeys`);
    expect(res.status).toBe(200);
    return responseOf<CdnDnssecKeys>(res);
  };
  const generate = (body: Record<string, unknown>, client = admin) =>
    client.post('cdns/dnsseckeys/generate', body);

  beforeAll(async () => {
    dataSource = app.get(DataSource);
    cdn = await createCdn(admin);
    zone = `${cdn.name}.example.net.`.toLowerCase();
    ds = await createDeliveryService(admin, cdn.id, { protocol: 2 });
    anyMap = (await insertDeliveryService(app, cdn.id, { typeName: 'ANY_MAP' })).xmlId;
  });

  it('GET of a CDN without keys (or of no CDN) answers an empty object and the original success alert', async () => {
    for (const name of [cdn.name, 'no-such-cdn']) {
      const res = await admin.get(`cdns/name/${name}/dnsseckeys`);
      expectApiHeaders(res);
      expect({ status: res.status, body: res.body as unknown }).toEqual({
        status: 200,
        body: { alerts: [{ text: notFound(name), level: 'success' }], response: {} },
      });
    }
  });

  it('POST cdns/dnsseckeys/generate makes a KSK and a ZSK for the CDN and each HTTP or DNS delivery service, sealed', async () => {
    const before = Math.floor(Date.now() / 1000);
    const res = await generate({
      key: cdn.name,
      ttl: '60',
      kskExpirationDays: 365,
      zskExpirationDays: '30',
      effectiveDate: 1_700_000_000,
    });
    expectApiHeaders(res);
    expect({ status: res.status, body: res.body as unknown }).toEqual({
      status: 200,
      body: { response: `Successfully created dnssec keys for ${cdn.name}` },
    });

    const keys = await keysOf(cdn.name);
    // The ANY_MAP delivery service has none; the names are in byte order.
    expect(Object.keys(keys)).toEqual([cdn.name, ds.xmlId].sort());
    const cdnKeys = keys[cdn.name];
    expect(cdnKeys.ksk).toHaveLength(1);
    expect(cdnKeys.zsk).toHaveLength(1);
    const [ksk] = cdnKeys.ksk!;
    const [zsk] = cdnKeys.zsk!;
    expectKey(ksk, zone, 60, 'ksk');
    expectKey(zsk, zone, 60, 'zsk');
    expect(ksk).toMatchObject({ status: 'new', effectiveDate: 1_700_000_000 });
    expect(ksk.inceptionDate).toBeGreaterThanOrEqual(before);
    expect(ksk.expirationDate - ksk.inceptionDate).toBe(365 * DAY);
    expect(zsk.expirationDate - zsk.inceptionDate).toBe(30 * DAY);
    expect(zsk.dsRecord).toBeUndefined();
    // No snapshot names a DS TTL: Traffic Router's default, 60 s.
    expectDsRecord(ksk, 60);

    // The delivery service's zone is its first example URL's host after the routing name.
    const dsZone = `${ds.xmlId}.${cdn.name}.example.net.`.toLowerCase();
    for (const kind of ['ksk', 'zsk'] as const) {
      const [key] = keys[ds.xmlId][kind]!;
      expectKey(key, dsZone, 60, kind);
      expect(key.status).toBe('new');
      expect(key.effectiveDate).toBe(key.inceptionDate);
      expect(key.dsRecord).toBeUndefined();
    }

    // One sealed entry per key set; no secret in clear.
    const stored = await rows(cdn.id);
    expect(stored.map((r) => [r.owner, r.cdn])).toEqual([
      ['', cdn.name],
      [ds.xmlId, cdn.name],
    ]);
    for (const row of stored) {
      expect(row.ciphertext).not.toContain(ksk.private.slice(0, 24));
      expect(Buffer.from(row.ciphertext, 'base64').toString('latin1')).not.toContain('Private-key-format');
    }
    expect(keys[anyMap]).toBeUndefined();
  });

  it('a second generation keeps the previous first keys as "existing" until the new ones take effect', async () => {
    const previous = (await keysOf(cdn.name))[cdn.name];
    const res = await generate({
      key: cdn.name,
      ttl: 120,
      kskExpirationDays: 10,
      zskExpirationDays: 5,
      effectiveDate: '2030-01-02 03:04:05',
    });
    expect(res.status).toBe(200);
    const effective = Date.UTC(2030, 0, 2, 3, 4, 5) / 1000;
    const { ksk, zsk } = (await keysOf(cdn.name))[cdn.name];
    expect(ksk!.map((k) => k.status)).toEqual(['new', 'existing']);
    expect(zsk!.map((k) => k.status)).toEqual(['new', 'existing']);
    expect(ksk![0]).toMatchObject({ ttl: '120', effectiveDate: effective });
    expect(ksk![0].expirationDate - ksk![0].inceptionDate).toBe(10 * DAY);
    const { dsRecord, ...oldKsk } = previous.ksk![0];
    expect(ksk![1]).toEqual({
      ...oldKsk,
      status: 'existing',
      ttl: '120',
      expirationDate: effective,
      dsRecord: { ...dsRecord, text: expect.any(String) as string },
    });
    expect(zsk![1]).toEqual({
      ...previous.zsk![0],
      status: 'existing',
      ttl: '120',
      expirationDate: effective,
    });
  });

  it("GET writes the DS record's text with the DS TTL of the CDN's snapshot", async () => {
    const crconfig = JSON.stringify({ config: { ttls: { DS: '3600' } } });
    await dataSource.query('INSERT INTO snapshot (cdn, crconfig, monitoring) VALUES (?, ?, ?)', [
      cdn.name,
      crconfig,
      '{}',
    ]);
    try {
      const [ksk] = (await keysOf(cdn.name))[cdn.name].ksk!;
      expectDsRecord(ksk, 3600);
    } finally {
      await dataSource.query('DELETE FROM snapshot WHERE cdn = ?', [cdn.name]);
    }
  });

  it('POST cdns/{name}/dnsseckeys/ksk/generate replaces the CDN KSK; the old one expires when the new takes effect', async () => {
    const before = (await keysOf(cdn.name))[cdn.name];
    const res = await admin.post(`cdns/${cdn.name}/dnsseckeys/ksk/generate`, {
      expirationDays: 99,
      effectiveDate: '2031-05-06T07:08:09Z',
    });
    expectApiHeaders(res);
    expect({ status: res.status, body: res.body as unknown }).toEqual({
      status: 200,
      body: { response: `Successfully generated ksk dnssec keys for ${cdn.name}` },
    });
    const effective = Date.UTC(2031, 4, 6, 7, 8, 9) / 1000;
    const after = (await keysOf(cdn.name))[cdn.name];
    expect(after.zsk).toEqual(before.zsk);
    expect(after.ksk!.map((k) => k.status)).toEqual(['new', 'expired']);
    const [ksk, old] = after.ksk!;
    // The new key has the old one's name, TTL and lifetime in whole days (the body's days are not used).
    expectKey(ksk, zone, 120, 'ksk');
    expect(ksk.effectiveDate).toBe(effective);
    expect(ksk.expirationDate - ksk.inceptionDate).toBe(10 * DAY);
    expectDsRecord(ksk, 60);
    expect(old).toEqual({ ...before.ksk![0], status: 'expired', expirationDate: effective });
    // The delivery service's keys are untouched.
    expect((await rows(cdn.id)).map((r) => r.owner)).toEqual(['', ds.xmlId]);
  });

  it('answers each body error with the original texts and writes nothing', async () => {
    const stored = await allRows();
    const cases: [Record<string, unknown> | unknown[], string][] = [
      [
        [],
        'parsing request: decoding: json: cannot unmarshal array into Go value of type tc.CDNDNSSECGenerateReq',
      ],
      [
        {},
        "parsing request: validating: 'key (CDN name)' is required, 'ttl' is required, " +
          "'kskExpirationDays' is required, 'zskExpirationDays' is required",
      ],
      [
        { key: 5, ttl: 60, kskExpirationDays: 1, zskExpirationDays: 1 },
        'parsing request: decoding: json: cannot unmarshal number into Go struct field CDNDNSSECGenerateReq.key of type string',
      ],
      [
        { key: cdn.name, ttl: 'sixty', kskExpirationDays: 1, zskExpirationDays: 1 },
        'parsing request: decoding: not an integer',
      ],
      [
        { key: cdn.name, ttl: 1.5, kskExpirationDays: 1, zskExpirationDays: 1 },
        'parsing request: decoding: not an integer',
      ],
      [
        { key: cdn.name, ttl: 60, kskExpirationDays: true, zskExpirationDays: 1 },
        'parsing request: decoding: not an integer',
      ],
      [
        { key: cdn.name, ttl: 60, kskExpirationDays: 1, zskExpirationDays: 1, effectiveDate: 'tomorrow' },
        'parsing request: decoding: invalid date',
      ],
      [
        { key: cdn.name, ttl: -1, kskExpirationDays: 1, zskExpirationDays: 1_000_001 },
        "parsing request: validating: 'ttl' must be no less than 0, 'zskExpirationDays' must be no greater than 1000000",
      ],
      [
        { key: cdn.name, ttl: 2_147_483_648, kskExpirationDays: null, zskExpirationDays: 1 },
        "parsing request: validating: 'ttl' must be no greater than 2147483647, 'kskExpirationDays' is required",
      ],
    ];
    for (const [body, text] of cases) {
      expectError(await generate(body as Record<string, unknown>), 400, text);
    }
    expectMalformedJson(await admin.raw('post', 'cdns/dnsseckeys/generate', '{"key":'));

    const ksk = (body: unknown) => admin.post(`cdns/${cdn.name}/dnsseckeys/ksk/generate`, body);
    const kskCases: [unknown, string][] = [
      [{}, 'parsing request: validating: missing fields: expiration missing'],
      [{ expirationDays: 0 }, 'parsing request: validating: missing fields: expiration missing'],
      [
        { expirationDays: '5' },
        'parsing request: decoding: json: cannot unmarshal string into Go struct field CDNGenerateKSKReq.expirationDays of type uint64',
      ],
      [
        { expirationDays: -1 },
        'parsing request: decoding: json: cannot unmarshal number -1 into Go struct field CDNGenerateKSKReq.expirationDays of type uint64',
      ],
      [
        { expirationDays: 5, effectiveDate: 5 },
        'parsing request: decoding: Time.UnmarshalJSON: input is not a JSON string',
      ],
      [
        { expirationDays: 5, effectiveDate: 'soon' },
        'parsing request: decoding: parsing time "soon" as RFC 3339: invalid time',
      ],
    ];
    for (const [body, text] of kskCases) {
      expectError(await ksk(body), 400, text);
    }
    expectError(
      await admin.raw('post', `cdns/${cdn.name}/dnsseckeys/ksk/generate`, '"text"'),
      400,
      'parsing request: decoding: json: cannot unmarshal string into Go value of type tc.CDNGenerateKSKReq',
    );
    expectMalformedJson(await admin.raw('post', `cdns/${cdn.name}/dnsseckeys/ksk/generate`, '{'));
    expect(await allRows()).toEqual(stored);
  });

  it("answers an unknown CDN as the original: 404 Not Found, or the KSK route's own text", async () => {
    const body = { key: 'no-such-cdn', ttl: 60, kskExpirationDays: 1, zskExpirationDays: 1 };
    expectError(await generate(body), 404, 'Not Found');
    await expectErrors([
      [
        admin.post('cdns/no-such-cdn/dnsseckeys/ksk/generate', { expirationDays: 1 }),
        404,
        "cdn 'no-such-cdn' not found",
      ],
      [admin.delete('cdns/name/no-such-cdn/dnsseckeys'), 404, 'Not Found'],
    ]);
  });

  it('refuses every write while another user holds a hard lock on the CDN', async () => {
    const holder: CreatedUser = await createUser(app, admin, 'operations');
    const lock = await holder.client.post('cdn_locks', { cdn: cdn.name, message: 'dnssec', soft: false });
    expect(lock.status).toBe(200);
    try {
      const stored = await allRows();
      const refusal = `user ${holder.username} currently has a hard lock on cdn ${cdn.name}`;
      expectError(
        await generate({ key: cdn.name, ttl: 60, kskExpirationDays: 1, zskExpirationDays: 1 }),
        403,
        refusal,
      );
      expectError(
        await admin.post(`cdns/${cdn.name}/dnsseckeys/ksk/generate`, { expirationDays: 1 }),
        403,
        refusal,
      );
      expectError(await admin.delete(`cdns/name/${cdn.name}/dnsseckeys`), 403, refusal);
      expect(await allRows()).toEqual(stored);
    } finally {
      expect((await holder.client.delete(`cdn_locks?cdn=${encodeURIComponent(cdn.name)}`)).status).toBe(200);
    }
  });

  describe('refresh', () => {
    let enabled: { id: number; name: string };
    let first: DeliveryServiceResponse;

    beforeAll(async () => {
      enabled = await createCdn(admin);
      // Created before DNSSEC is enabled: it gets its keys with the CDN's.
      first = await createDeliveryService(admin, enabled.id);
      const cdnRes = await admin.put(`cdns/${enabled.id}`, {
        name: enabled.name,
        domainName: `${enabled.name}.example.net`,
        dnssecEnabled: true,
      });
      expect(cdnRes.status).toBe(200);
      // ZSKs that expire at once: every refresh renews them.
      const res = await generate({
        key: enabled.name,
        ttl: 30,
        kskExpirationDays: 100,
        zskExpirationDays: 0,
      });
      expect(res.status).toBe(200);
    });

    afterAll(async () => {
      await admin.delete(`cdns/name/${enabled.name}/dnsseckeys`);
    });

    it('POST deliveryservices on a CDN with DNSSEC enabled makes the keys of the new delivery service', async () => {
      const created = await createDeliveryService(admin, enabled.id, { protocol: 1 });
      const keys = await keysOf(enabled.name);
      const cdnKsk = keys[enabled.name].ksk![0];
      const zone = `${created.xmlId}.${enabled.name}.example.net.`.toLowerCase();
      for (const kind of ['ksk', 'zsk'] as const) {
        const [key] = keys[created.xmlId][kind]!;
        // The CDN's current KSK's TTL and the CDN keys' lifetimes.
        expectKey(key, zone, Number(cdnKsk.ttl), kind);
        expect(key.expirationDate - key.inceptionDate).toBe(kind === 'ksk' ? 100 * DAY : 0);
      }
    });

    it('refuses a delivery service of a DNSSEC CDN without keys with the original 400 and writes nothing', async () => {
      const bare = await createCdn(admin);
      expect(
        (
          await admin.put(`cdns/${bare.id}`, {
            name: bare.name,
            domainName: `${bare.name}.example.net`,
            dnssecEnabled: true,
          })
        ).status,
      ).toBe(200);
      const body = deliveryServiceBody(
        bare.id,
        responseOf<{ id: number }[]>(await admin.get('types?name=HTTP'))[0].id,
      );
      expectError(
        await admin.post('deliveryservices', body),
        400,
        `there are no DNSSec keys for the CDN ${bare.name} which is required to create keys for the deliveryservice`,
      );
      expect(responseOf<unknown[]>(await admin.get(`deliveryservices?xmlId=${String(body.xmlId)}`))).toEqual(
        [],
      );
      expect(await rows(bare.id)).toEqual([]);
    });

    it('PUT cdns/dnsseckeys/refresh (4.0+) renews expiring ZSKs and creates the missing sets of a DNSSEC CDN', async () => {
      // Written around the API, so that it has no keys yet.
      const second = await insertDeliveryService(app, enabled.id);
      await insertDeliveryServiceRegex(app, second.id, `.*\\.${second.xmlId}\\..*`, {
        typeName: 'HOST_REGEXP',
      });
      const before = await keysOf(enabled.name);
      expect(before[second.xmlId]).toBeUndefined();
      const untouched = await keysOf(cdn.name);

      const res = await admin.at('5.0').put('cdns/dnsseckeys/refresh');
      expectApiHeaders(res);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        alerts: [
          {
            text: expect.stringMatching(/^DNSSEC refresh completed successfully \(\d+ keys were updated\)$/),
            level: 'success',
          },
        ],
      });

      const after = await keysOf(enabled.name);
      expect(Object.keys(after)).toEqual(expect.arrayContaining([enabled.name, first.xmlId, second.xmlId]));
      // The CDN's ZSK: a new one (its predecessor's lifetime, effective TTL × 10 before that expiration) and the old one expired.
      const cdnZsk = after[enabled.name].zsk!;
      expect(cdnZsk.map((k) => k.status)).toEqual(['new', 'expired']);
      const oldZsk = before[enabled.name].zsk![0];
      expect(cdnZsk[1]).toEqual({ ...oldZsk, status: 'expired' });
      expectKey(cdnZsk[0], `${enabled.name}.example.net.`.toLowerCase(), 30, 'zsk');
      expect(cdnZsk[0].effectiveDate).toBe(oldZsk.expirationDate - 60 * 10);
      expect(after[enabled.name].ksk).toEqual(before[enabled.name].ksk);
      // The first delivery service's ZSK is renewed, its KSK kept.
      expect(after[first.xmlId].zsk!.map((k) => k.status)).toEqual(['new', 'expired']);
      expect(after[first.xmlId].ksk).toEqual(before[first.xmlId].ksk);
      // The second gets keys with the CDN KSK's TTL.
      const dsZone = `${second.xmlId}.${enabled.name}.example.net.`.toLowerCase();
      expectKey(after[second.xmlId].ksk![0], dsZone, 30, 'ksk');
      expect(after[second.xmlId].ksk![0].expirationDate - after[second.xmlId].ksk![0].inceptionDate).toBe(
        100 * DAY,
      );
      // A CDN without DNSSEC enabled and without expiring keys is left alone.
      expect(await keysOf(cdn.name)).toEqual(untouched);
    });

    it('GET cdns/dnsseckeys/refresh (3.x) does the same, answers a string and logs the change', async () => {
      const before = await keysOf(enabled.name);
      const res = await admin.at('3.0').get('cdns/dnsseckeys/refresh');
      expectApiHeaders(res);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        response: expect.stringMatching(/^DNSSEC refresh completed successfully \(\d+ keys were updated\)$/),
      });
      const after = await keysOf(enabled.name);
      expect(after[enabled.name].zsk![1]).toEqual({ ...before[enabled.name].zsk![0], status: 'expired' });
      const logs = responseOf<{ message: string; user: string }[]>(await admin.get('logs?limit=5'));
      expect(logs.some((l) => /^Refreshed \d+ DNSSEC keys$/.test(l.message) && l.user === 'admin')).toBe(
        true,
      );
      expect(logs.every((l) => !l.message.includes('Private-key-format'))).toBe(true);
    });

    it('the 3.x GET route is not served on 4.0, nor the PUT on 3.x', async () => {
      expect((await admin.at('4.0').get('cdns/dnsseckeys/refresh')).status).toBe(404);
      expect((await admin.at('3.1').put('cdns/dnsseckeys/refresh')).status).toBe(404);
    });
  });

  it('serves 3.x with the same shapes', async () => {
    const v3 = admin.at('3.1');
    const keys = await keysOf(cdn.name, v3);
    expect(Object.keys(keys)).toEqual([cdn.name, ds.xmlId].sort());
  });

  it('DELETE cdns/name/{name}/dnsseckeys removes every key set of the CDN', async () => {
    const res = await admin.delete(`cdns/name/${cdn.name}/dnsseckeys`);
    expectApiHeaders(res);
    expect({ status: res.status, body: res.body as unknown }).toEqual({
      status: 200,
      body: { response: `Successfully deleted dnssec for ${cdn.name}` },
    });
    expect(await rows(cdn.id)).toEqual([]);
    expect(responseOf(await admin.get(`cdns/name/${cdn.name}/dnsseckeys`))).toEqual({});
    // Deleting nothing is a success as well.
    expect((await admin.delete(`cdns/name/${cdn.name}/dnsseckeys`)).status).toBe(200);
  });

  describe('without KEY_STORE_KEY (docs/decisions.md#d65)', () => {
    const { admin: client } = useApp({ env: { KEY_STORE_KEY: undefined } });

    it('every route answers 500 as the original without a Traffic Vault', async () => {
      const stored = await allRows();
      const requests = [
        client.get(`cdns/name/${cdn.name}/dnsseckeys`),
        client.delete(`cdns/name/${cdn.name}/dnsseckeys`),
        client.post('cdns/dnsseckeys/generate', {
          key: cdn.name,
          ttl: 60,
          kskExpirationDays: 1,
          zskExpirationDays: 1,
        }),
        client.post(`cdns/${cdn.name}/dnsseckeys/ksk/generate`, { expirationDays: 1 }),
        client.put('cdns/dnsseckeys/refresh'),
        client.at('3.0').get('cdns/dnsseckeys/refresh'),
      ];
      for (const res of await Promise.all(requests)) {
        expectError(res, 500, 'Internal Server Error');
      }
      expect(await allRows()).toEqual(stored);
    });
  });
});
