import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { ConditionalRequestInterceptor } from 'src/common/conditional/conditional.interceptor';
import { AllExceptionsFilter } from 'src/common/filters/all-exceptions.filter';
import { AuthorizationGuard } from 'src/common/guards/authorization.guard';
import { SessionAuthGuard } from 'src/modules/auth/session-auth.guard';
import { SessionService } from 'src/modules/auth/session.service';
import { SESSION_RENEWAL } from 'src/common/auth/session-renewal';
import { EnvelopeInterceptor } from 'src/common/interceptors/envelope.interceptor';
import { RouteDispatch } from 'src/common/http/route-dispatch';
import { appConfig } from 'src/config/app.config';
import { authConfig } from 'src/config/auth.config';
import { databaseConfig } from 'src/config/database.config';
import { typeOrmRoot } from 'src/database/typeorm-root';
import { WireModule } from 'src/common/wire/wire.module';
import { AuthModule } from 'src/modules/auth/auth.module';
import { ChangeLogParticipant } from 'src/modules/change-log/change-log.participant';
import {
  RequestTransactionInterceptor,
  TRANSACTION_PARTICIPANTS,
} from 'src/common/database/request-transaction.interceptor';
import { ChangeLogModule } from 'src/modules/change-log/change-log.module';
import { FederationsModule } from 'src/modules/federations/federations.module';
import { SteeringModule } from 'src/modules/steering/steering.module';
import { StatsModule } from 'src/modules/stats/stats.module';
import { CdniModule } from 'src/modules/cdni/cdni.module';
import { CapabilitiesModule } from 'src/modules/capabilities/capabilities.module';
import { SystemModule } from 'src/modules/system/system.module';
import { HealthModule } from 'src/modules/health/health.module';
import { OpenApiModule } from 'src/modules/openapi/openapi.module';
import { DivisionsModule } from 'src/modules/divisions/divisions.module';
import { RegionsModule } from 'src/modules/regions/regions.module';
import { PhysLocationsModule } from 'src/modules/phys-locations/phys-locations.module';
import { StatusesModule } from 'src/modules/statuses/statuses.module';
import { CachegroupsModule } from 'src/modules/cachegroups/cachegroups.module';
import { ProfilesModule } from 'src/modules/profiles/profiles.module';
import { ParametersModule } from 'src/modules/parameters/parameters.module';
import { ProfileParametersModule } from 'src/modules/profile-parameters/profile-parameters.module';
import { ServersModule } from 'src/modules/servers/servers.module';
import { ServerCapabilitiesModule } from 'src/modules/server-capabilities/server-capabilities.module';
import { CdnsModule } from 'src/modules/cdns/cdns.module';
import { DeliveryServiceServersModule } from 'src/modules/delivery-service-servers/delivery-service-servers.module';
import { DeliveryServicesModule } from 'src/modules/delivery-services/delivery-services.module';
import { RolesModule } from 'src/modules/roles/roles.module';
import { TenantsModule } from 'src/modules/tenants/tenants.module';
import { TypesModule } from 'src/modules/types/types.module';
import { KeysModule } from 'src/modules/keys/keys.module';
import { IsoModule } from 'src/modules/iso/iso.module';
import { FirstAdmin } from 'src/modules/users/first-admin';
import { UsersModule } from 'src/modules/users/users.module';
import { JobsModule } from 'src/modules/jobs/jobs.module';
import { TopologiesModule } from 'src/modules/topologies/topologies.module';
import { SnapshotsModule } from 'src/modules/snapshots/snapshots.module';
import { CoordinatesModule } from 'src/modules/coordinates/coordinates.module';
import { DeliveryServiceRequestsModule } from 'src/modules/delivery-service-requests/delivery-service-requests.module';
import { ServiceCategoriesModule } from 'src/modules/service-categories/service-categories.module';
import { CdnNotificationsModule } from 'src/modules/cdn-notifications/cdn-notifications.module';
import { CdnLocksModule } from 'src/modules/cdn-locks/cdn-locks.module';
import { MonitoringModule } from 'src/modules/monitoring/monitoring.module';
import { ServercheckModule } from 'src/modules/servercheck/servercheck.module';
import { StaticDnsEntriesModule } from 'src/modules/static-dns-entries/static-dns-entries.module';

@Module({
  imports: [
    ConfigModule.forRoot({
      isGlobal: true,
      cache: true,
      ignoreEnvFile: true,
      // No `validate` here: it would run when this file is imported (before main.ts has read .env)
      // and write every default into process.env. main.ts validates the environment first, and
      // each config factory validates what it reads (authConfig: the server's rules).
      load: [appConfig, databaseConfig, authConfig],
    }),
    typeOrmRoot(),
    WireModule,
    AuthModule,
    UsersModule,
    RolesModule,
    TenantsModule,
    CdnsModule,
    TypesModule,
    DivisionsModule,
    RegionsModule,
    PhysLocationsModule,
    StatusesModule,
    CachegroupsModule,
    ProfilesModule,
    ParametersModule,
    ProfileParametersModule,
    ServersModule,
    ServerCapabilitiesModule,
    DeliveryServicesModule,
    DeliveryServiceServersModule,
    FederationsModule,
    SteeringModule,
    JobsModule,
    StatsModule,
    HealthModule,
    SystemModule,
    TopologiesModule,
    OpenApiModule,
    ChangeLogModule,
    SnapshotsModule,
    ServiceCategoriesModule,
    CoordinatesModule,
    DeliveryServiceRequestsModule,
    KeysModule,
    CdnNotificationsModule,
    CdnLocksModule,
    MonitoringModule,
    ServercheckModule,
    StaticDnsEntriesModule,
    IsoModule,
    CdniModule,
    CapabilitiesModule,
  ],
  providers: [
    SessionAuthGuard,
    AuthorizationGuard,
    { provide: APP_GUARD, useExisting: SessionAuthGuard },
    { provide: APP_GUARD, useExisting: AuthorizationGuard },
    // The global interceptors run in this order, outermost first (src/app.interceptors.spec.ts):
    // the envelope serializes what the others return; a signed-in write, its precondition check and
    // its participants (the change log) are one transaction; the conditional checks see the handler's
    // ApiResult before it is serialized.
    { provide: APP_INTERCEPTOR, useClass: EnvelopeInterceptor },
    { provide: APP_INTERCEPTOR, useClass: RequestTransactionInterceptor },
    { provide: APP_INTERCEPTOR, useClass: ConditionalRequestInterceptor },
    {
      provide: TRANSACTION_PARTICIPANTS,
      useFactory: (changeLog: ChangeLogParticipant) => [changeLog],
      inject: [ChangeLogParticipant],
    },
    // AllExceptionsFilter renews sessions through auth's service (src/common/auth/session-renewal.ts).
    { provide: SESSION_RENEWAL, useExisting: SessionService },
    { provide: APP_FILTER, useClass: AllExceptionsFilter },
    FirstAdmin,
    // Once every route is registered: Express looks a request up among its first segment's routes only.
    RouteDispatch,
  ],
})
export class AppModule {}
