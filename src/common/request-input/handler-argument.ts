import { createParamDecorator, type ExecutionContext } from '@nestjs/common';

const FACTORIES = new Set<unknown>();

/**
 * `createParamDecorator` for the few sources of a handler's arguments, all in src/common: the
 * declared path and query parameters and list queries (request-input.ts, list-query.ts), the body
 * (@ValidBody), the API version and the signed-in user. The route audit
 * (request-input.routes.spec.ts) accepts no other parameter decorator on a handler, and lint refuses
 * createParamDecorator, @Query() and @Param() under src/modules.
 */
export function handlerArgument<Data, Output>(
  factory: (data: Data, context: ExecutionContext) => Output,
): ReturnType<typeof createParamDecorator<Data, Output>> {
  FACTORIES.add(factory);
  return createParamDecorator(factory);
}

/** Whether a handler argument's factory is one of handlerArgument's. */
export function isHandlerArgumentFactory(factory: unknown): boolean {
  return FACTORIES.has(factory);
}
