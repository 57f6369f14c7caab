import { IsDefined, IsNotEmpty, IsString } from 'class-validator';
import { RequiredString } from 'src/common/validation/rules';

/** Body of POST /types and PUT /types/{id} (docs/original-behaviour.md#types). */
export class TypeDto {
  @RequiredString()
  name!: string;

  @RequiredString(65535)
  description!: string;

  /** The original reports this field by its column name, `use_in_table`. */
  @IsDefined({ message: "'use_in_table' cannot be blank" })
  @IsString({ message: "'use_in_table' must be a string" })
  @IsNotEmpty({ message: "'use_in_table' cannot be blank" })
  useInTable!: string;
}
