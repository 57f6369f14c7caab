import { Column, CreateDateColumn, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { User } from 'src/modules/users/user.entity';

/** One change-log entry (`log`): written with every successful write, never changed afterwards. */
@Entity({ name: 'log' })
export class LogEntry {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'varchar', length: 45, nullable: true })
  level!: string | null;

  @Column({ type: 'text' })
  message!: string;

  @Column({ name: 'tm_user', type: 'integer' })
  userId!: number;

  @ManyToOne(() => User)
  @JoinColumn({ name: 'tm_user' })
  user?: User;

  @Column({ name: 'ticketnum', type: 'varchar', length: 64, nullable: true })
  ticketNum!: string | null;

  @CreateDateColumn({ name: 'last_updated', type: 'datetime', precision: 6 })
  lastUpdated!: Date;
}
