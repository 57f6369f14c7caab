import { Module, type DynamicModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { RequestScopedDataSource } from 'src/common/database/request-transaction';
import { UnitOfWork } from 'src/common/database/unit-of-work';
import { databaseConfig } from 'src/config/database.config';
import type { DatabaseConfig } from 'src/config/database.env';
import { buildTypeOrmOptions } from 'src/database/typeorm-options';

/**
 * The application's database connection, for the server (AppModule: the entities of its modules)
 * and the command line (which imports a few modules, and whose entities relate to others: all of them).
 */
export function typeOrmRoot(entities: 'of-modules' | 'all' = 'of-modules'): DynamicModule {
  const root = TypeOrmModule.forRootAsync({
    inject: [databaseConfig.KEY],
    useFactory: (config: DatabaseConfig) => ({
      ...buildTypeOrmOptions(config),
      ...(entities === 'of-modules' ? { autoLoadEntities: true, entities: [] } : {}),
      // No retries: a start-up that cannot reach its database says why and exits at once (wrong
      // credentials never get better; the process supervisor restarts it for everything else).
      toRetry: () => false,
    }),
    // Write requests run in one transaction each, which the services join without knowing it.
    dataSourceFactory: (options) => new RequestScopedDataSource(options!).initialize(),
  });
  // With the connection, every module may inject the unit of work (src/common/database/unit-of-work.ts).
  return {
    module: DatabaseRootModule,
    global: true,
    imports: [root],
    providers: [UnitOfWork],
    exports: [UnitOfWork],
  };
}

/** The connection and the unit of work on it. */
@Module({})
class DatabaseRootModule {}
