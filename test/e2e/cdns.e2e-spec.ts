import type { CdnWire } from 'src/modules/cdns/dto/cdn.response';
import { responseOf, uniqueName, type Wire } from 'test/e2e/support/api';
import { createUser } from 'test/e2e/support/accounts';
import { expectError, expectErrors } from 'test/e2e/support/alerts';
import { expectApiHeaders, expectOk } from 'test/e2e/support/headers';
import { CUSTOM_TIME } from 'test/e2e/support/times';
import { useApp } from 'test/e2e/support/suite';

type Cdn = Wire<CdnWire>;

describe('cdns', () => {
  const { app, admin, readOnly } = useApp({ users: { readOnly: 'read-only' } });

  const body = (overrides: Partial<Cdn> = {}) => {
    const name = uniqueName('cdn');
    return { name, domainName: `${name}.example.net`, dnssecEnabled: false, ...overrides };
  };
  const create = async (overrides: Partial<Cdn> = {}, client = admin): Promise<Cdn> => {
    const res = await client.post('cdns', body(overrides));
    expect(res.status).toBe(200);
    return responseOf<Cdn>(res);
  };
  const byName = async (name: string, version = '4.1'): Promise<Cdn[]> =>
    responseOf<Cdn[]>(await admin.at(version).get(`cdns?name=${encodeURIComponent(name)}`));

  describe('GET /cdns', () => {
    it('lists CDNs ordered by name, with the seeded ALL', async () => {
      await create();
      const res = expectOk(await readOnly.client.get('cdns'));
      const cdns = responseOf<Cdn[]>(res);
      expect(cdns.find((c) => c.name === 'ALL')).toEqual({
        id: expect.any(Number),
        name: 'ALL',
        domainName: '-',
        dnssecEnabled: false,
        lastUpdated: expect.stringMatching(CUSTOM_TIME),
      });
      const names = cdns.map((c) => c.name);
      expect(names).toEqual([...names].sort());
    });

    it('filters by name, domainName, id and dnssecEnabled', async () => {
      const secure = await create({ dnssecEnabled: true });
      const plain = await create();
      expect(await byName(secure.name)).toEqual([secure]);
      expect(responseOf<Cdn[]>(await admin.get(`cdns?domainName=${plain.domainName}`))).toEqual([plain]);
      expect(responseOf<Cdn[]>(await admin.get(`cdns?id=${plain.id}`))).toEqual([plain]);
      const enabled = responseOf<Cdn[]>(await admin.get('cdns?dnssecEnabled=true'));
      expect(enabled.every((c) => c.dnssecEnabled)).toBe(true);
      expect(enabled.map((c) => c.id)).toContain(secure.id);
      const disabled = responseOf<Cdn[]>(await admin.get('cdns?dnssecEnabled=false'));
      expect(disabled.every((c) => !c.dnssecEnabled)).toBe(true);
      expect(disabled.map((c) => c.id)).toContain(plain.id);
      expect(responseOf<Cdn[]>(await admin.get('cdns?name=no-such-cdn'))).toEqual([]);
    });

    it('rejects filters that do not parse', async () => {
      await expectErrors([
        [admin.get('cdns?id=abc'), 400, 'id cannot parse to integer'],
        [admin.get('cdns?dnssecEnabled=maybe'), 400, 'dnssecEnabled cannot parse to boolean'],
      ]);
    });

    it('orders by a field of the response, either way, and ignores unknown fields', async () => {
      await create();
      await create();
      const byIdDesc = responseOf<Cdn[]>(await admin.get('cdns?orderby=id&sortOrder=desc')).map((c) => c.id);
      expect(byIdDesc).toEqual([...byIdDesc].sort((a, b) => b - a));
      const byDomain = responseOf<Cdn[]>(await admin.get('cdns?orderby=domainName')).map((c) => c.domainName);
      expect(byDomain).toEqual([...byDomain].sort());
      const unknown = responseOf<Cdn[]>(await admin.get('cdns?orderby=password')).map((c) => c.name);
      expect(unknown).toEqual([...unknown].sort());
    });

    it('pages with limit, offset and page', async () => {
      await create();
      await create();
      const all = responseOf<Cdn[]>(await admin.get('cdns?orderby=id'));
      expect(all.length).toBeGreaterThanOrEqual(3);
      expect(responseOf<Cdn[]>(await admin.get('cdns?orderby=id&limit=1'))).toEqual(all.slice(0, 1));
      expect(responseOf<Cdn[]>(await admin.get('cdns?orderby=id&limit=1&offset=1'))).toEqual(all.slice(1, 2));
      expect(responseOf<Cdn[]>(await admin.get('cdns?orderby=id&limit=2&page=2'))).toEqual(all.slice(2, 4));
      expect(responseOf<Cdn[]>(await admin.get('cdns?orderby=id&limit=1&offset=1&page=3'))).toEqual(
        all.slice(1, 2),
      );
      expect(responseOf<Cdn[]>(await admin.get('cdns?orderby=id&limit=-1'))).toEqual(all);
    });

    it('shows ttlOverride from 4.1 only, and filters by it there', async () => {
      const cdn = await create({ ttlOverride: 120 }, admin.at('4.1'));
      delete cdn.ttlOverride;
      expect(await byName(cdn.name, '4.1')).toEqual([{ ...cdn, ttlOverride: 120 }]);
      expect(await byName(cdn.name, '5.0')).toEqual([{ ...cdn, ttlOverride: 120 }]);
      const [old] = await byName(cdn.name, '4.0');
      expect(old).not.toHaveProperty('ttlOverride');
      const filtered = responseOf<Cdn[]>(await admin.at('4.1').get('cdns?ttlOverride=120'));
      expect(filtered.map((c) => c.id)).toContain(cdn.id);
      expect(filtered.every((c) => c.ttlOverride === 120)).toBe(true);
    });
  });

  describe('POST /cdns', () => {
    it.each(['3.0', '4.0', '4.1', '5.0'])('creates a CDN on %s', async (version) => {
      const sent = body({ dnssecEnabled: true });
      const res = await admin
        .at(version)
        .post('cdns', { ...sent, domainName: sent.domainName.toUpperCase() });
      expectOk(res, 'cdn was created.');
      const cdn = responseOf<Cdn>(res);
      expect(cdn).toEqual({
        id: expect.any(Number),
        name: sent.name,
        domainName: sent.domainName,
        dnssecEnabled: true,
        lastUpdated: expect.stringMatching(CUSTOM_TIME),
      });
      expect(await byName(sent.name, version)).toEqual([cdn]);
    });

    it('stores ttlOverride on 4.1 and ignores it on 4.0', async () => {
      const newer = responseOf<Cdn>(await admin.at('4.1').post('cdns', body({ ttlOverride: 30 })));
      expect(newer.ttlOverride).toBe(30);
      const older = responseOf<Cdn>(await admin.at('4.0').post('cdns', body({ ttlOverride: 30 })));
      expect(older).not.toHaveProperty('ttlOverride');
      const [stored] = await byName(older.name, '4.1');
      expect(stored).not.toHaveProperty('ttlOverride');
    });

    it('lets operations create', async () => {
      const operations = await createUser(app, admin, 'operations');
      await create({}, operations.client);
    });

    it.each([
      ['an empty name', { name: '' }, "'name' cannot be blank"],
      ['a missing name', { name: undefined }, "'name' cannot be blank"],
      ['a numeric name', { name: 42 }, "'name' must be a string"],
      [
        'a name with spaces',
        { name: 'my cdn' },
        "'name' invalid characters found - Use alphanumeric . or - .",
      ],
      ['an empty domain', { domainName: '' }, "'domainName' cannot be blank"],
      ['a bad domain', { domainName: 'bad domain!' }, "'domainName' not a valid domain name"],
      ['an IP as domain', { domainName: '10.0.0.1' }, "'domainName' not a valid domain name"],
      ['a string dnssecEnabled', { dnssecEnabled: 'yes' }, "'dnssecEnabled' must be a boolean"],
      ['a zero ttlOverride', { ttlOverride: 0 }, "'ttlOverride' must be greater than zero"],
      ['a string ttlOverride', { ttlOverride: '60' }, "'ttlOverride' must be an integer"],
      [
        'two problems, in schema order',
        { name: '', domainName: '' },
        "'name' cannot be blank, 'domainName' cannot be blank",
      ],
    ])('rejects %s and writes nothing', async (_case, overrides, text) => {
      const sent = { ...body(), ...overrides };
      const before = responseOf<Cdn[]>(await admin.get('cdns')).length;
      expectError(await admin.at('4.1').post('cdns', sent), 400, text);
      expect(responseOf<Cdn[]>(await admin.get('cdns'))).toHaveLength(before);
    });

    it('rejects a duplicate name or domain, whatever the letter case of the domain', async () => {
      const cdn = await create();
      await expectErrors([
        [admin.post('cdns', body({ name: cdn.name })), 400, `cdn name '${cdn.name}' already exists.`],
        [
          admin.post('cdns', body({ domainName: cdn.domainName.toUpperCase() })),
          400,
          `cdn domain_name '${cdn.domainName}' already exists.`,
        ],
      ]);
      expect(await byName(cdn.name)).toHaveLength(1);
    });

    it('lets exactly one of concurrent creates of the same name win', async () => {
      const sent = body();
      const results = await Promise.all(
        [0, 1, 2, 3].map((i) => admin.post('cdns', { ...sent, domainName: `d${i}.${sent.domainName}` })),
      );
      expect(results.map((r) => r.status).sort()).toEqual([200, 400, 400, 400]);
      expect(await byName(sent.name)).toHaveLength(1);
    });
  });

  describe('PUT /cdns/{id}', () => {
    it('replaces the CDN', async () => {
      const cdn = await create();
      const changes = body({ dnssecEnabled: true, ttlOverride: 300 });
      const res = expectOk(await admin.at('4.1').put(`cdns/${cdn.id}`, changes), 'cdn was updated.');
      const updated = responseOf<Cdn>(res);
      expect(updated).toEqual({ ...changes, id: cdn.id, lastUpdated: expect.stringMatching(CUSTOM_TIME) });
      expect(await byName(changes.name)).toEqual([updated]);
    });

    it('answers 404 for an unknown id and 400 for a non-numeric one', async () => {
      await expectErrors([
        [admin.put('cdns/999999', body()), 404, 'no cdn found with this id'],
        [admin.put('cdns/abc', body()), 400, 'failed to parse key: id'],
      ]);
    });

    it('rejects bad input and a taken name, changing nothing', async () => {
      const [cdn, other] = [await create(), await create()];
      expectError(await admin.put(`cdns/${cdn.id}`, { ...body(), name: '' }), 400, "'name' cannot be blank");
      expectError(
        await admin.put(`cdns/${cdn.id}`, body({ name: other.name })),
        400,
        `cdn name '${other.name}' already exists.`,
      );
      expect(await byName(cdn.name)).toEqual([cdn]);
    });
  });

  describe('DELETE /cdns/{id}', () => {
    it('deletes the CDN', async () => {
      const cdn = await create();
      const res = await admin.delete(`cdns/${cdn.id}`);
      expect(res.body).toEqual({ alerts: [{ text: 'cdn was deleted.', level: 'success' }] });
      expectApiHeaders(res);
      expect(await byName(cdn.name)).toEqual([]);
    });

    it('answers 404 for an unknown id', async () => {
      expectError(await admin.delete('cdns/999999'), 404, 'no cdn with that key found');
    });
  });
});
