import {
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  Unique,
  UpdateDateColumn,
} from 'typeorm';
import { LAST_UPDATED, booleanColumn } from 'src/common/database/columns';
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
@Unique('uq_profile__name', ['name'])
@Index('ix_profile__last_updated', ['lastUpdated'])
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

  @ManyToOne(() => Cdn, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'cdn', foreignKeyConstraintName: 'fk_profile__cdn' })
  cdn?: Cdn;

  @Column(booleanColumn({ name: 'routing_disabled', default: false }))
  routingDisabled!: boolean;

  @UpdateDateColumn(LAST_UPDATED)
  lastUpdated!: Date;
}
