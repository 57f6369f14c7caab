import { Injectable, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { RequestScopedDataSource } from 'src/common/database/request-transaction';
import { clearKeyStore } from 'src/modules/keys/store/key-store.repository';
import { KeyStoreService } from 'src/modules/keys/store/key-store.service';
import type { Row, SourceVersion, TableMapping } from './mapping';
import { MAPPINGS } from './mappings';
import { Progress } from './progress';
import { Source, SourceError } from './source';
import { parentsFirst, Target } from './target';
import {
  placeVaultKeys,
  type PlacedKeys,
  vaultCheckLines,
  vaultCountLines,
  writeVaultKeys,
} from './vault-keys';
import { readAesKeyFile, readTrafficVault } from './traffic-vault';

export interface ImportOptions {
  from: string;
  check: boolean;
  replace: boolean;
  /** Traffic Vault's PostgreSQL database: its keys are copied too. */
  trafficVault?: string;
  /** The file holding Traffic Vault's AES key (base64), needed with `trafficVault`. */
  trafficVaultAesKey?: string;
}

/** A finished command's output and exit status. */
export interface CommandOutput {
  lines: string[];
  code: number;
}

export interface Violation {
  table: string;
  row: string;
  rule: string;
}

interface ReadTable {
  mapping: TableMapping;
  rows: Row[];
}

/** A refusal: the reason is printed, nothing was written. */
export class ImportRefused extends Error {}

/** How many broken rows a refused import lists (`--check` lists them all). */
const LISTED_VIOLATIONS = 20;

/** `import:traffic-ops`: copies a Traffic Ops database into this service's, in one transaction. */
@Injectable()
export class TrafficOpsImporter {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Optional() private readonly keyStore?: KeyStoreService,
  ) {}

  async run(options: ImportOptions, progress = new Progress()): Promise<CommandOutput> {
    const aesKey = options.trafficVault === undefined ? undefined : this.vaultPreconditions(options);
    const source = await Source.connect(options.from);
    try {
      const version = await source.version();
      await source.requireTables([
        ...new Set(MAPPINGS.flatMap((m) => (typeof m.from === 'function' ? m.from(version) : m.from))),
      ]);
      const tables = await this.readAll(source, version, progress);
      const violations = tables.flatMap(checkRules);
      let keys: PlacedKeys | undefined;
      if (options.trafficVault !== undefined && aesKey !== undefined) {
        progress.update('read Traffic Vault', 0, 1);
        keys = placeVaultKeys(await readTrafficVault(options.trafficVault, aesKey), namesOf(tables));
        progress.update('read Traffic Vault', 1, 1);
      }
      const header = `Traffic Ops ${version.release} (schema ${version.migration})`;
      if (options.check) {
        return {
          lines: [...checkReport(header, tables, violations), ...(keys ? vaultCheckLines(keys) : [])],
          code: violations.length === 0 && (keys?.unreadable.length ?? 0) === 0 ? 0 : 1,
        };
      }
      if (violations.length > 0) {
        throw new ImportRefused(
          [
            `${violations.length} row(s) break this service's rules; nothing was written:`,
            ...violations.slice(0, LISTED_VIOLATIONS).map(describeViolation),
            ...(violations.length > LISTED_VIOLATIONS ? ['  … (--check lists them all)'] : []),
          ].join('\n'),
        );
      }
      if (keys && keys.unreadable.length > 0) {
        throw new ImportRefused(
          [
            `${keys.unreadable.length} Traffic Vault key(s) cannot be copied; nothing was written:`,
            ...keys.unreadable.map((line) => `  ${line}`),
          ].join('\n'),
        );
      }
      const target = new Target(this.dataSource);
      const occupied = await target.tablesWithData();
      if (occupied.length > 0 && !options.replace) {
        throw new ImportRefused(
          `the target database is not empty (rows in ${occupied.join(', ')}): ` +
            'give --replace to replace its contents with the import',
        );
      }
      await this.write(target, tables, progress, keys);
      return {
        lines: [
          `imported ${header}${options.replace && occupied.length > 0 ? ', replacing the previous contents' : ''}:`,
          ...countLines(tables),
          ...(keys ? vaultCountLines(keys) : []),
        ],
        code: 0,
      };
    } finally {
      await source.close();
    }
  }

  /**
   * What `--traffic-vault` needs before anything is read: this service's key store configured
   * (KEY_STORE_KEY seals the copied keys) and the original's AES key. Answers the AES key.
   */
  private vaultPreconditions(options: ImportOptions): Buffer {
    if (!this.keyStore?.configured) {
      throw new ImportRefused(
        '--traffic-vault needs KEY_STORE_KEY: the keys are stored sealed with it in this ' +
          "service's database; set KEY_STORE_KEY (32 bytes, hex or base64) and run again",
      );
    }
    if (!(this.dataSource instanceof RequestScopedDataSource)) {
      // The key store's writes join the import's transaction only through the application's DataSource.
      throw new Error('the import of Traffic Vault keys needs the application’s DataSource');
    }
    if (options.trafficVaultAesKey === undefined) {
      throw new ImportRefused(
        '--traffic-vault needs --traffic-vault-aes-key: the file of Traffic Vault’s AES key',
      );
    }
    return readAesKeyFile(options.trafficVaultAesKey);
  }

  private async readAll(source: Source, version: SourceVersion, progress: Progress): Promise<ReadTable[]> {
    const tables: ReadTable[] = [];
    for (const mapping of MAPPINGS) {
      progress.update(`read ${mapping.table}`, 0, 1);
      let rows = await source.read(mapping.select(version));
      if (mapping.convert) {
        rows = rows.map(mapping.convert);
      }
      if (mapping.parents) {
        rows = parentsFirst(rows, mapping.parents, mapping.table);
      }
      progress.update(`read ${mapping.table}`, 1, 1);
      tables.push({ mapping, rows });
    }
    return tables;
  }

  private async write(
    target: Target,
    tables: ReadTable[],
    progress: Progress,
    keys: PlacedKeys | undefined,
  ): Promise<void> {
    await target.transaction(async (manager) => {
      await target.clear(
        manager,
        tables.map((t) => t.mapping),
      );
      for (const { mapping, rows } of tables) {
        progress.update(`write ${mapping.table}`, 0, rows.length);
        try {
          await target.insert(manager, mapping.table, rows, (done) =>
            progress.update(`write ${mapping.table}`, done, rows.length),
          );
        } catch (error) {
          throw new ImportRefused(
            `writing ${mapping.table} failed, nothing was written: ${(error as Error).message}`,
          );
        }
        progress.update(`write ${mapping.table}`, rows.length, rows.length);
      }
      // The keys of the replaced contents go with them; Traffic Vault's take their place.
      await clearKeyStore(manager);
      if (keys && this.keyStore) {
        try {
          await writeVaultKeys(this.keyStore, keys, (done, total) =>
            progress.update('write key_store', done, total),
          );
        } catch (error) {
          throw new ImportRefused(`${(error as Error).message}, nothing was written`);
        }
      }
    });
  }
}

