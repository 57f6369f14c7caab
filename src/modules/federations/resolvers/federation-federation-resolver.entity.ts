import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn, Unique, UpdateDateColumn } from 'typeorm';
import { Federation } from 'src/modules/federations/federation.entity';
import { FederationResolver } from './federation-resolver.entity';
import { LAST_UPDATED } from 'src/common/database/columns';

/** A resolver linked to a federation (unique per pair). */
@Entity({ name: 'federation_federation_resolver' })
@Unique('uq_h_80276b925d8c22cab6cd6c54a6e7df9c67c0b606', ['federationId', 'resolverId'])
@Index('ix_federation_federation_resolver__federation_resolver', ['resolverId'])
@Index('ix_federation_federation_resolver__last_updated', ['lastUpdated'])
export class FederationFederationResolver {
  @PrimaryGeneratedColumn()
  id!: number;

  @ForeignKey(() => Federation, {
    name: 'fk_federation_federation_resolver__federation',
    onDelete: 'CASCADE',
  })
  @Column({ name: 'federation', type: 'integer' })
  federationId!: number;

  @ForeignKey(() => FederationResolver, {
    name: 'fk_federation_federation_resolver__federation_resolver',
    onDelete: 'CASCADE',
  })
  @Column({ name: 'federation_resolver', type: 'integer' })
  resolverId!: number;

  @UpdateDateColumn(LAST_UPDATED)
  lastUpdated!: Date;
}
