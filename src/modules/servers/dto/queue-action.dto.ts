import { GoField } from 'src/common/validation/go-field';
import { GoStruct } from 'src/common/validation/go-struct';
import { BODY_NOT_AN_OBJECT } from 'src/common/validation/validation.options';

export const QUEUE_ACTIONS = ['queue', 'dequeue'] as const;

export const BAD_QUEUE_ACTION = "action must be 'queue' or 'dequeue'";

/** Whether `action` is one of QUEUE_ACTIONS. */
export function isQueueAction(action: unknown): action is 'queue' | 'dequeue' {
  return (QUEUE_ACTIONS as readonly unknown[]).includes(action);
}

/**
 * The body of POST servers/{id}/queue_update and cdns/{id}/queue_update: `{"action": "queue" |
 * "dequeue"}`; anything else is the original's one text.
 */
@GoStruct<QueueActionBody>('ServerQueueUpdateRequest', {
  failure: '',
  notAnObject: BODY_NOT_AN_OBJECT,
  check: (body) => (isQueueAction(body.action) ? undefined : BAD_QUEUE_ACTION),
})
export class QueueActionBody {
  @GoField.any({ required: true, schema: { type: 'string', enum: [...QUEUE_ACTIONS] } })
  action!: 'queue' | 'dequeue';
}
