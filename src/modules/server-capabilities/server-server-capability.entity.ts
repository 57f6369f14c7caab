import { Entity, ForeignKey, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { LAST_UPDATED } from 'src/common/database/columns';
import { Server } from 'src/modules/servers/server.entity';
import { ServerCapability } from './server-capability.entity';

/** A server has a capability. */
@Entity({ name: 'server_server_capability' })
@Index('ix_server_server_capability__last_updated', ['lastUpdated'])
@Index('ix_server_server_capability__server_capability', ['serverCapability'])
export class ServerServerCapability {
  @ForeignKey(() => Server, { name: 'fk_server_server_capability__server', onDelete: 'CASCADE' })
  @PrimaryColumn({ name: 'server', type: 'integer' })
  serverId!: number;

  @ForeignKey(() => ServerCapability, (capability) => capability.name, {
    name: 'fk_server_server_capability__server_capability',
    onDelete: 'RESTRICT',
    onUpdate: 'CASCADE',
  })
  @PrimaryColumn({ name: 'server_capability', type: 'varchar', length: 255 })
  serverCapability!: string;

  @UpdateDateColumn(LAST_UPDATED)
  lastUpdated!: Date;
}
