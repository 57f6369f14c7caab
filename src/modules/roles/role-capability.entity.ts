import {
  Column,
  Entity,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  Unique,
  UpdateDateColumn,
} from 'typeorm';
import { LAST_UPDATED } from 'src/common/database/columns';
import { Role } from './role.entity';

/** One permission (`<RESOURCE>:<ACTION>`) held by a role. */
@Entity({ name: 'role_capability' })
@Unique('uq_role_capability__role_id__cap_name', ['roleId', 'capName'])
export class RoleCapability {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ name: 'role_id', type: 'integer' })
  roleId!: number;

  @ManyToOne(() => Role, (role) => role.capabilities, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'role_id', foreignKeyConstraintName: 'fk_role_capability__role_id' })
  role?: Role;

  @Column({ name: 'cap_name', type: 'varchar', length: 100 })
  capName!: string;

  @UpdateDateColumn(LAST_UPDATED)
  lastUpdated!: Date;
}
