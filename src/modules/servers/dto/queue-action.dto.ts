import { BadRequestException } from '@nestjs/common';
import type { JsonSchema } from 'src/common/validation/json-schema';
import { BODY_NOT_AN_OBJECT } from 'src/common/validation/validation.options';

/**
 * The body of POST servers/{id}/queue_update and cdns/{id}/queue_update: `{"action": "queue" |
 * "dequeue"}`; anything else is the original's one text.
 */
export class QueueActionBody {
  static readonly schema: JsonSchema = {
    type: 'object',
    properties: { action: { type: 'string', enum: ['queue', 'dequeue'] } },
    required: ['action'],
  };

  static readonly parse = (raw: unknown): 'queue' | 'dequeue' => {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      throw new BadRequestException(BODY_NOT_AN_OBJECT);
    }
    const { action } = raw as { action?: unknown };
    if (action !== 'queue' && action !== 'dequeue') {
      throw new BadRequestException("action must be 'queue' or 'dequeue'");
    }
    return action;
  };
}
