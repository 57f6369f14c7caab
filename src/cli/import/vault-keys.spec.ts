import type { VaultContents, VaultKey } from './traffic-vault';
import { placeVaultKeys } from './vault-keys';

const key = (kind: VaultKey['kind'], owner: string, document: unknown = {}): VaultKey => ({
  kind,
  owner,
  version: '',
  label: `${kind} of ${owner}`,
  document,
});

describe('placeVaultKeys', () => {
  const names = { deliveryServices: new Set(['ds-1']), cdns: new Map([['cdn-a', 7]]) };
  const contents = (keys: VaultKey[]): VaultContents => ({ keys, unreadable: [], leftOut: [] });

  it('stores a CDN’s DNSSEC sets under its id, its own set under the empty owner', () => {
    const placed = placeVaultKeys(
      contents([key('dnssec', 'cdn-a', { 'cdn-a': { zsk: null, ksk: null }, 'ds-1': { zsk: [], ksk: [] } })]),
      names,
    );
    expect(placed.dnssec).toEqual([
      {
        label: 'dnssec of cdn-a',
        cdnId: 7,
        cdn: 'cdn-a',
        sets: [
          { owner: '', document: { zsk: null, ksk: null } },
          { owner: 'ds-1', document: { zsk: [], ksk: [] } },
        ],
      },
    ]);
    expect(placed.counts.dnssec).toBe(1);
  });

  it('copies the keys of delivery services no longer in Traffic Ops, and says so; leaves out a gone CDN’s', () => {
    const placed = placeVaultKeys(
      contents([key('url_sig', 'ds-1'), key('url_sig', 'ds-gone'), key('dnssec', 'cdn-gone', {})]),
      names,
    );
    expect(placed.byDeliveryService.map((k) => k.owner)).toEqual(['ds-1', 'ds-gone']);
    expect(placed.withoutDeliveryService).toEqual(['url_sig of ds-gone']);
    expect(placed.leftOut).toEqual(['dnssec of cdn-gone: no such CDN']);
    expect(placed.counts).toEqual({ ssl: 0, dnssec: 0, url_sig: 2, uri_signing: 0 });
  });

  it('refuses names longer than the key store keeps (48 characters)', () => {
    const long = 'd'.repeat(49);
    const placed = placeVaultKeys(
      contents([
        key('uri_signing', long),
        key('dnssec', 'cdn-a', { [long]: {} }),
        key('ssl', 'é'.repeat(48)),
      ]),
      names,
    );
    expect(placed.unreadable).toEqual([
      `uri_signing of ${long}: an xml_id of more than 48 characters`,
      `dnssec of cdn-a: the key set of ${long} is named by more than 48 characters`,
    ]);
    expect(placed.byDeliveryService.map((k) => k.kind)).toEqual(['ssl']);
  });
});
