import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { bigintAsNumber } from 'src/common/database/transformers';

/**
 * A session signed out on its own (`POST user/logout`): its cookies, on every instance, are refused
 * from then on. Kept until no cookie of it can still be unexpired (`expires`, Unix seconds), then
 * pruned (docs/decisions.md#d115). No foreign key: a record names a random session id, and one of a
 * deleted user expires like any other.
 */
@Entity({ name: 'ended_session' })
@Index('ix_ended_session__tm_user_id', ['userId'])
@Index('ix_ended_session__expires', ['expires'])
export class EndedSession {
  @PrimaryColumn({ name: 'session_id', type: 'varchar', length: 32 })
  sessionId!: string;

  @Column({ name: 'tm_user_id', type: 'integer' })
  userId!: number;

  @Column({ type: 'bigint', transformer: bigintAsNumber })
  expires!: number;
}
