import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';

/** The readiness probe's statement: the only file of the module that runs SQL. */
@Injectable()
export class HealthRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Resolves when the database answers a statement. */
  async ping(): Promise<void> {
    await this.dataSource.query('SELECT 1');
  }
}
