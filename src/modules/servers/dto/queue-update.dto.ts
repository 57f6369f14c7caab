import { GoField } from 'src/common/validation/go-field';
import { GoStruct } from 'src/common/validation/go-struct';
import { BODY_NOT_AN_OBJECT } from 'src/common/validation/validation.options';
import { BAD_QUEUE_ACTION, isQueueAction, QUEUE_ACTIONS } from './queue-action.dto';

/** queue_update's body: the CDN by name, by id, or both (docs/original-behaviour.md#queue-update). */
export interface QueueUpdateRequest {
  action: 'queue' | 'dequeue';
  cdn?: string;
  cdnId?: number;
}

/**
 * The body class of cachegroups/{id}/queue_update. Checks in the original's order: the fields' JSON
 * types (`cdn`, then `cdnId`, docs/decisions.md#d9, #d225), the action, then that a CDN is named
 * (`cdn` empty counts as absent). `cdnId` is an integer or a numeric string, as the original's
 * JSONIntStr reads it, within the 32-bit id column.
 */
@GoStruct<QueueUpdateBody>('CachegroupQueueUpdatesRequest', {
  failure: '',
  withCause: true,
  notAnObject: BODY_NOT_AN_OBJECT,
  check: (body) => {
    if (!isQueueAction(body.action)) {
      return BAD_QUEUE_ACTION;
    }
    if (body.cdn === '') {
      body.cdn = undefined;
    }
    return body.cdn === undefined && body.cdnId === undefined ? 'cdn is a required field' : undefined;
  },
})
export class QueueUpdateBody implements QueueUpdateRequest {
  @GoField.text({ schema: { description: 'the CDN by name (this or cdnId)' } })
  cdn?: string;

  @GoField.int({
    intStr: true,
    schema: { description: 'the CDN by id (an integer or a numeric string)' },
  })
  cdnId?: number;

  @GoField.any({ required: true, schema: { type: 'string', enum: [...QUEUE_ACTIONS] } })
  action!: 'queue' | 'dequeue';
}
