import { GoField } from 'src/common/validation/go-field';
import { GoStruct } from 'src/common/validation/go-struct';
import { BODY_NOT_AN_OBJECT } from 'src/common/validation/validation.options';

/**
 * The body of POST /cdn_locks (`@ValidBody(CdnLockBody)`), decoded as the original's Go struct
 * (lib/go-tc CDNLock, docs/original-behaviour.md#cdn-locks): the JSON types first, in the struct's
 * order, with the decoder's own texts; then `soft` must be present (`field 'soft' must be present`),
 * then `cdn` must be a non-empty name (`field 'cdn' must be present`).
 */
@GoStruct<CdnLockBody>('CDNLock', {
  failure: '',
  withCause: true,
  notAnObject: BODY_NOT_AN_OBJECT,
  check: (body) =>
    body.soft === undefined
      ? "field 'soft' must be present"
      : body.cdn === ''
        ? "field 'cdn' must be present"
        : undefined,
})
export class CdnLockBody {
  /** Decoded (its JSON type checked) but not read: the lock's user is the caller. */
  @GoField.string({ schema: { description: 'ignored: the lock is taken for the caller' } })
  userName = '';

  @GoField.string({ required: true, schema: { description: 'the name of the CDN to lock' } })
  cdn = '';

  @GoField.string({ schema: { description: 'why the lock is taken (optional)' } })
  message: string | null = null;

  /** Undefined: absent or null. */
  @GoField.bool({ required: true, schema: { description: 'a soft lock (true) or a hard one (false)' } })
  soft?: boolean;

  /** Undefined when the body has none (the answer then says `null`, as the original's does). */
  @GoField.strings({ schema: { description: 'users the lock is shared with (optional)' } })
  sharedUserNames?: string[];
}

/** POST /cdn_locks, as read. */
export type CdnLockRequest = CdnLockBody & { soft: boolean };
