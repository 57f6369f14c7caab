import { Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { User } from 'src/modules/users/user.entity';
import { CdnLock } from './cdn-lock.entity';

/** A user the holder of a CDN's lock shares it with. */
@Entity({ name: 'cdn_lock_user' })
@Index('ix_cdn_lock_user__tm_user_id', ['userId'])
export class CdnLockUser {
  @ForeignKey(() => CdnLock, 'cdnId', { name: 'fk_cdn_lock_user__cdn_id', onDelete: 'CASCADE' })
  @PrimaryColumn({ name: 'cdn_id', type: 'integer' })
  cdnId!: number;

  @ForeignKey(() => User, { name: 'fk_cdn_lock_user__tm_user_id', onDelete: 'CASCADE' })
  @PrimaryColumn({ name: 'tm_user_id', type: 'integer' })
  userId!: number;
}
