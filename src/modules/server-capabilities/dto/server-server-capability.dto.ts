import { IsDefined, NotEquals } from 'class-validator';
import { ColumnInt, RequiredString } from 'src/common/validation/rules';

/**
 * Body of POST server_server_capabilities: both fields required (absent, null, 0 or `''` → `cannot
 * be blank`, as the original's validation of its pointers), in the original's (alphabetical) order.
 */
export class ServerServerCapabilityDto {
  @RequiredString()
  serverCapability!: string;

  @IsDefined({ message: 'cannot be blank' })
  @ColumnInt()
  @NotEquals(0, { message: 'cannot be blank' })
  serverId!: number;
}
