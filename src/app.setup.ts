import { VersioningType } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { AppConfig } from 'src/config/app.config';
import { appConfig } from 'src/config/app.config';
import { jsonBody } from 'src/common/http/json-body';
import { createLogger, JsonNestLogger } from 'src/common/logging/logger';
import { requestLog } from 'src/common/logging/request-log';
import { responseHeaders } from 'src/common/http/response-headers';

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
  const logger = createLogger(config.logLevel);
  app.useLogger(new JsonNestLogger(logger));
  app.use(responseHeaders(config.serverName));
  app.use(requestLog(logger));
  app.use(jsonBody(config.bodyLimit));
  app.setGlobalPrefix('api', { exclude: ['health/live', 'health/ready'] });
  app.enableVersioning({ type: VersioningType.URI, prefix: false });
  app.enableShutdownHooks();
  return app;
}
