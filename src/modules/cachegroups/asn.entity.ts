import { Column, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { bigintAsNumber } from 'src/common/database/transformers';
import { Cachegroup } from './cachegroup.entity';

/** An autonomous system number routed to a cache group; each number at most once (unique index). */
@Entity({ name: 'asn' })
export class Asn {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'bigint', transformer: bigintAsNumber })
  asn!: number;

  @Column({ name: 'cachegroup', type: 'integer' })
  cachegroupId!: number;

  @ManyToOne(() => Cachegroup)
  @JoinColumn({ name: 'cachegroup' })
  cachegroup?: Cachegroup;

  @UpdateDateColumn({ name: 'last_updated', type: 'datetime', precision: 6 })
  lastUpdated!: Date;
}
