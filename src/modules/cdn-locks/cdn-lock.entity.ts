import { Column, Entity, ForeignKey, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { booleanColumn, LAST_UPDATED } from 'src/common/database/columns';
import { Cdn } from 'src/modules/cdns/cdn.entity';
import { User } from 'src/modules/users/user.entity';

/** The one lock a CDN may have, held by a user (docs/original-behaviour.md#cdn-locks). */
@Entity({ name: 'cdn_lock' })
@Index('ix_cdn_lock__tm_user_id', ['userId'])
export class CdnLock {
  @ForeignKey(() => Cdn, { name: 'fk_cdn_lock__cdn_id', onDelete: 'CASCADE' })
  @PrimaryColumn({ name: 'cdn_id', type: 'integer' })
  cdnId!: number;

  @ForeignKey(() => User, { name: 'fk_cdn_lock__tm_user_id', onDelete: 'CASCADE' })
  @Column({ name: 'tm_user_id', type: 'integer' })
  userId!: number;

  @Column({ type: 'text', nullable: true })
  message!: string | null;

  @Column(booleanColumn({ name: 'soft', default: true }))
  soft!: boolean;

  @UpdateDateColumn(LAST_UPDATED)
  lastUpdated!: Date;
}
