import {
  Column,
  Entity,
  ForeignKey,
  Index,
  PrimaryColumn,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { datetimeColumn, dialectDefault, LAST_UPDATED } from 'src/common/database/columns';
import { bigintAsNumber } from 'src/common/database/transformers';

/**
 * The original's CDN interconnection tables (docs/original-behaviour.md#cdni). `footprint_value` and
 * `scope_value` (the original's `text[]`) and `data` are JSON text.
 */

/** The progress of an asynchronous task: `PENDING`, then `SUCCEEDED` or `FAILED`. */
@Entity({ name: 'async_status' })
export class AsyncStatus {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'text' })
  status!: string;

  @Column({ type: 'text', nullable: true })
  message!: string | null;

  @Column(
    datetimeColumn({
      name: 'start_time',
      default: dialectDefault({ mysql: 'CURRENT_TIMESTAMP(6)', sqlite: 'CURRENT_TIMESTAMP' }),
    }),
  )
  startTime!: Date;

  @Column(datetimeColumn({ name: 'end_time', nullable: true }))
  endTime!: Date | null;
}

/** A capability (`FCI.CapacityLimits` or `FCI.Telemetry`) advertised to one uCDN. */
@Entity({ name: 'cdni_capabilities' })
export class CdniCapability {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'text' })
  type!: string;

  @Column({ type: 'text' })
  ucdn!: string;

  @UpdateDateColumn(LAST_UPDATED)
  lastUpdated!: Date;
}

/** Where a capability applies: a footprint type and its values (JSON array of strings). */
@Entity({ name: 'cdni_footprints' })
@Index('ix_cdni_footprints__capability_id', ['capabilityId'])
export class CdniFootprint {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ name: 'footprint_type', type: 'text' })
  footprintType!: string;

  @Column({ name: 'footprint_value', type: 'text' })
  footprintValue!: string;

  @Column({ type: 'text' })
  ucdn!: string;

  @ForeignKey(() => CdniCapability, { name: 'fk_cdni_footprints__capability_id', onDelete: 'CASCADE' })
  @Column({ name: 'capability_id', type: 'integer' })
  capabilityId!: number;

  @UpdateDateColumn(LAST_UPDATED)
  lastUpdated!: Date;
}

/** A telemetry source of a telemetry capability. */
@Entity({ name: 'cdni_telemetry' })
@Index('ix_cdni_telemetry__capability_id', ['capabilityId'])
export class CdniTelemetry {
  @PrimaryColumn({ type: 'varchar', length: 255 })
  id!: string;

  @Column({ type: 'text' })
  type!: string;

  @ForeignKey(() => CdniCapability, { name: 'fk_cdni_telemetry__capability_id', onDelete: 'CASCADE' })
  @Column({ name: 'capability_id', type: 'integer' })
  capabilityId!: number;

  @UpdateDateColumn(LAST_UPDATED)
  lastUpdated!: Date;

  @Column({ name: 'configuration_url', type: 'varchar', length: 1024, default: '' })
  configurationUrl!: string;
}

/** A metric a telemetry source offers. */
@Entity({ name: 'cdni_telemetry_metrics' })
@Index('ix_cdni_telemetry_metrics__telemetry_id', ['telemetryId'])
export class CdniTelemetryMetric {
  @PrimaryColumn({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ name: 'time_granularity', type: 'bigint', transformer: bigintAsNumber })
  timeGranularity!: number;

  @Column({ name: 'data_percentile', type: 'bigint', transformer: bigintAsNumber })
  dataPercentile!: number;

  @Column({ type: 'integer' })
  latency!: number;

  @ForeignKey(() => CdniTelemetry, { name: 'fk_cdni_telemetry_metrics__telemetry_id', onDelete: 'CASCADE' })
  @Column({ name: 'telemetry_id', type: 'varchar', length: 255 })
  telemetryId!: string;

  @UpdateDateColumn(LAST_UPDATED)
  lastUpdated!: Date;
}

/** A capacity limit of a capacity capability, optionally scoped (e.g. to hosts). */
@Entity({ name: 'cdni_limits' })
@Index('ix_cdni_limits__telemetry_id', ['telemetryId'])
@Index('ix_cdni_limits__capability_id', ['capabilityId'])
export class CdniLimit {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ name: 'limit_id', type: 'text' })
  limitId!: string;

  @Column({ name: 'scope_type', type: 'text', nullable: true })
  scopeType!: string | null;

  @Column({ name: 'scope_value', type: 'text', nullable: true })
  scopeValue!: string | null;

  @Column({ name: 'limit_type', type: 'text' })
  limitType!: string;

  @Column({ name: 'maximum_hard', type: 'bigint', transformer: bigintAsNumber })
  maximumHard!: number;

  @Column({ name: 'maximum_soft', type: 'bigint', transformer: bigintAsNumber })
  maximumSoft!: number;

  @ForeignKey(() => CdniTelemetry, { name: 'fk_cdni_limits__telemetry_id', onDelete: 'CASCADE' })
  @Column({ name: 'telemetry_id', type: 'varchar', length: 255 })
  telemetryId!: string;

  @Column({ name: 'telemetry_metric', type: 'text' })
  telemetryMetric!: string;

  @ForeignKey(() => CdniCapability, { name: 'fk_cdni_limits__capability_id', onDelete: 'CASCADE' })
  @Column({ name: 'capability_id', type: 'integer' })
  capabilityId!: number;

  @UpdateDateColumn(LAST_UPDATED)
  lastUpdated!: Date;
}

/** A configuration change a uCDN asked for, queued until an administrator approves or denies it. */
@Entity({ name: 'cdni_capability_updates' })
@Index('ix_cdni_capability_updates__async_status_id', ['asyncStatusId'])
export class CdniCapabilityUpdate {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ name: 'request_type', type: 'text' })
  requestType!: string;

  @Column({ type: 'text' })
  ucdn!: string;

  @Column({ type: 'text', nullable: true })
  host!: string | null;

  @Column({ type: 'text' })
  data!: string;

  @ForeignKey(() => AsyncStatus, { name: 'fk_cdni_capability_updates__async_status_id', onDelete: 'CASCADE' })
  @Column({ name: 'async_status_id', type: 'integer' })
  asyncStatusId!: number;

  @UpdateDateColumn(LAST_UPDATED)
  lastUpdated!: Date;
}

export const CDNI_ENTITIES = [
  AsyncStatus,
  CdniCapability,
  CdniFootprint,
  CdniTelemetry,
  CdniTelemetryMetric,
  CdniLimit,
  CdniCapabilityUpdate,
];
