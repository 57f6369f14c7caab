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
import { LAST_UPDATED } from 'src/common/database/columns';
import { bigintAsNumber } from 'src/common/database/transformers';
import { Cachegroup } from './cachegroup.entity';

/** An autonomous system number routed to a cache group; each number at most once (unique index). */
@Entity({ name: 'asn' })
@Unique('uq_asn__asn', ['asn'])
@Index('ix_asn__last_updated', ['lastUpdated'])
export class Asn {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'bigint', transformer: bigintAsNumber })
  asn!: number;

  @Column({ name: 'cachegroup', type: 'integer' })
  cachegroupId!: number;

  @ManyToOne(() => Cachegroup, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'cachegroup', foreignKeyConstraintName: 'fk_asn__cachegroup' })
  cachegroup?: Cachegroup;

  @UpdateDateColumn(LAST_UPDATED)
  lastUpdated!: Date;
}
