import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { booleanColumn, LAST_UPDATED } from 'src/common/database/columns';
import { Type } from 'src/modules/types/type.entity';

/**
 * One of the 31 check slots (docs/original-behaviour.md#servercheck): a loaded check extension
 * (type CHECK_EXTENSION_BOOL or _NUM) or an open slot (CHECK_EXTENSION_OPEN_SLOT), each tied to one
 * column of `servercheck`.
 */
@Entity({ name: 'to_extension' })
@Index('ix_to_extension__type', ['typeId'])
export class ToExtension {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ type: 'varchar', length: 255 })
  version!: string;

  @Column({ name: 'info_url', type: 'varchar', length: 255 })
  infoUrl!: string;

  @Column({ name: 'script_file', type: 'varchar', length: 255 })
  scriptFile!: string;

  @Column(booleanColumn({ name: 'isactive', default: false }))
  isActive!: boolean;

  @Column({ name: 'additional_config_json', type: 'text', nullable: true })
  additionalConfigJson!: string | null;

  @Column({ type: 'text', nullable: true })
  description!: string | null;

  @Column({ name: 'servercheck_short_name', type: 'varchar', length: 255, nullable: true })
  servercheckShortName!: string | null;

  @Column({ name: 'servercheck_column_name', type: 'varchar', length: 255, nullable: true })
  servercheckColumnName!: string | null;

  @ForeignKey(() => Type, { name: 'fk_to_extension__type', onDelete: 'RESTRICT' })
  @Column({ name: 'type', type: 'integer' })
  typeId!: number;

  @UpdateDateColumn(LAST_UPDATED)
  lastUpdated!: Date;
}
