import { VersioningType } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { SwaggerModule } from '@nestjs/swagger';
import { AppModule } from 'src/app.module';
import type { Request } from 'express';
import { SERVED_VERSIONS, versionInPath } from 'src/common/versioning/api-version';
import { OpenApiDocuments } from 'src/modules/openapi/openapi.documents';
import type { AppConfig } from 'src/config/app.config';
import { appConfig } from 'src/config/app.config';
import { gzipResponses } from 'src/common/http/gzip';
import { jsonBody } from 'src/common/http/json-body';
import { processLogger } from 'src/common/logging/logger';
import { AppLogger } from 'src/common/logging/nest-logger';
import { requestLog } from 'src/common/logging/request-log';
import { responseHeaders } from 'src/common/http/response-headers';
import { crossSiteWrites } from 'src/common/http/cross-site';
import { checkInsertStatements } from 'src/common/database/insert-rows';
import { DataSource } from 'typeorm';
import { appMetrics } from 'src/common/metrics/metrics';
import { joinClusterMetrics, metricsRoute } from 'src/common/metrics/metrics-endpoint';
import { poolReaderOf } from 'src/common/metrics/pool';
import { startTracing } from 'src/common/tracing/tracing';
import { traceDatabaseStatements } from 'src/common/tracing/statements';

/**
 * Everything about the HTTP application that cannot live in a module; main.ts and the e2e tests
 * both call it, so tests run the production pipeline.
 */
export function configureApp(app: NestExpressApplication): NestExpressApplication {
  const config = app.get<AppConfig>(appConfig.KEY);
  app.disable('x-powered-by');
  app.disable('etag');
  app.set('query parser', 'simple');
  if (config.trustProxy) {
    app.set('trust proxy', true);
  }
  checkInsertStatements(config.checkInsertStatements);
  const logger = processLogger();
  app.useLogger(new AppLogger(logger));
  // Before responseHeaders: the digest is of the uncompressed body (gzip.ts).
  app.use(gzipResponses());
  app.use(responseHeaders(config.serverName));
  // Metrics and tracing (docs/decisions.md#d160, #d161): GET /metrics is answered before the
  // request log and the sessions; the request log counts each request and ends its span.
  const metrics = config.metrics ? appMetrics() : undefined;
  if (metrics) {
    metrics.readPoolWith(poolReaderOf(app.get(DataSource)));
    joinClusterMetrics();
    if (config.metricsPort === undefined) {
      app.use(metricsRoute());
    }
  }
  if (startTracing()) {
    traceDatabaseStatements();
  }
  app.use(requestLog(logger, metrics));
  // Before the body is read: a refused cross-site write costs nothing and writes nothing.
  app.use(crossSiteWrites(config.allowedOrigins));
  app.use(jsonBody(config.bodyLimit));
  // One route per path (`/api/:version/cdns`) whose handlers check the version, rather than one per
  // path and version: Express tries routes one by one, so five times fewer routes to try.
  app.setGlobalPrefix('api/:version', { exclude: ['health/live', 'health/ready'] });
  app.enableVersioning({
    type: VersioningType.CUSTOM,
    extractor: (req) => versionInPath((req as Request).path) ?? '',
  });
  const documents = app.get(OpenApiDocuments);
  documents.describe(app, AppModule);
  SwaggerModule.setup('api/docs', app, () => documents.forVersion('5.0')!, {
    explorer: true,
    swaggerOptions: {
      // Newest first: the explorer opens on the first document of the list.
      urls: [...SERVED_VERSIONS].reverse().map((v) => ({ url: `/api/${v}/openapi.json`, name: `API ${v}` })),
      'urls.primaryName': `API ${SERVED_VERSIONS[SERVED_VERSIONS.length - 1]}`,
    },
  });
  return app;
}
