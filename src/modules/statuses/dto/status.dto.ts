import { IsDefined, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';

/**
 * Body of POST /statuses and PUT /statuses/{id}. As the original: `name` is required (absent or
 * null → `'name' is required`, empty → `'name' cannot be blank`); `description` is optional.
 */
export class StatusDto {
  @IsDefined({ message: 'is required' })
  @IsString({ message: 'must be a string' })
  @IsNotEmpty({ message: 'cannot be blank' })
  @MaxLength(255, { message: 'the length must be between 1 and 255' })
  name!: string;

  @IsOptional()
  @IsString({ message: 'must be a string' })
  @MaxLength(65535, { message: 'the length must be at most 65535' })
  description?: string | null;
}
