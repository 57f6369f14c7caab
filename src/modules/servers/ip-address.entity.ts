import { Column, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { ServerInterface } from './server-interface.entity';

/** An IP address (or CIDR) of a server interface; service addresses are the ones clients reach. */
@Entity({ name: 'ip_address' })
export class IpAddress {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ name: 'server', type: 'integer' })
  serverId!: number;

  @Column({ name: 'interface', type: 'integer' })
  interfaceId!: number;

  @ManyToOne(() => ServerInterface, (serverInterface) => serverInterface.ipAddresses, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'interface' })
  serverInterface?: ServerInterface;

  @Column({ type: 'varchar', length: 64 })
  address!: string;

  @Column({ type: 'varchar', length: 64, nullable: true })
  gateway!: string | null;

  @Column({ name: 'service_address', type: 'boolean', default: false })
  serviceAddress!: boolean;
}
