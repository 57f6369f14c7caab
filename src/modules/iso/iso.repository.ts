import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';

/** What the ISO data reads of the parameters: the only file of the module that runs SQL. */
@Injectable()
export class IsoRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The value of the first parameter (by id) with this name and config file, or undefined. */
  async parameterValue(name: string, configFile: string): Promise<string | undefined> {
    const [row] = await this.dataSource.query<{ value: string }[]>(
      'SELECT value FROM parameter WHERE name = ? AND config_file = ? ORDER BY id LIMIT 1',
      [name, configFile],
    );
    return row?.value;
  }
}
