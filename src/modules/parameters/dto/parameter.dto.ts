import { OptionalBoolean, OptionalString, RequiredString } from 'src/common/validation/rules';

/**
 * Body of POST /parameters (one object or an array) and PUT /parameters/{id}. As in the original,
 * `value` may be absent or null (stored as ""), `comment` absent or null (none), and a missing `secure` is refused by the service
 * with the original's NOT NULL text (`secure is a required field`).
 */
export class ParameterDto {
  @RequiredString(1024)
  name!: string;

  @RequiredString(1024)
  configFile!: string;

  @OptionalString(65535)
  value?: string | null;

  @OptionalBoolean()
  secure?: boolean;

  /** Free text; absent or null stores none. */
  @OptionalString(65535)
  comment?: string | null;
}
