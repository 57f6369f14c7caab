import {
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  Unique,
  UpdateDateColumn,
} from 'typeorm';
import { LAST_UPDATED } from 'src/common/database/columns';
import { Parameter } from 'src/modules/parameters/parameter.entity';
import { Profile } from 'src/modules/profiles/profile.entity';

/** A parameter assigned to a profile; each pair at most once (unique index). */
@Entity({ name: 'profile_parameter' })
@Unique('uq_profile_parameter__profile__parameter', ['profileId', 'parameterId'])
@Index('ix_profile_parameter__last_updated', ['lastUpdated'])
@Index('ix_profile_parameter__parameter', ['parameterId'])
export class ProfileParameter {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ name: 'profile', type: 'integer' })
  profileId!: number;

  @ManyToOne(() => Profile, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'profile', foreignKeyConstraintName: 'fk_profile_parameter__profile' })
  profile?: Profile;

  @Column({ name: 'parameter', type: 'integer' })
  parameterId!: number;

  @ManyToOne(() => Parameter, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'parameter', foreignKeyConstraintName: 'fk_profile_parameter__parameter' })
  parameter?: Parameter;

  @UpdateDateColumn(LAST_UPDATED)
  lastUpdated!: Date;
}
