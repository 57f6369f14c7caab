import { Reflector } from '@nestjs/core';

/** The handler's result is sent as it is, without the `{response}` envelope (file downloads, health). */
export const RawResponse = Reflector.createDecorator<true>({ transform: () => true });
