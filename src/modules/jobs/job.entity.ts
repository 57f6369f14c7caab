import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { datetimeColumn, LAST_UPDATED } from 'src/common/database/columns';
import { DeliveryService } from 'src/modules/delivery-services/delivery-service.entity';
import { User } from 'src/modules/users/user.entity';

/** A content invalidation job (`job`): a regex of asset URLs a CDN revalidates (or refetches) for a while. */
@Entity({ name: 'job' })
@Index('ix_job__job_deliveryservice', ['deliveryServiceId'])
@Index('ix_job__job_user', ['userId'])
@Index('ix_job__start_time', ['startTime'])
@Index('ix_job__last_updated', ['lastUpdated'])
export class Job {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ name: 'ttl_hr', type: 'integer', nullable: true })
  ttlHours!: number | null;

  @Column({ name: 'asset_url', type: 'text' })
  assetUrl!: string;

  @Column(datetimeColumn({ name: 'start_time' }))
  startTime!: Date;

  @Column(datetimeColumn({ name: 'entered_time' }))
  enteredTime!: Date;

  @ForeignKey(() => User, { name: 'fk_job__job_user', onDelete: 'RESTRICT' })
  @Column({ name: 'job_user', type: 'integer' })
  userId!: number;

  @ForeignKey(() => DeliveryService, { name: 'fk_job__job_deliveryservice', onDelete: 'CASCADE' })
  @Column({ name: 'job_deliveryservice', type: 'integer', nullable: true })
  deliveryServiceId!: number | null;

  @Column({ name: 'invalidation_type', type: 'varchar', length: 32 })
  invalidationType!: string;

  @UpdateDateColumn(LAST_UPDATED)
  lastUpdated!: Date;
}
