import { createHash } from 'node:crypto';
import { Column, Entity, Index, PrimaryGeneratedColumn, Unique, UpdateDateColumn } from 'typeorm';
import { LAST_UPDATED, booleanColumn } from 'src/common/database/columns';

/**
 * The key of the original's UNIQUE(name, config_file, value): MySQL cannot index long text, so the
 * unique index is on this digest of the three (written with every insert and update).
 */
export function parameterIdentity(name: string, configFile: string, value: string): string {
  return createHash('sha256')
    .update(JSON.stringify([name, configFile, value]))
    .digest('hex');
}

@Entity({ name: 'parameter' })
@Unique('uq_parameter__identity', ['identity'])
@Index('ix_parameter__last_updated', ['lastUpdated'])
@Index('ix_parameter__name', ['name'])
export class Parameter {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'varchar', length: 1024 })
  name!: string;

  @Column({ name: 'config_file', type: 'varchar', length: 1024 })
  configFile!: string;

  @Column({ type: 'text' })
  value!: string;

  @Column({ type: 'varchar', length: 64, select: true })
  identity!: string;

  @Column(booleanColumn({ default: false }))
  secure!: boolean;

  /** Free text about the parameter (the original's `parameter.comment`). */
  @Column({ type: 'text', nullable: true })
  comment!: string | null;

  @UpdateDateColumn(LAST_UPDATED)
  lastUpdated!: Date;
}
