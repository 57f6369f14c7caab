import { Column, Entity, Index, OneToMany, PrimaryGeneratedColumn, Unique, UpdateDateColumn } from 'typeorm';
import { LAST_UPDATED } from 'src/common/database/columns';
import { RoleCapability } from './role-capability.entity';

@Entity({ name: 'role' })
@Unique('uq_role__name', ['name'])
@Index('ix_role__last_updated', ['lastUpdated'])
export class Role {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ type: 'text' })
  description!: string;

  @Column({ name: 'priv_level', type: 'integer' })
  privLevel!: number;

  @OneToMany(() => RoleCapability, (capability) => capability.role)
  capabilities?: RoleCapability[];

  @UpdateDateColumn(LAST_UPDATED)
  lastUpdated!: Date;
}
