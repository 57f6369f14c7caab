import { Column, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Profile } from 'src/modules/profiles/profile.entity';
import { Server } from './server.entity';

/** A profile of a server, in priority order (0 first). */
@Entity({ name: 'server_profile' })
export class ServerProfile {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ name: 'server', type: 'integer' })
  serverId!: number;

  @ManyToOne(() => Server, (server) => server.profiles, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'server' })
  server?: Server;

  @Column({ name: 'profile', type: 'integer' })
  profileId!: number;

  @ManyToOne(() => Profile)
  @JoinColumn({ name: 'profile' })
  profile?: Profile;

  @Column({ type: 'integer' })
  priority!: number;
}
