// The decorators below read design types: the metadata API first (this file may load before Nest does).
import 'reflect-metadata';
import { Transform, Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Matches, Max, Min, MinLength, ValidateIf } from 'class-validator';

/**
 * The settings of the services this one talks to (InfluxDB, the key store, mail, the portal, kickstart
 * files, CDN interconnection): part of EnvironmentVariables (src/config/env.validation.ts), which
 * extends this class and validates them with the others at start-up.
 */
export class IntegrationVariables {
  /**
   * InfluxDB 1.x that Traffic Stats writes (docs/decisions.md#d16), `http://host:port`; absent → GET
   * current_stats answers null figures, cache_stats and deliveryservice_stats a warning.
   */
  @IsOptional()
  @Matches(/^https?:\/\/[^\s/?#@]+(\/[^\s?#]*)?$/, {
    message: 'INFLUXDB_URL must look like http://host:port',
  })
  INFLUXDB_URL?: string;

  /** The Traffic Stats cache database (the original's `cache_stats`). */
  @IsOptional()
  @IsString()
  INFLUXDB_DATABASE: string = 'cache_stats';

  /** The Traffic Stats delivery-service database (the original's `deliveryservice_stats`). */
  @IsOptional()
  @IsString()
  INFLUXDB_DS_DATABASE: string = 'deliveryservice_stats';

  @IsOptional()
  @IsString()
  INFLUXDB_USER?: string;

  @IsOptional()
  @IsString()
  INFLUXDB_PASSWORD?: string;

  /** Milliseconds an InfluxDB query may take before the statistics routes answer with no figures. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(60000)
  INFLUXDB_TIMEOUT_MS: number = 3000;

  /**
   * The AES-256 key that encrypts the keys kept for delivery services (SSL certificates, URL and URI
   * signing keys; docs/decisions.md#d65): 32 bytes, as 64 hex digits or in base64. Unset: the key
   * routes answer as the original does without a Traffic Vault.
   */
  @IsOptional()
  @Matches(/^(?:[0-9a-fA-F]{64}|[A-Za-z0-9+/]{43}=)$/, {
    message: 'KEY_STORE_KEY must be 32 bytes: 64 hex digits or 44 characters of base64',
  })
  KEY_STORE_KEY?: string;

  /**
   * The SMTP server that user/reset_password and users/register send mail through
   * (docs/decisions.md#d78); absent → those routes answer 503.
   */
  @IsOptional()
  @IsString()
  SMTP_HOST?: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(65535)
  SMTP_PORT: number = 25;

  /** `true`: the connection is TLS from the start (SMTPS, usually port 465). */
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => value === true || value === 'true' || value === '1')
  SMTP_TLS: boolean = false;

  /** The sender of the mails (the original's `email_from`). */
  @IsOptional()
  @IsString()
  SMTP_FROM: string = 'no-reply@localhost';

  /** Credentials for AUTH LOGIN, when the server needs them. */ @IsOptional()
  @IsString()
  SMTP_USER?: string;

  @IsOptional()
  @IsString()
  SMTP_PASSWORD?: string;

  /** Milliseconds a mail may take to send before the route answers 503. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(60000)
  SMTP_TIMEOUT_MS: number = 5000;

  /** Traffic Portal's address, for the links in those mails (the original's `portal.base_url`). */
  @IsOptional()
  @IsString()
  PORTAL_BASE_URL: string = '';

  /**
   * The directory of `osversions.json` (GET osversions) unless the `kickstart.files.location`
   * parameter of config file `mkisofs` names another (the original's default `/var/www/files`).
   */
  @IsOptional()
  @Matches(/^\/./, { message: 'KICKSTART_FILES_DIR must be an absolute path' })
  KICKSTART_FILES_DIR: string = '/var/www/files';

  /**
   * This CDN's identifier as a downstream CDN in CDN interconnection (the original's `cdni.dcdn_id`):
   * the audience a uCDN's token must name. Unset: the CDNi routes that read a token answer 500, as
   * the original's without it (docs/decisions.md#d112).
   */
  @ValidateIf((env: IntegrationVariables) => env.CDNI_JWT_DECODING_SECRET !== undefined)
  @IsString({ message: 'CDNI_DCDN_ID and CDNI_JWT_DECODING_SECRET must be set together' })
  @Matches(/^\S+$/, { message: 'CDNI_DCDN_ID must be one word without spaces' })
  CDNI_DCDN_ID?: string;

  /**
   * The HS256 key that signs the uCDNs' tokens (the original's `cdni.jwt_decoding_secret`); at least
   * 32 characters.
   */
  @ValidateIf((env: IntegrationVariables) => env.CDNI_DCDN_ID !== undefined)
  @IsString({ message: 'CDNI_DCDN_ID and CDNI_JWT_DECODING_SECRET must be set together' })
  @MinLength(32, { message: 'CDNI_JWT_DECODING_SECRET must be at least 32 characters long' })
  CDNI_JWT_DECODING_SECRET?: string;
}
