import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { LAST_UPDATED } from 'src/common/database/columns';
import { Cdn } from 'src/modules/cdns/cdn.entity';
import { User } from 'src/modules/users/user.entity';

/** A message shown to every user of a CDN, written by a user (docs/original-behaviour.md#cdn-notifications). */
@Entity({ name: 'cdn_notification' })
@Index('ix_cdn_notification__cdn_id', ['cdnId'])
@Index('ix_cdn_notification__tm_user_id', ['userId'])
export class CdnNotification {
  @PrimaryGeneratedColumn()
  id!: number;

  @ForeignKey(() => Cdn, { name: 'fk_cdn_notification__cdn_id', onDelete: 'CASCADE' })
  @Column({ name: 'cdn_id', type: 'integer' })
  cdnId!: number;

  @ForeignKey(() => User, { name: 'fk_cdn_notification__tm_user_id', onDelete: 'CASCADE' })
  @Column({ name: 'tm_user_id', type: 'integer' })
  userId!: number;

  @Column({ type: 'text' })
  notification!: string;

  @UpdateDateColumn(LAST_UPDATED)
  lastUpdated!: Date;
}
