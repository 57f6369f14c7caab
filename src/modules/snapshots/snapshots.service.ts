import { Injectable, NotFoundException } from '@nestjs/common';
import { packageInfo } from 'src/bootstrap/package-info';
import { StaticDnsEntriesService } from 'src/modules/static-dns-entries/static-dns-entries.service';
import { CRConfigBuilder } from './crconfig.builder';
import { appMetrics } from 'src/common/metrics/metrics';
import type { CRConfig } from './dto/crconfig.response';
import type { MonitoringConfig } from './dto/monitoring.response';
import { MonitoringBuilder } from './monitoring.builder';
import { type CdnRow, str } from './snapshot-queries';
import { SnapshotsRepository } from './snapshots.repository';

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
    private readonly snapshots: SnapshotsRepository,
    private readonly staticDnsEntries: StaticDnsEntriesService,
  ) {}

  private crConfigBuilder(): CRConfigBuilder {
    return new CRConfigBuilder(this.snapshots, (cdnId, ttlOverride) =>
      this.staticDnsEntries.crConfigEntries(cdnId, ttlOverride),
    );
  }

  /** The CDN named `name`, or 404 `CDN not found`. */
  private async cdn(name: string): Promise<CdnRow> {
    const cdn = await this.snapshots.cdnByName(name);
    if (!cdn) {
      throw new NotFoundException(CDN_NOT_FOUND);
    }
    return cdn;
  }

  /** The name of the CDN with this id, or 404 `No CDN found with that ID`. */
  async cdnNameOf(id: number): Promise<string> {
    const name = await this.snapshots.cdnNameOf(id);
    if (name === undefined) {
      throw new NotFoundException('No CDN found with that ID');
    }
    return name;
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
    const cdn = await this.snapshots.cdnByName(name);
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
    const monitoring = await new MonitoringBuilder(this.snapshots).build(cdn);
    timer();
    const taken = sqlDateTime(new Date((crconfig.stats.date ?? 0) * 1000));
    await this.snapshots.store(cdn.name, JSON.stringify(crconfig), JSON.stringify(monitoring), taken);
    return { id: cdn.id, name: cdn.name };
  }

  /**
   * `GET cdns/{name}/snapshot`: the CRConfig last taken; `{"stats": {}}` when none was taken yet.
   */
  async storedCRConfig(name: string): Promise<CRConfig> {
    const row = await this.snapshots.storedCRConfig(name);
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
    const stored = await this.snapshots.storedMonitoring(cdn.name);
    if (stored !== '' && stored !== '{}') {
      return JSON.parse(stored) as MonitoringConfig;
    }
    return new MonitoringBuilder(this.snapshots).build(cdn);
  }
}
