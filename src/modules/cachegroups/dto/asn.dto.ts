import { BIGINT } from 'src/common/validation/integers';
import { OptionalString, RequiredInt } from 'src/common/validation/rules';

/**
 * Body of POST /asns and PUT /asns (both forms), facts §2.1. `cachegroup` is accepted and echoed
 * in the answer (decision D6) but never decides the association: `cachegroupId` does.
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
