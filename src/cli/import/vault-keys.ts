import type { KeyStoreService } from 'src/modules/keys/store/key-store.service';
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
  /** Keys copied per kind (each SSL key version one). */
  counts: Record<VaultKeyKind, number>;
  /** Keys of delivery services that are not in the Traffic Ops database: copied all the same. */
  withoutDeliveryService: string[];
  /** DNSSEC keys of CDNs that are not in the Traffic Ops database, and SSL keys stored twice: not copied. */
  leftOut: string[];
  /** Keys that cannot be copied (do not decrypt, are not JSON, cannot be stored): the run fails. */
  unreadable: string[];
}

/** The key store's `owner` column: an xml_id of at most 48 characters, as this service's. */
const MAX_OWNER = 48;

/**
 * Where each key goes (docs/decisions.md#d188): a delivery service's keys under its xml_id, whether
 * or not the delivery service is still in Traffic Ops (keys outlive their delivery service, in
 * Traffic Vault and here); a CDN's DNSSEC keys under the imported CDN's id, or nowhere when the CDN
 * is not in the Traffic Ops database (listed).
 */
export function placeVaultKeys(
  contents: VaultContents,
  names: { deliveryServices: Set<string>; cdns: Map<string, number> },
): PlacedKeys {
  const placed: PlacedKeys = {
    byDeliveryService: [],
    dnssec: [],
    counts: { ssl: 0, dnssec: 0, url_sig: 0, uri_signing: 0 },
    withoutDeliveryService: [],
    leftOut: [...contents.leftOut],
    unreadable: [...contents.unreadable],
  };
  const tooLong = (name: string): boolean => [...name].length > MAX_OWNER;
  for (const key of contents.keys) {
    if (key.kind === 'dnssec') {
      const cdnId = names.cdns.get(key.owner);
      if (cdnId === undefined) {
        placed.leftOut.push(`${key.label}: no such CDN`);
        continue;
      }
      const sets = Object.entries(key.document as Record<string, unknown>).map(([name, document]) => ({
        owner: name === key.owner ? '' : name,
        document,
      }));
      const long = sets.find((set) => tooLong(set.owner));
      if (long) {
        placed.unreadable.push(
          `${key.label}: the key set of ${long.owner} is named by more than ${MAX_OWNER} characters`,
        );
        continue;
      }
      placed.dnssec.push({ label: key.label, cdnId, cdn: key.owner, sets });
    } else if (tooLong(key.owner)) {
      placed.unreadable.push(`${key.label}: an xml_id of more than ${MAX_OWNER} characters`);
      continue;
    } else {
      if (!names.deliveryServices.has(key.owner)) {
        placed.withoutDeliveryService.push(key.label);
      }
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

function otherLines(keys: PlacedKeys): string[] {
  return [
    ...(keys.withoutDeliveryService.length === 0
      ? []
      : [
          `${keys.withoutDeliveryService.length} of them belong to delivery services no longer in Traffic Ops (kept, as Traffic Vault keeps them):`,
          ...keys.withoutDeliveryService.map((line) => `  ${line}`),
        ]),
    ...(keys.leftOut.length === 0
      ? []
      : [
          `${keys.leftOut.length} Traffic Vault key(s) not copied:`,
          ...keys.leftOut.map((line) => `  ${line}`),
        ]),
  ];
}

/** The counts at the end of an import. */
export function vaultCountLines(keys: PlacedKeys): string[] {
  return ['Traffic Vault keys (sealed with KEY_STORE_KEY):', ...kindLines(keys), ...otherLines(keys)];
}

/** `--check`: the keys that would be copied, those left out and those that cannot be read. */
export function vaultCheckLines(keys: PlacedKeys): string[] {
  return [
    'Traffic Vault keys that would be copied:',
    ...kindLines(keys),
    ...otherLines(keys),
    keys.unreadable.length === 0
      ? 'every Traffic Vault key can be copied'
      : `${keys.unreadable.length} Traffic Vault key(s) cannot be copied:`,
    ...keys.unreadable.map((line) => `  ${line}`),
  ];
}
