import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { schemaVersionOf } from 'src/database/schema-version';

/** What `GET about` reads of the database: the only file of the module that touches it. */
@Injectable()
export class SystemRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The last migration applied, or undefined before the first. */
  async schemaVersion(): Promise<string | undefined> {
    return (await schemaVersionOf(this.dataSource)).current ?? undefined;
  }
}
