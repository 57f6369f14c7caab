import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { Profile } from 'src/modules/profiles/profile.entity';
import { Server } from './server.entity';

/** A profile of a server, in priority order (0 first). */
@Entity({ name: 'server_profile' })
@Unique('uq_server_profile__server__profile', ['serverId', 'profileId'])
@Unique('uq_server_profile__server__priority', ['serverId', 'priority'])
@Index('ix_server_profile__profile', ['profileId'])
export class ServerProfile {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ name: 'server', type: 'integer' })
  serverId!: number;

  @ManyToOne(() => Server, (server) => server.profiles, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'server', foreignKeyConstraintName: 'fk_server_profile__server' })
  server?: Server;

  @Column({ name: 'profile', type: 'integer' })
  profileId!: number;

  @ManyToOne(() => Profile, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'profile', foreignKeyConstraintName: 'fk_server_profile__profile' })
  profile?: Profile;

  @Column({ type: 'integer' })
  priority!: number;
}
