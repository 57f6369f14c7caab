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
import { LAST_UPDATED, booleanColumn, datetimeColumn } from 'src/common/database/columns';
import { Role } from 'src/modules/roles/role.entity';
import { Tenant } from 'src/modules/tenants/tenant.entity';

@Entity({ name: 'tm_user' })
@Unique('uq_tm_user__username', ['username'])
@Unique('uq_tm_user__email', ['email'])
@Index('ix_tm_user__last_updated', ['lastUpdated'])
export class User {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'varchar', length: 128 })
  username!: string;

  @Column({ type: 'varchar', length: 255, nullable: true })
  email!: string | null;

  @Column({ name: 'full_name', type: 'varchar', length: 255, nullable: true })
  fullName!: string | null;

  /** `SCRYPT:N:r:p:<salt>:<key>`; never sent to clients. */
  @Column({ name: 'local_passwd', type: 'varchar', length: 255, nullable: true, select: false })
  localPasswd?: string | null;

  @Column({ name: 'role', type: 'integer' })
  roleId!: number;

  @ManyToOne(() => Role, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'role', foreignKeyConstraintName: 'fk_tm_user__role' })
  role?: Role;

  @Column({ name: 'tenant_id', type: 'integer' })
  tenantId!: number;

  @ManyToOne(() => Tenant, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'tenant_id', foreignKeyConstraintName: 'fk_tm_user__tenant_id' })
  tenant?: Tenant;

  @Column({ type: 'varchar', length: 255, nullable: true })
  company!: string | null;

  @Column({ name: 'address_line1', type: 'varchar', length: 255, nullable: true })
  addressLine1!: string | null;

  @Column({ name: 'address_line2', type: 'varchar', length: 255, nullable: true })
  addressLine2!: string | null;

  @Column({ type: 'varchar', length: 128, nullable: true })
  city!: string | null;

  @Column({ name: 'state_or_province', type: 'varchar', length: 128, nullable: true })
  stateOrProvince!: string | null;

  @Column({ name: 'postal_code', type: 'varchar', length: 32, nullable: true })
  postalCode!: string | null;

  @Column({ type: 'varchar', length: 128, nullable: true })
  country!: string | null;

  @Column({ name: 'phone_number', type: 'varchar', length: 64, nullable: true })
  phoneNumber!: string | null;

  @Column({ name: 'public_ssh_key', type: 'text', nullable: true })
  publicSshKey!: string | null;

  @Column({ type: 'integer', nullable: true })
  uid!: number | null;

  @Column({ type: 'integer', nullable: true })
  gid!: number | null;

  @Column(booleanColumn({ name: 'new_user', default: false }))
  newUser!: boolean;

  @Column({ type: 'varchar', length: 64, default: '' })
  ucdn!: string;

  @Column(datetimeColumn({ name: 'registration_sent', nullable: true }))
  registrationSent!: Date | null;

  @Column(datetimeColumn({ name: 'last_authenticated', nullable: true }))
  lastAuthenticated!: Date | null;

  /** How many change-log entries the user wrote (4.0+ `changeLogCount`); read, never a column. */
  changeLogCount?: number;

  /** Raised to end every session issued before (see src/modules/auth/session-cookie.ts); never sent. */
  @Column({ name: 'session_generation', type: 'integer', default: 0, select: false })
  sessionGeneration?: number;

  /** The one-time token of the last registration or password-reset mail; never sent. */
  @Column({ type: 'varchar', length: 255, nullable: true, select: false })
  token?: string | null;

  @UpdateDateColumn(LAST_UPDATED)
  lastUpdated!: Date;
}
