import { Column, Entity, OneToMany, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { RoleCapability } from './role-capability.entity';

@Entity({ name: 'role' })
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

  @UpdateDateColumn({ name: 'last_updated', type: 'datetime', precision: 6 })
  lastUpdated!: Date;
}
