import { IsDefined, IsNotEmpty, IsString, MaxLength } from 'class-validator';

/**
 * Body of POST /divisions and PUT /divisions/{id}. The original checks `name` with NotNil then
 * Required: absent or null → `'name' is required`, empty → `'name' cannot be blank`.
 */
export class DivisionDto {
  @IsDefined({ message: 'is required' })
  @IsString({ message: 'must be a string' })
  @IsNotEmpty({ message: 'cannot be blank' })
  @MaxLength(255, { message: 'the length must be between 1 and 255' })
  name!: string;
}
