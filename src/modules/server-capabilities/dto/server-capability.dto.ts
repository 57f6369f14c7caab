import { OptionalString, Pattern, RequiredString } from 'src/common/validation/rules';

/** Letters, digits, `-` and `_` (an empty name is `cannot be blank`, which outranks this). */
const NAME_CHARACTERS = /^[A-Za-z0-9_-]*$/;

/**
 * Body of POST and PUT server_capabilities. As the original: `name` is required and made of
 * alphanumeric, dash or underscore characters; `description` (read from 4.1 on, `''` when absent)
 * is free text.
 */
export class ServerCapabilityDto {
  @RequiredString()
  @Pattern(NAME_CHARACTERS, 'must consist of only alphanumeric, dash, or underscore characters')
  name!: string;

  @OptionalString(65535)
  description?: string | null;
}
