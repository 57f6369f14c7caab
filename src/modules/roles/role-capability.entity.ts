import { Column, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { Role } from './role.entity';

/** One permission (`<RESOURCE>:<ACTION>`) held by a role. */
@Entity({ name: 'role_capability' })
export class RoleCapability {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ name: 'role_id', type: 'integer' })
  roleId!: number;

  @ManyToOne(() => Role, (role) => role.capabilities, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'role_id' })
  role?: Role;

  @Column({ name: 'cap_name', type: 'varchar', length: 100 })
  capName!: string;

  @UpdateDateColumn({ name: 'last_updated', type: 'datetime', precision: 6 })
  lastUpdated!: Date;
}
