import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn, Unique, UpdateDateColumn } from 'typeorm';
import { Federation } from 'src/modules/federations/federation.entity';
import { User } from 'src/modules/users/user.entity';
import { Role } from 'src/modules/roles/role.entity';
import { LAST_UPDATED } from 'src/common/database/columns';

/** A user assigned to a federation (unique per pair); `role` is unused by the API. */
@Entity({ name: 'federation_tmuser' })
@Unique('uq_federation_tmuser__federation__tm_user', ['federationId', 'userId'])
@Index('ix_federation_tmuser__tm_user', ['userId'])
@Index('ix_federation_tmuser__last_updated', ['lastUpdated'])
export class FederationUser {
  @PrimaryGeneratedColumn()
  id!: number;

  @ForeignKey(() => Federation, { name: 'fk_federation_tmuser__federation', onDelete: 'CASCADE' })
  @Column({ name: 'federation', type: 'integer' })
  federationId!: number;

  @ForeignKey(() => User, { name: 'fk_federation_tmuser__tm_user', onDelete: 'CASCADE' })
  @Column({ name: 'tm_user', type: 'integer' })
  userId!: number;

  @ForeignKey(() => Role, { name: 'fk_federation_tmuser__role', onDelete: 'SET NULL' })
  @Column({ name: 'role', type: 'integer', nullable: true })
  roleId!: number | null;

  @UpdateDateColumn(LAST_UPDATED)
  lastUpdated!: Date;
}
