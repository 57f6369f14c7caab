import { IsDefined, NotEquals } from 'class-validator';
import { ColumnInt, RequiredString } from 'src/common/validation/rules';

/**
 * Body of POST deliveryservices_required_capabilities: both fields required (absent, null, 0 or
 * `''` → `cannot be blank`), in the original's (alphabetical) order.
 */
export class RequiredCapabilityDto {
  @IsDefined({ message: 'cannot be blank' })
  @ColumnInt()
  @NotEquals(0, { message: 'cannot be blank' })
  deliveryServiceID!: number;

  @RequiredString()
  requiredCapability!: string;
}
