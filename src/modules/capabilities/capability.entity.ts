import { Column, Entity, PrimaryColumn, PrimaryGeneratedColumn, Unique, UpdateDateColumn } from 'typeorm';
import { LAST_UPDATED } from 'src/common/database/columns';

/** A capability of the original's pre-permission authorization, by name (docs/decisions.md#d113). */
@Entity({ name: 'capability' })
export class Capability {
  @PrimaryColumn({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ type: 'text', nullable: true })
  description!: string | null;

  @UpdateDateColumn(LAST_UPDATED)
  lastUpdated!: Date;
}

/** Which capability an API route (method and path) needed. */
@Entity({ name: 'api_capability' })
@Unique('uq_api_capability__http_method__route__capability', ['httpMethod', 'route', 'capability'])
export class ApiCapability {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ name: 'http_method', type: 'varchar', length: 16 })
  httpMethod!: string;

  @Column({ type: 'varchar', length: 255 })
  route!: string;

  @Column({ type: 'varchar', length: 255 })
  capability!: string;

  @UpdateDateColumn(LAST_UPDATED)
  lastUpdated!: Date;
}
