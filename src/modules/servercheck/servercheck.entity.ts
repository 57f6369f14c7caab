import { Column, Entity, ForeignKey, PrimaryGeneratedColumn, Unique, UpdateDateColumn } from 'typeorm';
import { LAST_UPDATED } from 'src/common/database/columns';
import { bigintAsNumber } from 'src/common/database/transformers';
import { Server } from 'src/modules/servers/server.entity';

/** The check columns of `servercheck`, in the original's order; each belongs to one `to_extension` slot. */
export const CHECK_COLUMNS = [
  'aa',
  'ab',
  'ac',
  'ad',
  'ae',
  'af',
  'ag',
  'ah',
  'ai',
  'aj',
  'ak',
  'al',
  'am',
  'an',
  'ao',
  'ap',
  'aq',
  'ar',
  'bf',
  'at',
  'au',
  'av',
  'aw',
  'ax',
  'ay',
  'az',
  'ba',
  'bb',
  'bc',
  'bd',
  'be',
] as const;

export type CheckColumn = (typeof CHECK_COLUMNS)[number];

/** The latest value of each check of one server (docs/original-behaviour.md#servercheck). */
@Entity({ name: 'servercheck' })
@Unique('uq_servercheck__server', ['serverId'])
export class ServerCheck {
  @PrimaryGeneratedColumn()
  id!: number;

  @ForeignKey(() => Server, { name: 'fk_servercheck__server', onDelete: 'CASCADE' })
  @Column({ name: 'server', type: 'integer' })
  serverId!: number;

  @UpdateDateColumn(LAST_UPDATED)
  lastUpdated!: Date;
}

export type ServerCheckColumns = ServerCheck & Partial<Record<CheckColumn, number | null>>;

// One nullable BIGINT column per check, declared in a loop rather than 31 times by hand.
for (const column of CHECK_COLUMNS) {
  Reflect.decorate(
    [Column({ name: column, type: 'bigint', nullable: true, transformer: bigintAsNumber })],
    ServerCheck.prototype,
    column,
    undefined,
  );
}
