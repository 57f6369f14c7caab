import { responseOf } from 'test/e2e/support/api';
import { expectOk } from 'test/e2e/support/headers';
import { createCdn, createProfile } from 'test/e2e/support/fixtures/profiles';
import { useApp } from 'test/e2e/support/suite';

const DAY = 24 * 3600 * 1000;
const httpDate = (offsetMs: number) => new Date(Date.now() + offsetMs).toUTCString();

interface Domain {
  profileId: number;
  parameterId: number;
  profileName: string;
  profileDescription: string;
  domainName: string;
}

/** GET cdns/domains: each Traffic Router profile with its CDN's domain, as the original answers it. */
describe('GET cdns/domains', () => {
  const { admin, readOnly } = useApp({ users: { readOnly: 'read-only' } });

  it.each(['3.0', '4.0', '5.0'])('lists the TR_PROFILE profiles with their domain on %s', async (version) => {
    const cdn = await createCdn(admin);
    const router = await createProfile(admin, cdn.id, { type: 'TR_PROFILE' });
    const cache = await createProfile(admin, cdn.id, { type: 'ATS_PROFILE' });
    const res = expectOk(await readOnly.client.at(version).get('cdns/domains'));
    const domains = responseOf<Domain[]>(res);
    expect(domains.filter((d) => d.profileId === router.id)).toEqual([
      {
        profileId: router.id,
        parameterId: -1,
        profileName: router.name,
        profileDescription: `test profile ${router.name}`,
        domainName: `${cdn.name}.example.net`,
      },
    ]);
    expect(domains.some((d) => d.profileId === cache.id)).toBe(false);
  });

  it('answers 304 when no profile changed since, and the list after a change', async () => {
    const unchanged = await admin.get('cdns/domains').set('If-Modified-Since', httpDate(DAY));
    expect([unchanged.status, unchanged.text]).toEqual([304, '']);
    const cdn = await createCdn(admin);
    await createProfile(admin, cdn.id, { type: 'TR_PROFILE' });
    const changed = await admin.get('cdns/domains').set('If-Modified-Since', httpDate(-DAY));
    expect(changed.status).toBe(200);
    expect(responseOf<Domain[]>(changed).length).toBeGreaterThanOrEqual(1);
  });
});
