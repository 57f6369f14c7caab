import { Column, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** A user assigned to a federation (unique per pair); `role` is unused by the API. */
@Entity({ name: 'federation_tmuser' })
export class FederationUser {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ name: 'federation', type: 'integer' })
  federationId!: number;

  @Column({ name: 'tm_user', type: 'integer' })
  userId!: number;

  @Column({ name: 'role', type: 'integer', nullable: true })
  roleId!: number | null;

  @UpdateDateColumn({ name: 'last_updated', type: 'datetime', precision: 6 })
  lastUpdated!: Date;
}
