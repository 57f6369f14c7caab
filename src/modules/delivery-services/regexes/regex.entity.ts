import { Column, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { LAST_UPDATED } from 'src/common/database/columns';
import { Type } from 'src/modules/types/type.entity';

/** A regular expression of a delivery service's match list (HOST_REGEXP, PATH_REGEXP, …). */
@Entity({ name: 'regex' })
export class Regex {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'text' })
  pattern!: string;

  @Column({ name: 'type', type: 'integer' })
  typeId!: number;

  @ManyToOne(() => Type, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'type', foreignKeyConstraintName: 'fk_regex__type' })
  type?: Type;

  @UpdateDateColumn(LAST_UPDATED)
  lastUpdated!: Date;
}
