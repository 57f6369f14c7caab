import { Column, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** A federation: a CNAME and TTL that delivery services and users are attached to (facts §7). */
@Entity({ name: 'federation' })
export class Federation {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'varchar', length: 1024 })
  cname!: string;

  @Column({ type: 'text', nullable: true })
  description!: string | null;

  @Column({ type: 'integer' })
  ttl!: number;

  @UpdateDateColumn({ name: 'last_updated', type: 'datetime', precision: 6 })
  lastUpdated!: Date;
}
