import { Column, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** A resolver linked to a federation (unique per pair). */
@Entity({ name: 'federation_federation_resolver' })
export class FederationFederationResolver {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ name: 'federation', type: 'integer' })
  federationId!: number;

  @Column({ name: 'federation_resolver', type: 'integer' })
  resolverId!: number;

  @UpdateDateColumn({ name: 'last_updated', type: 'datetime', precision: 6 })
  lastUpdated!: Date;
}
