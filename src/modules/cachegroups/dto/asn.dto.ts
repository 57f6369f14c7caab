import { BIGINT } from 'src/common/validation/integers';
import { OptionalString, RequiredInt } from 'src/common/validation/rules';

/**
 * Body of POST /asns and PUT /asns (both forms), docs/original-behaviour.md#asns. `cachegroup` is echoed
 * in the answer (docs/decisions.md#d6) but never decides the association: `cachegroupId` does.
 */
export class AsnDto {
  /** A `bigint` column. */
  @RequiredInt({ min: 0, column: BIGINT })
  asn!: number;

  @RequiredInt({ min: 0 })
  cachegroupId!: number;

  @OptionalString()
  cachegroup?: string | null;
}
