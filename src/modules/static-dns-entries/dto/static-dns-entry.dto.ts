import { IsOptional, IsString } from 'class-validator';
import { BIGINT } from 'src/common/validation/integers';
import { ColumnInt } from 'src/common/validation/rules';
import { validateBody } from 'src/common/validation/versioned-body';

/** The body's keys, as the original's type names them. */
const KEYS = [
  'host',
  'address',
  'deliveryserviceId',
  'ttl',
  'typeId',
  'cachegroupId',
  'cachegroup',
  'deliveryservice',
  'type',
] as const;

/**
 * The body with each key that names a field in another case renamed to the field (Go's JSON decoding
 * matches keys case-insensitively; the last key naming a field wins), other keys dropped. Traffic
 * Portal 8 creates an entry with `deliveryServiceId`.
 */
function foldKeys(raw: unknown): unknown {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return raw;
  }
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    const field = KEYS.find((k) => k === key) ?? KEYS.find((k) => k.toLowerCase() === key.toLowerCase());
    if (field !== undefined) {
      out[field] = value;
    }
  }
  return out;
}

/**
 * Body of POST /staticdnsentries and PUT /staticdnsentries?id= on every version
 * (docs/original-behaviour.md#static-dns-entries). Only the JSON types (and integer ranges) are
 * checked here, as the original's decoding does; the rules themselves depend on the record type the
 * body names, which the original looks up first (`type not found` before any field's problem), so
 * the service applies them (`staticDnsEntryProblems`) once it has read the type. The fields are in
 * the order of the original's rules. Keys are matched as the original's decoding matches them, whatever
 * their case (`parse`).
 */
export class StaticDnsEntryDto {
  // Not a parser: folds the keys' case as Go's decoder matches them, then validates with class-validator.
  static parse(raw: unknown): Promise<StaticDnsEntryDto> {
    return validateBody(foldKeys(raw), StaticDnsEntryDto);
  }

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
