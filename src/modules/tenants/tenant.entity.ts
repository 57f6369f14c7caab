import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn, Unique, UpdateDateColumn } from 'typeorm';
import { LAST_UPDATED, booleanColumn } from 'src/common/database/columns';

@Entity({ name: 'tenant' })
@Unique('uq_tenant__name', ['name'])
@Index('ix_tenant__last_updated', ['lastUpdated'])
export class Tenant {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Column(booleanColumn({ default: false }))
  active!: boolean;

  @ForeignKey(() => Tenant, { name: 'fk_tenant__parent_id', onDelete: 'RESTRICT' })
  @Column({ name: 'parent_id', type: 'integer', nullable: true })
  parentId!: number | null;

  @UpdateDateColumn(LAST_UPDATED)
  lastUpdated!: Date;
}
