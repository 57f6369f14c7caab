import { Column, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { Cdn } from 'src/modules/cdns/cdn.entity';

/** The profile types of the original (docs/original-behaviour.md#profiles). */
export const PROFILE_TYPES = [
  'ATS_PROFILE',
  'TR_PROFILE',
  'TM_PROFILE',
  'TS_PROFILE',
  'TP_PROFILE',
  'INFLUXDB_PROFILE',
  'RIAK_PROFILE',
  'SPLUNK_PROFILE',
  'DS_PROFILE',
  'ORG_PROFILE',
  'KAFKA_PROFILE',
  'LOGSTASH_PROFILE',
  'ES_PROFILE',
  'UNK_PROFILE',
  'GROVE_PROFILE',
] as const;

@Entity({ name: 'profile' })
export class Profile {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ type: 'text', nullable: true })
  description!: string | null;

  @Column({ type: 'varchar', length: 32 })
  type!: string;

  @Column({ name: 'cdn', type: 'integer' })
  cdnId!: number;

  @ManyToOne(() => Cdn)
  @JoinColumn({ name: 'cdn' })
  cdn?: Cdn;

  @Column({ name: 'routing_disabled', type: 'boolean', default: false })
  routingDisabled!: boolean;

  @UpdateDateColumn({ name: 'last_updated', type: 'datetime', precision: 6 })
  lastUpdated!: Date;
}
