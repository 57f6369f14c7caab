import type { JsonSchema } from 'src/common/validation/json-schema';
import { BadRequestException } from '@nestjs/common';
import { intProblem, isIntText } from 'src/common/validation/integers';
import { BODY_NOT_AN_OBJECT } from 'src/common/validation/validation.options';

/** queue_update's body: the CDN by name, by id, or both (docs/original-behaviour.md#queue-update). */
export interface QueueUpdateRequest {
  action: 'queue' | 'dequeue';
  cdn?: string;
  cdnId?: number;
}

/**
 * Checks in the original's order: the action, then that a CDN is named (`cdn` empty counts as
 * absent). `cdnId` is an integer or a numeric string, as the original's JSONIntStr reads it, within
 * the 32-bit id column; a field of another JSON type is a 400 naming it (docs/decisions.md#d9).
 */
export function parseQueueUpdate(body: unknown): QueueUpdateRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new BadRequestException(BODY_NOT_AN_OBJECT);
  }
  const { action, cdn, cdnId } = body as Record<string, unknown>;
  if (cdn !== undefined && cdn !== null && typeof cdn !== 'string') {
    throw new BadRequestException("'cdn' must be a string");
  }
  let id: number | undefined;
  if (cdnId !== undefined && cdnId !== null) {
    id = typeof cdnId === 'string' && isIntText(cdnId.trim()) ? Number(cdnId.trim()) : (cdnId as number);
    const problem = intProblem(id);
    if (problem !== undefined) {
      throw new BadRequestException(`'cdnId' ${problem}`);
    }
  }
  if (action !== 'queue' && action !== 'dequeue') {
    throw new BadRequestException("action must be 'queue' or 'dequeue'");
  }
  const name = typeof cdn === 'string' && cdn !== '' ? cdn : undefined;
  if (id === undefined && name === undefined) {
    throw new BadRequestException('cdn is a required field');
  }
  return { action, cdn: name, cdnId: id };
}

/** The body class of queue_update routes (`@ValidBody(QueueUpdateBody)`), read by parseQueueUpdate. */
export class QueueUpdateBody {
  static readonly schema: JsonSchema = {
    type: 'object',
    properties: {
      action: { type: 'string', enum: ['queue', 'dequeue'] },
      cdn: { type: 'string', description: 'the CDN by name (this or cdnId)' },
      cdnId: { type: 'integer', description: 'the CDN by id (an integer or a numeric string)' },
    },
    required: ['action'],
  };
  static readonly parse = (raw: unknown): QueueUpdateRequest => parseQueueUpdate(raw);
}
