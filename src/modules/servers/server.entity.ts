import {
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  OneToMany,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { LAST_UPDATED, booleanColumn, datetimeColumn } from 'src/common/database/columns';
import { Cachegroup } from 'src/modules/cachegroups/cachegroup.entity';
import { Cdn } from 'src/modules/cdns/cdn.entity';
import { PhysLocation } from 'src/modules/phys-locations/phys-location.entity';
import { Status } from 'src/modules/statuses/status.entity';
import { Type } from 'src/modules/types/type.entity';
import { ServerInterface } from './server-interface.entity';
import { ServerProfile } from './server-profile.entity';

@Entity({ name: 'server' })
@Index('ix_server__cachegroup__cdn_id', ['cachegroupId', 'cdnId'])
@Index('ix_server__cdn_id', ['cdnId'])
@Index('ix_server__host_name', ['hostName'])
@Index('ix_server__last_updated', ['lastUpdated'])
@Index('ix_server__phys_location', ['physLocationId'])
@Index('ix_server__status', ['statusId'])
@Index('ix_server__type', ['typeId'])
export class Server {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ name: 'host_name', type: 'varchar', length: 255 })
  hostName!: string;

  @Column({ name: 'domain_name', type: 'varchar', length: 255 })
  domainName!: string;

  @Column({ name: 'tcp_port', type: 'integer', nullable: true })
  tcpPort!: number | null;

  @Column({ name: 'https_port', type: 'integer', nullable: true })
  httpsPort!: number | null;

  @Column({ name: 'xmpp_id', type: 'varchar', length: 255, nullable: true })
  xmppId!: string | null;

  @Column({ name: 'xmpp_passwd', type: 'varchar', length: 255, nullable: true })
  xmppPasswd!: string | null;

  @Column({ name: 'phys_location', type: 'integer' })
  physLocationId!: number;

  @ManyToOne(() => PhysLocation, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'phys_location', foreignKeyConstraintName: 'fk_server__phys_location' })
  physLocation?: PhysLocation;

  @Column({ type: 'varchar', length: 64, nullable: true })
  rack!: string | null;

  @Column({ name: 'cachegroup', type: 'integer' })
  cachegroupId!: number;

  @ManyToOne(() => Cachegroup, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'cachegroup', foreignKeyConstraintName: 'fk_server__cachegroup' })
  cachegroup?: Cachegroup;

  @Column({ name: 'type', type: 'integer' })
  typeId!: number;

  @ManyToOne(() => Type, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'type', foreignKeyConstraintName: 'fk_server__type' })
  type?: Type;

  @Column({ name: 'status', type: 'integer' })
  statusId!: number;

  @ManyToOne(() => Status, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'status', foreignKeyConstraintName: 'fk_server__status' })
  status?: Status;

  @Column({ name: 'offline_reason', type: 'varchar', length: 255, nullable: true })
  offlineReason!: string | null;

  @Column({ name: 'cdn_id', type: 'integer' })
  cdnId!: number;

  @ManyToOne(() => Cdn, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'cdn_id', foreignKeyConstraintName: 'fk_server__cdn_id' })
  cdn?: Cdn;

  @Column({ name: 'mgmt_ip_address', type: 'varchar', length: 64, nullable: true })
  mgmtIpAddress!: string | null;

  @Column({ name: 'mgmt_ip_netmask', type: 'varchar', length: 64, nullable: true })
  mgmtIpNetmask!: string | null;

  @Column({ name: 'mgmt_ip_gateway', type: 'varchar', length: 64, nullable: true })
  mgmtIpGateway!: string | null;

  @Column({ name: 'ilo_ip_address', type: 'varchar', length: 64, nullable: true })
  iloIpAddress!: string | null;

  @Column({ name: 'ilo_ip_netmask', type: 'varchar', length: 64, nullable: true })
  iloIpNetmask!: string | null;

  @Column({ name: 'ilo_ip_gateway', type: 'varchar', length: 64, nullable: true })
  iloIpGateway!: string | null;

  @Column({ name: 'ilo_username', type: 'varchar', length: 255, nullable: true })
  iloUsername!: string | null;

  @Column({ name: 'ilo_password', type: 'varchar', length: 255, nullable: true })
  iloPassword!: string | null;

  @Column({ name: 'router_host_name', type: 'varchar', length: 255, nullable: true })
  routerHostName!: string | null;

  @Column({ name: 'router_port_name', type: 'varchar', length: 255, nullable: true })
  routerPortName!: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  guid!: string | null;

  @Column(datetimeColumn({ name: 'status_last_updated', nullable: true }))
  statusLastUpdated!: Date | null;

  /**
   * Updates are pending while config_update_time is later than config_apply_time. The four update and
   * apply times are written through the entity but never read into it (`select: false`): a Date
   * keeps milliseconds, so they are read as text to the microsecond (docs/decisions.md#d205).
   */
  @Column(datetimeColumn({ name: 'config_update_time', nullable: true, select: false }))
  configUpdateTime?: Date | null;

  @Column(datetimeColumn({ name: 'config_apply_time', nullable: true, select: false }))
  configApplyTime?: Date | null;

  @Column(datetimeColumn({ name: 'revalidate_update_time', nullable: true, select: false }))
  revalidateUpdateTime?: Date | null;

  @Column(datetimeColumn({ name: 'revalidate_apply_time', nullable: true, select: false }))
  revalidateApplyTime?: Date | null;

  /** Whether the server's last configuration update failed, as its cache-config tool reports it. */
  @Column(booleanColumn({ name: 'config_update_failed', default: false }))
  configUpdateFailed!: boolean;

  /** Whether the server's last revalidation failed. */
  @Column(booleanColumn({ name: 'revalidate_update_failed', default: false }))
  revalidateUpdateFailed!: boolean;

  @OneToMany(() => ServerProfile, (profile) => profile.server)
  profiles?: ServerProfile[];

  @OneToMany(() => ServerInterface, (serverInterface) => serverInterface.server)
  interfaces?: ServerInterface[];

  @UpdateDateColumn(LAST_UPDATED)
  lastUpdated!: Date;
}