/** The delivery services' xml_ids and the CDNs' ids by name, as imported: the keys' owners. */
function namesOf(tables: ReadTable[]): { deliveryServices: Set<string>; cdns: Map<string, number> } {
  const rows = (table: string): Row[] => tables.find((t) => t.mapping.table === table)?.rows ?? [];
  return {
    deliveryServices: new Set(rows('deliveryservice').map((row) => String(row.xml_id))),
    cdns: new Map(rows('cdn').map((row) => [String(row.name), Number(row.id)])),
  };
}

function rowName(mapping: TableMapping, row: Row): string {
  return (mapping.key ?? ['id']).map((column) => `${column}=${String(row[column])}`).join(' ');
}

function checkRules({ mapping, rows }: ReadTable): Violation[] {
  const violations: Violation[] = [];
  for (const rule of mapping.rules ?? []) {
    for (const row of rows) {
      if (rule.broken(row)) {
        violations.push({ table: mapping.table, row: rowName(mapping, row), rule: rule.rule });
      }
    }
  }
  return violations;
}

function describeViolation(v: Violation): string {
  return `  ${v.table} ${v.row}: ${v.rule}`;
}

function countLines(tables: ReadTable[]): string[] {
  const width = Math.max(...tables.map((t) => t.mapping.table.length));
  return tables.map(({ mapping, rows }) => `  ${mapping.table.padEnd(width)}  ${rows.length}`);
}

function checkReport(header: string, tables: ReadTable[], violations: Violation[]): string[] {
  return [
    `check of ${header}: nothing was written`,
    'rows that would be copied:',
    ...countLines(tables),
    violations.length === 0
      ? 'no row breaks this service’s rules'
      : `${violations.length} row(s) break this service's rules:`,
    ...violations.map(describeViolation),
  ];
}

export { SourceError };
