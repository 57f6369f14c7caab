import { ArrayMaxSize, ArrayNotEmpty, IsArray, IsDefined, IsOptional, IsString } from 'class-validator';
import { ColumnInt, OptionalString, RequiredString } from 'src/common/validation/rules';

/** Most servers or capabilities one request may name (a bound on the work, not a rule of the original). */
export const MAX_ITEMS = 10_000;

/** What the service reads of either body. */
export interface MultipleServersCapabilities {
  serverCapabilities?: string[] | null;
  serverIds?: number[] | null;
  pageType?: string | null;
}

/**
 * Body of POST multiple_servers_capabilities: all three fields required (absent, null, empty →
 * `cannot be blank`), in the original's (alphabetical) order.
 */
export class AssignMultipleServersCapabilitiesDto implements MultipleServersCapabilities {
  @RequiredString()
  pageType!: string;

  @IsDefined({ message: 'cannot be blank' })
  @IsArray({ message: 'must be an array of strings' })
  @ArrayNotEmpty({ message: 'cannot be blank' })
  @ArrayMaxSize(MAX_ITEMS, { message: `must have at most ${MAX_ITEMS} items` })
  @IsString({ each: true, message: 'must be an array of strings' })
  serverCapabilities!: string[];

  @IsDefined({ message: 'cannot be blank' })
  @IsArray({ message: 'must be an array of integers' })
  @ArrayNotEmpty({ message: 'cannot be blank' })
  @ArrayMaxSize(MAX_ITEMS, { message: `must have at most ${MAX_ITEMS} items` })
  @ColumnInt(undefined, { each: true, message: 'must be an array of integers' })
  serverIds!: number[];
}

/**
 * Body of DELETE multiple_servers_capabilities: the original validates nothing but the JSON types;
 * what each page type needs is checked by the service.
 */
export class RemoveMultipleServersCapabilitiesDto implements MultipleServersCapabilities {
  @OptionalString()
  pageType?: string | null;

  @IsOptional()
  @IsArray({ message: 'must be an array of strings' })
  @ArrayMaxSize(MAX_ITEMS, { message: `must have at most ${MAX_ITEMS} items` })
  @IsString({ each: true, message: 'must be an array of strings' })
  serverCapabilities?: string[] | null;

  @IsOptional()
  @IsArray({ message: 'must be an array of integers' })
  @ArrayMaxSize(MAX_ITEMS, { message: `must have at most ${MAX_ITEMS} items` })
  @ColumnInt(undefined, { each: true, message: 'must be an array of integers' })
  serverIds?: number[] | null;
}
