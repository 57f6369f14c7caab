import { Reflector } from '@nestjs/core';

/**
 * A POST/PUT/DELETE route that changes nothing in the database (e.g. logout): no transaction and
 * no change-log entry.
 */
export const NotAChange = Reflector.createDecorator<true>({ transform: () => true });
