import type { KeyStoreService } from 'src/modules/keys/key-store.service';
import {
  KIND_NAMES,
  VAULT_KINDS,
  type VaultContents,
  type VaultKey,
  type VaultKeyKind,
} from './traffic-vault';

/** A DNSSEC key set as this service stores it: the CDN's own under the owner ''. */
interface DnssecGroup {
  label: string;
  cdnId: number;
  cdn: string;
  sets: { owner: string; document: unknown }[];
}

/** Traffic Vault's keys, placed on the imported delivery services and CDNs. */
export interface PlacedKeys {
  /** SSL, URL and URI signing keys, by delivery service. */
  byDeliveryService: VaultKey[];
  dnssec: DnssecGroup[];
  /** Rows read per kind (each SSL key version a row). */
  counts: Record<VaultKeyKind, number>;
  /** Keys whose delivery service or CDN is not in the Traffic Ops database: not copied. */
  orphans: string[];
  unreadable: string[];
  notes: string[];
}

/**
 * Which keys are copied: those of a delivery service or CDN of the Traffic Ops database. Traffic
 * Vault keeps the keys of deleted delivery services; this service's key routes reach keys only
 * through a delivery service, so those are left out and listed (docs/decisions.md#d188).
 */
export function placeVaultKeys(
  contents: VaultContents,
  names: { deliveryServices: Set<string>; cdns: Map<string, number> },
): PlacedKeys {
  const placed: PlacedKeys = {
    byDeliveryService: [],
    dnssec: [],
    counts: { ssl: 0, dnssec: 0, url_sig: 0, uri_signing: 0 },
    orphans: [],
    unreadable: contents.unreadable,
    notes: contents.notes,
  };
  for (const key of contents.keys) {
    if (key.kind === 'dnssec') {
      const cdnId = names.cdns.get(key.owner);
      if (cdnId === undefined) {
        placed.orphans.push(`${key.label}: no such CDN`);
        continue;
      }
      const sets = Object.entries(key.document as Record<string, unknown>).map(([name, document]) => ({
        owner: name === key.owner ? '' : name,
        document,
      }));
      placed.dnssec.push({ label: key.label, cdnId, cdn: key.owner, sets });
    } else if (!names.deliveryServices.has(key.owner)) {
      placed.orphans.push(`${key.label}: no such delivery service`);
      continue;
    } else {
      placed.byDeliveryService.push(key);
    }
    placed.counts[key.kind]++;
  }
  return placed;
}

/**
 * Writes the keys through the key store (sealed with KEY_STORE_KEY), in the transaction the caller
 * runs: the key store's own transactions become savepoints of it.
 */
export async function writeVaultKeys(
  store: KeyStoreService,
  keys: PlacedKeys,
  progress: (done: number, total: number) => void,
): Promise<void> {
  const total = keys.byDeliveryService.length + keys.dnssec.length;
  let done = 0;
  const step = async (label: string, write: () => Promise<void>): Promise<void> => {
    try {
      await write();
    } catch (error) {
      throw new Error(`writing the ${label} failed: ${(error as Error).message}`);
    }
    progress(++done, total);
  };
  for (const key of keys.byDeliveryService) {
    await step(key.label, () =>
      store.put(key.kind, key.owner, [key.version], key.document, {
        cdn: key.cdn,
        provider: key.provider,
        expiration: key.expiration,
      }),
    );
  }
  for (const group of keys.dnssec) {
    await step(group.label, () =>
      store.putGroup('dnssec', String(group.cdnId), group.sets, { cdn: group.cdn, replaceAll: true }),
    );
  }
  progress(total, total);
}

function kindLines(keys: PlacedKeys): string[] {
  const width = Math.max(...VAULT_KINDS.map((kind) => KIND_NAMES[kind].length));
  return VAULT_KINDS.map((kind) => `  ${KIND_NAMES[kind].padEnd(width)}  ${keys.counts[kind]}`);
}

function orphanLines(keys: PlacedKeys): string[] {
  return keys.orphans.length === 0
    ? []
    : [
        `${keys.orphans.length} Traffic Vault key(s) not copied (not in the Traffic Ops database):`,
        ...keys.orphans.map((line) => `  ${line}`),
      ];
}

/** The counts at the end of an import. */
export function vaultCountLines(keys: PlacedKeys): string[] {
  return [
    'Traffic Vault keys (sealed with KEY_STORE_KEY):',
    ...kindLines(keys),
    ...orphanLines(keys),
    ...keys.notes.map((line) => `  ${line}`),
  ];
}

/** `--check`: the keys that would be copied, those left out and those that cannot be read. */
export function vaultCheckLines(keys: PlacedKeys): string[] {
  return [
    'Traffic Vault keys that would be copied:',
    ...kindLines(keys),
    ...orphanLines(keys),
    ...keys.notes.map((line) => `  ${line}`),
    keys.unreadable.length === 0
      ? 'every Traffic Vault key decrypts'
      : `${keys.unreadable.length} Traffic Vault key(s) cannot be read:`,
    ...keys.unreadable.map((line) => `  ${line}`),
  ];
}
