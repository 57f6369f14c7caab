import { Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { packageInfo } from 'src/bootstrap/package-info';
import { StaticDnsEntriesService } from 'src/modules/static-dns-entries/static-dns-entries.service';
import { CRConfigBuilder } from './crconfig.builder';
import { appMetrics } from 'src/common/metrics/metrics';
import type { CRConfig } from './dto/crconfig.response';
import type { MonitoringConfig } from './dto/monitoring.response';
import { MonitoringBuilder } from './monitoring.builder';
import { type CdnRow, cdnByName, rows, str } from './snapshot-queries';

const CDN_NOT_FOUND = 'CDN not found';

/** `YYYY-MM-DD HH:MM:SS` in UTC, the form both databases store a DATETIME from. */
const sqlDateTime = (date: Date): string => date.toISOString().slice(0, 19).replace('T', ' ');

/**
 * Snapshots of a CDN (docs/original-behaviour.md#snapshots): the CRConfig and the monitoring
 * configuration, computed now or as last taken. The `snapshot` table is written and read with SQL
 * (docs/decisions.md#d70).
 */
@Injectable()
export class SnapshotsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly staticDnsEntries: StaticDnsEntriesService,
  ) {}

  private crConfigBuilder(): CRConfigBuilder {
    return new CRConfigBuilder(this.dataSource, (cdnId, ttlOverride) =>
      this.staticDnsEntries.crConfigEntries(cdnId, ttlOverride),
    );
  }

  /** The CDN named `name`, or 404 `CDN not found`. */
  private async cdn(name: string): Promise<CdnRow> {
    const cdn = await cdnByName(this.dataSource, name);
    if (!cdn) {
      throw new NotFoundException(CDN_NOT_FOUND);
    }
    return cdn;
  }

  /** The name of the CDN with this id, or 404 `No CDN found with that ID`. */
  async cdnNameOf(id: number): Promise<string> {
    const [row] = await rows(this.dataSource, 'SELECT name FROM cdn WHERE id = ?', [id]);
    if (!row) {
      throw new NotFoundException('No CDN found with that ID');
    }
    return str(row.name);
  }

  /** `GET cdns/{name}/snapshot/new`: the CRConfig a snapshot would store now. */
  async computeCRConfig(name: string, user: string): Promise<CRConfig> {
    const cdn = await this.cdn(name);
    const timer = appMetrics().snapshotBuild.startTimer({ document: 'crconfig' });
    const crconfig = await this.crConfigBuilder().build(cdn, {
      user,
      version: packageInfo().version,
    });
    timer();
    return crconfig;
  }

  /**
   * `PUT snapshot`: computes the CRConfig and the monitoring configuration of the CDN and stores
   * both, replacing the CDN's previous snapshot (in the request's transaction). 404 `No CDN ID found
   * with that name` for an unknown name.
   */
  async take(name: string, user: string): Promise<{ id: number; name: string }> {
    const cdn = await cdnByName(this.dataSource, name);
    if (!cdn) {
      throw new NotFoundException('No CDN ID found with that name');
    }
    const build = appMetrics().snapshotBuild;
    let timer = build.startTimer({ document: 'crconfig' });
    const crconfig = await this.crConfigBuilder().build(cdn, {
      user,
      version: packageInfo().version,
    });
    timer();
    timer = build.startTimer({ document: 'monitoring' });
    const monitoring = await new MonitoringBuilder(this.dataSource).build(cdn);
    timer();
    const taken = sqlDateTime(new Date((crconfig.stats.date ?? 0) * 1000));
    const values = [cdn.name, JSON.stringify(crconfig), JSON.stringify(monitoring), taken];
    if (this.dataSource.options.type === 'better-sqlite3') {
      await this.dataSource.query(
        'INSERT INTO snapshot (cdn, crconfig, monitoring, last_updated) VALUES (?, ?, ?, ?) ON CONFLICT(cdn) ' +
          'DO UPDATE SET crconfig = excluded.crconfig, monitoring = excluded.monitoring, last_updated = excluded.last_updated',
        values,
      );
    } else {
      await this.dataSource.query(
        'INSERT INTO snapshot (cdn, crconfig, monitoring, last_updated) VALUES (?, ?, ?, ?) ON DUPLICATE KEY ' +
          'UPDATE crconfig = VALUES(crconfig), monitoring = VALUES(monitoring), last_updated = VALUES(last_updated)',
        values,
      );
    }
    return { id: cdn.id, name: cdn.name };
  }

  /**
   * `GET cdns/{name}/snapshot`: the CRConfig last taken; `{"stats": {}}` when none was taken yet.
   */
  async storedCRConfig(name: string): Promise<CRConfig> {
    const [row] = await rows(
      this.dataSource,
      'SELECT c.name, s.crconfig FROM cdn c LEFT JOIN snapshot s ON s.cdn = c.name WHERE c.name = ?',
      [name],
    );
    if (!row) {
      throw new NotFoundException(CDN_NOT_FOUND);
    }
    const stored = row.crconfig === null || row.crconfig === undefined ? '{}' : str(row.crconfig);
    const document = JSON.parse(stored) as Partial<CRConfig>;
    const { stats = {}, ...rest } = document;
    return { ...rest, stats };
  }

  /**
   * `GET cdns/{name}/configs/monitoring`: the monitoring configuration last taken; computed now when
   * the CDN has no snapshot yet (as the original).
   */
  async monitoring(name: string): Promise<MonitoringConfig> {
    const cdn = await this.cdn(name);
    const [row] = await rows(this.dataSource, 'SELECT monitoring FROM snapshot WHERE cdn = ?', [cdn.name]);
    const stored = row ? str(row.monitoring) : '';
    if (stored !== '' && stored !== '{}') {
      return JSON.parse(stored) as MonitoringConfig;
    }
    return new MonitoringBuilder(this.dataSource).build(cdn);
  }
}
