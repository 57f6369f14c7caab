import { OptionalBoolean, RequiredInt, RequiredString } from 'src/common/validation/rules';

/** Body of POST /tenants and PUT /tenants/{id} (docs/original-behaviour.md#tenants). */
export class TenantDto {
  @RequiredString()
  name!: string;

  /** Absent means inactive, as in the original. */
  @OptionalBoolean()
  active?: boolean;

  @RequiredInt({ min: 1 })
  parentId!: number;
}
