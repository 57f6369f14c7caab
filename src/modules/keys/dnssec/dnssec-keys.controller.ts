import { Controller, Delete, Get, HttpCode, Post, Put, Version } from '@nestjs/common';
import { PrivLevel, RequirePermissions, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { SecretRead } from 'src/modules/change-log/secret-read';
import { CurrentUser } from 'src/common/decorators/current-user.decorator';
import { ApiResult, successAlert, warningAlert } from 'src/common/http/alerts';
import { type DeferredBody, ValidBody } from 'src/common/validation/valid-body';
import { ALL_VERSIONS, versionsFrom } from 'src/common/versioning/api-version';
import { CdnDnssecGenerateDto, CdnGenerateKskDto } from './dnssec-keys.dto';
import { DnssecKeysService, type RefreshOutcome } from './dnssec-keys.service';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { PathText } from 'src/common/request-input/param-rules';
import { ValidPath } from 'src/common/request-input/request-input';

/** The original's words for a refresh's outcome (its asynchronous status messages). */
function refreshMessage({ updated, errors }: RefreshOutcome): { text: string; failed: boolean } {
  return errors > 0
    ? { text: `DNSSEC refresh failed (updated ${updated} keys, but ${errors} errors occurred)`, failed: true }
    : { text: `DNSSEC refresh completed successfully (${updated} keys were updated)`, failed: false };
}

/**
 * The DNSSEC keys of a CDN and its delivery services (docs/original-behaviour.md#dnssec-keys), in
 * the encrypted key store (docs/decisions.md#d65). Without KEY_STORE_KEY every route is a bare 500.
 */
@Controller({ path: 'cdns', version: ALL_VERSIONS })
@ApiTags('dnssec keys')
export class CdnDnssecKeysController {
  constructor(private readonly dnssec: DnssecKeysService) {}

  /** The keys by CDN name and xmlId; a CDN without keys answers an empty object and a success alert. */
  @Get('name/:name/dnsseckeys')
  @ApiOperation({ summary: 'Show the DNSSEC keys of a CDN and its delivery services' })
  @SecretRead((p) => `the DNSSEC keys (private keys included) of CDN ${p.name} and its delivery services`)
  @RequirePrivLevel(PrivLevel.Admin)
  @RequirePermissions('DNS-SEC:READ', 'CDN:READ', 'DELIVERY-SERVICE:READ')
  async get(@ValidPath('name', PathText()) name: string) {
    this.dnssec.requireStore('getting CDN DNSSEC keys from Traffic Vault');
    const keys = await this.dnssec.get(name);
    // The original's text, spaces included.
    return keys ?? ApiResult.of({}, successAlert(` - Dnssec keys for ${name} could not be found. `));
  }

  @Delete('name/:name/dnsseckeys')
  @ApiOperation({ summary: 'Delete the DNSSEC keys of a CDN' })
  @RequirePrivLevel(PrivLevel.Admin)
  @RequirePermissions('DNS-SEC:DELETE', 'CDN:UPDATE', 'DELIVERY-SERVICE:UPDATE', 'CDN:READ')
  delete(@ValidPath('name', PathText()) name: string, @CurrentUser() user: CurrentUser) {
    this.dnssec.requireStore('deleting CDN DNSSEC keys from Traffic Vault');
    return this.dnssec.delete(name, user);
  }

  @Post('dnsseckeys/generate')
  @ApiOperation({ summary: 'Generate DNSSEC keys for a CDN and its delivery services' })
  @HttpCode(200)
  @RequirePrivLevel(PrivLevel.Admin)
  @RequirePermissions('DNS-SEC:CREATE', 'CDN:UPDATE', 'CDN:READ')
  async generate(
    @ValidBody(CdnDnssecGenerateDto, { deferred: true }) body: DeferredBody<CdnDnssecGenerateDto>,
    @CurrentUser() user: CurrentUser,
  ) {
    this.dnssec.requireStore('generating CDN DNSSEC keys');
    return this.dnssec.generate(await body.read(), user);
  }

  @Post(':name/dnsseckeys/ksk/generate')
  @ApiOperation({ summary: 'Generate a new key-signing key for a CDN' })
  @HttpCode(200)
  @RequirePrivLevel(PrivLevel.Admin)
  @RequirePermissions('DNS-SEC:CREATE', 'CDN:UPDATE', 'CDN:READ')
  async generateKsk(
    @ValidPath('name', PathText()) name: string,
    @ValidBody(CdnGenerateKskDto, { deferred: true }) body: DeferredBody<CdnGenerateKskDto>,
    @CurrentUser() user: CurrentUser,
  ) {
    this.dnssec.requireStore('generating CDN KSK');
    return this.dnssec.generateKsk(name, await body.read(), user);
  }

  /** 4.0+: renews what is due now and answers the outcome (docs/decisions.md#d110). */
  @Put('dnsseckeys/refresh')
  @ApiOperation({ summary: 'Renew the DNSSEC keys that are due to expire' })
  @Version(versionsFrom('4.0'))
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('DNS-SEC:UPDATE', 'CDN:UPDATE', 'CDN:READ')
  async refresh() {
    this.dnssec.requireStore('refreshing DNSSEC keys');
    const { text, failed } = refreshMessage(await this.dnssec.refresh());
    return ApiResult.alertsOnly(failed ? warningAlert(text) : successAlert(text));
  }
}

/** The refresh on 3.x: a GET, answered with a string (the original's RefreshDNSSECKeys). */
@Controller({ path: 'cdns/dnsseckeys/refresh', version: versionsFrom('3.0', '3.1') })
@ApiTags('dnssec keys')
export class CdnDnssecRefreshV3Controller {
  constructor(private readonly dnssec: DnssecKeysService) {}

  @Get()
  @ApiOperation({ summary: 'Renew the DNSSEC keys that are due to expire' })
  @RequirePrivLevel(PrivLevel.Operations)
  async refresh(@CurrentUser() user: CurrentUser) {
    this.dnssec.requireStore('refreshing DNSSEC keys');
    return refreshMessage(await this.dnssec.refreshInTransaction(user)).text;
  }
}
