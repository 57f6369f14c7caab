import { IsOptional, IsString } from 'class-validator';
import { BodyKeys } from 'src/common/validation/body-keys';
import { BIGINT } from 'src/common/validation/integers';
import { ColumnInt } from 'src/common/validation/rules';

/**
 * Body of POST /staticdnsentries and PUT /staticdnsentries?id= on every version
 * (docs/original-behaviour.md#static-dns-entries). Only the JSON types (and integer ranges) are
 * checked here, as the original's decoding does; the rules themselves depend on the record type the
 * body names, which the original looks up first (`type not found` before any field's problem), so
 * the service applies them (`staticDnsEntryProblems`) once it has read the type. The fields are in
 * the order of the original's rules. Keys are matched as the original's decoding matches them, whatever
 * their case (the last key naming a field wins; Traffic Portal 8 creates an entry with
 * `deliveryServiceId`).
 */
@BodyKeys({ foldCase: true })
export class StaticDnsEntryDto {
  @IsOptional()
  @IsString({ message: 'must be a string' })
  host?: string | null;

  @IsOptional()
  @IsString({ message: 'must be a string' })
  address?: string | null;

  @IsOptional()
  @ColumnInt()
  deliveryserviceId?: number | null;

  @IsOptional()
  @ColumnInt(BIGINT)
  ttl?: number | null;

  @IsOptional()
  @ColumnInt()
  typeId?: number | null;

  @IsOptional()
  @ColumnInt()
  cachegroupId?: number | null;

  /** Names the original's type carries; they decide nothing (the ids do). */
  @IsOptional()
  @IsString({ message: 'must be a string' })
  cachegroup?: string | null;

  @IsOptional()
  @IsString({ message: 'must be a string' })
  deliveryservice?: string | null;

  @IsOptional()
  @IsString({ message: 'must be a string' })
  type?: string | null;
}
