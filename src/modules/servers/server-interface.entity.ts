import { Column, Entity, JoinColumn, ManyToOne, OneToMany, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { booleanColumn } from 'src/common/database/columns';
import { bigintAsNumber } from 'src/common/database/transformers';
import { IpAddress } from './ip-address.entity';
import { Server } from './server.entity';

/** A network interface of a server. */
@Entity({ name: 'interface' })
@Unique('uq_interface__server__name', ['serverId', 'name'])
export class ServerInterface {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ name: 'server', type: 'integer' })
  serverId!: number;

  @ManyToOne(() => Server, (server) => server.interfaces, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'server', foreignKeyConstraintName: 'fk_interface__server' })
  server?: Server;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Column(booleanColumn({ default: false }))
  monitor!: boolean;

  @Column({ type: 'integer', nullable: true })
  mtu!: number | null;

  @Column({ name: 'max_bandwidth', type: 'bigint', nullable: true, transformer: bigintAsNumber })
  maxBandwidth!: number | null;

  @Column({ name: 'router_host_name', type: 'varchar', length: 255, nullable: true })
  routerHostName!: string | null;

  @Column({ name: 'router_port_name', type: 'varchar', length: 255, nullable: true })
  routerPortName!: string | null;

  @OneToMany(() => IpAddress, (address) => address.serverInterface)
  ipAddresses?: IpAddress[];
}
