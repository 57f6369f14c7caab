import { MODULE_METADATA } from '@nestjs/common/constants';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { AppModule } from 'src/app.module';

interface ProviderEntry {
  provide?: unknown;
  useClass?: { name: string };
  useExisting?: { name: string };
}

/**
 * The order of the global interceptors is part of the design: Nest runs them outermost first in
 * the order AppModule registers them. The envelope must see what the others return; the request
 * transaction must enclose the conditional checks (their row lock) and the handler; the conditional
 * checks must see the handler's ApiResult before it is serialized.
 */
describe('global interceptors', () => {
  it('are registered envelope → request transaction → conditional checks', () => {
    const providers = (Reflect.getMetadata(MODULE_METADATA.PROVIDERS, AppModule) ?? []) as ProviderEntry[];
    const interceptors = providers
      .filter((p) => p.provide === APP_INTERCEPTOR)
      .map((p) => (p.useClass ?? p.useExisting)?.name);
    expect(interceptors).toEqual([
      'EnvelopeInterceptor',
      'RequestTransactionInterceptor',
      'ConditionalRequestInterceptor',
    ]);
  });
});
