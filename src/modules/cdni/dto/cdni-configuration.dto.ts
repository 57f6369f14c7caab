import { Type } from 'class-transformer';
import { IsDefined, IsObject, ValidateNested } from 'class-validator';
import { AbsentOrString, RequiredJson } from 'src/common/validation/rules';

/** The most JSON a queued request keeps (its `data` column is TEXT on MySQL). */
export const MAX_DATA_BYTES = 65535;

/**
 * Body of PUT OC/CI/configuration (the original's GenericRequestMetadata): the request's type, the
 * generic metadata (kept as sent, any JSON) and the host it concerns. The original fails with 500
 * on a body it cannot decode or without metadata; here those are 400s (docs/decisions.md#d8).
 */
export class CdniConfigurationDto {
  @AbsentOrString()
  type: string = '';

  @RequiredJson(MAX_DATA_BYTES)
  metadata!: unknown;

  @AbsentOrString()
  host: string = '';
}

/** `host-metadata` of a host's configuration request. */
export class CdniHostMetadataDto {
  @RequiredJson(MAX_DATA_BYTES)
  metadata!: unknown;
}

/**
 * Body of PUT OC/CI/configuration/{host} (the original's GenericHostMetadata): `host-metadata`'s
 * `metadata` is what is queued; `host` in the body is read but the path's host is the one kept.
 */
export class CdniHostConfigurationDto {
  @AbsentOrString()
  host: string = '';

  @IsDefined({ message: 'is required' })
  @IsObject({ message: 'must be an object' })
  @ValidateNested()
  @Type(() => CdniHostMetadataDto)
  'host-metadata'!: CdniHostMetadataDto;

  /** The metadata to queue. */
  get metadata(): unknown {
    return this['host-metadata'].metadata;
  }
}
