import { IsOptional, IsString } from 'class-validator';
import { OptionalInt, OptionalString } from 'src/common/validation/rules';

/**
 * Body of POST /regions and PUT /regions/{id} (docs/original-behaviour.md#regions, docs/decisions.md#d6).
 * Only JSON types are checked here; presence is checked afterwards with the original's own wording
 * (`region 'name' is required`, then `region 'division' is required`; division 0 counts as missing),
 * see {@link regionProblem}.
 */
export class RegionDto {
  @OptionalString()
  name?: string | null;

  @OptionalInt()
  division?: number | null;

  /** Not validated and never stored: PUT echoes it (null when omitted), POST ignores it. */
  @IsOptional()
  @IsString({ message: 'must be a string' })
  divisionName?: string | null;
}

/** The first presence problem of a region body, as TORegion.Validate words it, if any. */
export function regionProblem(dto: RegionDto): string | undefined {
  if (!dto.name) {
    return "region 'name' is required";
  }
  if (!dto.division) {
    return "region 'division' is required";
  }
  return undefined;
}
