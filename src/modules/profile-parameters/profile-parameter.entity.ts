import { Column, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { Parameter } from 'src/modules/parameters/parameter.entity';
import { Profile } from 'src/modules/profiles/profile.entity';

/** A parameter assigned to a profile; each pair at most once (unique index). */
@Entity({ name: 'profile_parameter' })
export class ProfileParameter {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ name: 'profile', type: 'integer' })
  profileId!: number;

  @ManyToOne(() => Profile, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'profile' })
  profile?: Profile;

  @Column({ name: 'parameter', type: 'integer' })
  parameterId!: number;

  @ManyToOne(() => Parameter, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'parameter' })
  parameter?: Parameter;

  @UpdateDateColumn({ name: 'last_updated', type: 'datetime', precision: 6 })
  lastUpdated!: Date;
}
