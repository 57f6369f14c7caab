import { Reflector } from '@nestjs/core';

/**
 * The table behind a controller's routes (docs/api-conventions.md#conditional-requests): its list
 * GETs answer 304 to If-Modified-Since when nothing matching changed or was deleted since, and its
 * PUT/DELETE by id answer 412 to If-Unmodified-Since / If-Match when the row changed after that.
 */
export const ConditionalOn = Reflector.createDecorator<string>();
