import { ArrayUnique, IsArray, IsNumber, IsOptional, IsString, Max, Min } from 'class-validator';
import { ColumnInt, OptionalBoolean, Pattern, RequiredString } from 'src/common/validation/rules';

const NAME = /^[A-Za-z0-9._-]+$/;
const NAME_TEXT = 'invalid characters found - Use alphanumeric . or - or _ .';
const LATITUDE_TEXT = 'Must be a floating point number within the range +-90';
const LONGITUDE_TEXT = 'Must be a floating point number within the range +-180';
const msg = (message: string) => ({ message });
const finite = { allowNaN: false, allowInfinity: false };

/**
 * Body of POST /cachegroups and PUT /cachegroups/{id}, with the original's rules and texts
 * (cachegroup/cachegroups.go Validate). `typeId` presence, its type's table, the fallbacks' cache
 * groups and the localization methods' values are checked by the service (CachegroupsService).
 */
export class CachegroupDto {
  @RequiredString()
  @Pattern(NAME, NAME_TEXT)
  name!: string;

  @RequiredString()
  @Pattern(NAME, NAME_TEXT)
  shortName!: string;

  @IsOptional()
  @IsNumber(finite, msg('must be a number'))
  @Min(-90, msg(LATITUDE_TEXT))
  @Max(90, msg(LATITUDE_TEXT))
  latitude?: number | null;

  @IsOptional()
  @IsNumber(finite, msg('must be a number'))
  @Min(-180, msg(LONGITUDE_TEXT))
  @Max(180, msg(LONGITUDE_TEXT))
  longitude?: number | null;

  /** The original names these two fields `parentCacheGroupID` / `secondaryParentCachegroupID` in its text. */
  @IsOptional()
  @ColumnInt()
  @Min(1, msg("'parentCacheGroupID' must be no less than 1"))
  parentCachegroupId?: number | null;

  @IsOptional()
  @ColumnInt()
  @Min(1, msg("'secondaryParentCachegroupID' must be no less than 1"))
  secondaryParentCachegroupId?: number | null;

  @IsOptional()
  @ColumnInt()
  typeId?: number | null;

  /** Values (CZ, DEEP_CZ, GEO, any letter case) are checked by parseLocalizationMethods. */
  @IsOptional()
  @IsArray(msg('must be an array'))
  localizationMethods?: unknown[] | null;

  /** Names of EDGE_LOC cache groups, in order of preference. */
  @IsOptional()
  @IsArray(msg('must be an array'))
  @IsString({ each: true, ...msg('must be an array of strings') })
  @ArrayUnique(msg('must not contain the same cache group twice'))
  fallbacks?: string[] | null;

  @OptionalBoolean()
  fallbackToClosest?: boolean | null;
}
