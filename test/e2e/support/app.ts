import type { INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import { AppModule } from 'src/app.module';
import { configureApp } from 'src/app.setup';

/** The production application, pipeline and all, on the run's database (see global-setup.ts). */
export async function createTestApp(): Promise<INestApplication> {
  const moduleRef = await Test.createTestingModule({ imports: [AppModule] }).compile();
  const app = moduleRef.createNestApplication<NestExpressApplication>({
    bodyParser: false,
    logger: ['error', 'fatal'],
  });
  configureApp(app);
  await app.init();
  return app;
}

/** createTestApp with these environment variables set (undefined: unset) while it starts, then restored. */
export async function createTestAppWithEnv(
  vars: Record<string, string | undefined>,
): Promise<INestApplication> {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  const apply = (values: Record<string, string | undefined>) => {
    for (const [key, value] of Object.entries(values)) {
      if (value === undefined) {
        delete process.env[key];
      } else {
        process.env[key] = value;
      }
    }
  };
  apply(vars);
  try {
    return await createTestApp();
  } finally {
    apply(saved);
  }
}
