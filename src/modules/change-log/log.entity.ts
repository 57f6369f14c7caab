import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { LAST_UPDATED } from 'src/common/database/columns';
import { User } from 'src/modules/users/user.entity';

/** One change-log entry (`log`): written with every successful write, never changed afterwards. */
@Entity({ name: 'log' })
@Index('ix_log__last_updated', ['lastUpdated'])
@Index('ix_log__tm_user', ['userId'])
export class LogEntry {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'varchar', length: 45, nullable: true })
  level!: string | null;

  @Column({ type: 'text' })
  message!: string;

  @Column({ name: 'tm_user', type: 'integer' })
  userId!: number;

  @ManyToOne(() => User, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'tm_user', foreignKeyConstraintName: 'fk_log__tm_user' })
  user?: User;

  @Column({ name: 'ticketnum', type: 'varchar', length: 64, nullable: true })
  ticketNum!: string | null;

  @CreateDateColumn(LAST_UPDATED)
  lastUpdated!: Date;
}
