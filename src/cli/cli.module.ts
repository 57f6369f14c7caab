import { Global, Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { authConfig, type AuthConfig } from 'src/config/auth.config';
import { databaseConfig } from 'src/config/database.config';
import { keyStoreConfig } from 'src/config/key-store.config';
import { typeOrmRoot } from 'src/database/typeorm-root';
import { KeyStoreRepository } from 'src/modules/keys/store/key-store.repository';
import { KeyStoreService } from 'src/modules/keys/store/key-store.service';
import { UsersModule } from 'src/modules/users/users.module';
import { TrafficOpsImporter } from './import/importer';
import { OperatorCommands } from './operator-commands';

/**
 * The command line signs nobody in: the users module's session cache is off, and no session
 * secret is read (migrations and user administration do not need SESSION_SECRET).
 */
const COMMAND_LINE_AUTH: AuthConfig = {
  sessionSecret: '',
  adminPassword: undefined,
  loginMaxFailures: 1,
  loginWindowSeconds: 1,
  sessionCacheSeconds: 0,
};

@Global()
@Module({
  providers: [{ provide: authConfig.KEY, useValue: COMMAND_LINE_AUTH }],
  exports: [authConfig.KEY],
})
class CommandLineAuthModule {}

/** The operators' command line (src/cli.ts): a Nest application context on the server's database. */
@Module({
  imports: [
    ConfigModule.forRoot({
      isGlobal: true,
      cache: true,
      ignoreEnvFile: true,
      // Validated by cli.ts and by the config factory (see AppModule).
      load: [databaseConfig],
    }),
    CommandLineAuthModule,
    ConfigModule.forFeature(keyStoreConfig),
    typeOrmRoot('all'),
    UsersModule,
  ],
  // The key store alone (not the keys module and its routes' services): the import seals Traffic
  // Vault's keys with it.
  providers: [OperatorCommands, TrafficOpsImporter, KeyStoreService, KeyStoreRepository],
})
export class CliModule {}
