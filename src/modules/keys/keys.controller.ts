import { Controller, Delete, Get, HttpCode, NotFoundException, Post, Put } from '@nestjs/common';
import { PrivLevel, RequirePermissions, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { SecretRead } from 'src/modules/change-log/secret-read';
import { RequestedVersion } from 'src/common/decorators/api-version.decorator';
import { CurrentUser } from 'src/common/decorators/current-user.decorator';
import { RawResponse } from 'src/common/decorators/raw-response.decorator';
import { ApiResult, infoAlert, successAlert } from 'src/common/http/alerts';
import { type DeferredBody, ValidBody } from 'src/common/validation/valid-body';
import { ALL_VERSIONS, type ApiVersion, versionsFrom } from 'src/common/versioning/api-version';
import { perVersion } from 'src/common/versioning/per-version';
import type { Request } from 'express';
import { ConditionalOn, paramOf, type RowKey } from 'src/common/conditional/conditional.decorator';
import { SslKeysAddDto } from './ssl/ssl-keys.dto';
import { UriSigningKeysBody, type UriSigningKeysDto } from './uri-sig/uri-signing-keys.dto';
import { type SslKeysView, toSslKeysResponse } from './ssl/ssl-keys.response';
import { SslKeysService } from './ssl/ssl-keys.service';
import { KeyStoreService } from './store/key-store.service';
import { UriSigningKeysService } from './uri-sig/uri-signing-keys.service';
import { UrlSigKeysService } from './url-sig/url-sig-keys.service';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { IntParam, OptionalIntParam, PathText, TextParam } from 'src/common/request-input/param-rules';
import { ValidPath, ValidQuery, inputText } from 'src/common/request-input/request-input';

/**
 * The key store row a DELETE of SSL keys addresses: the `version` of the query string (the path's
 * `version` is the API's), else `latest`.
 */
const sslKeysRow = (req: Request): RowKey | undefined => {
  const owner = paramOf(req, 'xmlid');
  const version = inputText(req, 'query', 'version');
  return owner === undefined ? undefined : { kind: 'ssl', owner, version: version || 'latest' };
};

/** The key store row of a delivery service's URI signing keys. */
const uriSigningKeysRow = (req: Request): RowKey | undefined => {
  const owner = paramOf(req, 'xmlID');
  return owner === undefined ? undefined : { kind: 'uri_signing', owner, version: '' };
};

/** A delivery service without stored SSL keys: 404 on 5.0; before it, an empty certificate. */
const NO_SSL_KEYS = perVersion<(xmlId: string) => SslKeysView>({
  '3.0': () => ({ certificate: { crt: '', key: '', csr: '' }, sans: [] }),
  '5.0': (xmlId) => {
    throw new NotFoundException(`no ssl keys for XML ID ${xmlId}`);
  },
});

/**
 * A delivery service's SSL keys, URL signing keys and URI signing keys
 * (docs/original-behaviour.md#keys). Every route first needs the key store (docs/decisions.md#d65).
 */
@Controller({ path: 'deliveryservices', version: ALL_VERSIONS })
@ApiTags('delivery service keys')
export class DeliveryServiceKeysController {
  constructor(
    private readonly store: KeyStoreService,
    private readonly ssl: SslKeysService,
    private readonly urlSig: UrlSigKeysService,
    private readonly uriSig: UriSigningKeysService,
  ) {}

  @Get('xmlId/:xmlid/sslkeys')
  @ApiOperation({ summary: 'Show the SSL keys of a delivery service' })
  @SecretRead((p) => `the SSL keys (private key included) of delivery service ${p.xmlid}`)
  @RequirePrivLevel(PrivLevel.Admin)
  @RequirePermissions('DS-SECURITY-KEY:READ', 'DELIVERY-SERVICE:READ')
  async sslKeys(
    @ValidPath('xmlid', PathText()) xmlId: string,
    @ValidQuery('version', TextParam()) version: string | undefined,
    @ValidQuery('decode', TextParam()) decode: string | undefined,
    @CurrentUser() user: CurrentUser,
    @RequestedVersion() apiVersion: ApiVersion,
  ) {
    this.store.requireStore('getting SSL keys from Traffic Vault by xml id');
    const view = await this.ssl.getSslKeys(user, xmlId, { version, decode });
    return toSslKeysResponse(view ?? NO_SSL_KEYS(apiVersion)(xmlId), apiVersion);
  }

  @Post('sslkeys/add')
  @ApiOperation({ summary: 'Add SSL keys to a delivery service' })
  @HttpCode(200)
  @RequirePrivLevel(PrivLevel.Admin)
  @RequirePermissions('DS-SECURITY-KEY:CREATE', 'DELIVERY-SERVICE:READ')
  async addSslKeys(
    @ValidBody(SslKeysAddDto, { deferred: true }) body: DeferredBody<SslKeysAddDto>,
    @CurrentUser() user: CurrentUser,
  ) {
    this.store.requireStore('adding SSL keys to Traffic Vault for delivery service');
    return ApiResult.alertsOnly(...(await this.ssl.addSslKeys(user, await body.read())));
  }

  @Delete('xmlId/:xmlid/sslkeys')
  @ApiOperation({ summary: 'Delete the SSL keys of a delivery service' })
  @ConditionalOn({ table: 'key_store', row: sslKeysRow })
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions(
    'DS-SECURITY-KEY:DELETE',
    'DELIVERY-SERVICE:READ',
    'DS-SECURITY-KEY:READ',
    'DELIVERY-SERVICE:UPDATE',
  )
  deleteSslKeys(
    @ValidPath('xmlid', PathText()) xmlId: string,
    @ValidQuery('version', TextParam()) version: string | undefined,
    @CurrentUser() user: CurrentUser,
  ) {
    this.store.requireStore('deliveryservice.DeleteSSLKeys');
    return this.ssl.deleteSslKeys(user, xmlId, version);
  }

  @Get('xmlId/:name/urlkeys')
  @ApiOperation({ summary: 'Show the URL signing keys of a delivery service by its XML ID' })
  @SecretRead((p) => `the URL signing keys of delivery service ${p.name}`)
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('DS-SECURITY-KEY:READ', 'DELIVERY-SERVICE:READ')
  async urlKeysByXmlId(@ValidPath('name', PathText()) xmlId: string, @CurrentUser() user: CurrentUser) {
    this.store.requireStore('deliveryservice.GetURLKeysByName');
    return urlKeysAnswer(await this.urlSig.urlSigKeysByXmlId(user, xmlId));
  }

  @Get(':id/urlkeys')
  @ApiOperation({ summary: 'Show the URL signing keys of a delivery service' })
  @SecretRead((p) => `the URL signing keys of delivery service id ${p.id}`)
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('DS-SECURITY-KEY:READ', 'DELIVERY-SERVICE:READ')
  async urlKeysById(@ValidPath('id', IntParam()) id: number, @CurrentUser() user: CurrentUser) {
    this.store.requireStore('deliveryservice.GetURLKeysByID');
    return urlKeysAnswer(await this.urlSig.urlSigKeysById(user, id));
  }

  @Post('xmlId/:name/urlkeys/generate')
  @ApiOperation({ summary: 'Generate URL signing keys for a delivery service' })
  @HttpCode(200)
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('DS-SECURITY-KEY:CREATE', 'DELIVERY-SERVICE:READ', 'DELIVERY-SERVICE:UPDATE')
  async generateUrlKeys(@ValidPath('name', PathText()) xmlId: string, @CurrentUser() user: CurrentUser) {
    this.store.requireStore('deliveryservice.GenerateURLKeys');
    await this.urlSig.generateUrlSigKeys(user, xmlId);
    return ApiResult.alertsOnly(successAlert('Successfully generated and stored keys'));
  }

  @Post('xmlId/:name/urlkeys/copyFromXmlId/:copyName')
  @ApiOperation({ summary: "Copy another delivery service's URL signing keys to a delivery service" })
  @HttpCode(200)
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions(
    'DS-SECURITY-KEY:READ',
    'DS-SECURITY-KEY:CREATE',
    'DELIVERY-SERVICE:READ',
    'DELIVERY-SERVICE:UPDATE',
  )
  async copyUrlKeys(
    @ValidPath('name', PathText()) xmlId: string,
    @ValidPath('copyName', PathText()) fromXmlId: string,
    @CurrentUser() user: CurrentUser,
  ) {
    this.store.requireStore('deliveryservice.CopyURLKeys');
    await this.urlSig.copyUrlSigKeys(user, xmlId, fromXmlId);
    return ApiResult.alertsOnly(successAlert('Successfully copied and stored keys'));
  }

  /** The keys as stored, without the envelope (the original writes them as they are). */
  @Get(':xmlID/urisignkeys')
  @ApiOperation({ summary: 'Show the URI signing keys of a delivery service' })
  @SecretRead((p) => `the URI signing keys of delivery service ${p.xmlID}`)
  @RawResponse()
  @RequirePrivLevel(PrivLevel.Admin)
  @RequirePermissions('DS-SECURITY-KEY:READ')
  uriSigningKeys(@ValidPath('xmlID', PathText()) xmlId: string, @CurrentUser() user: CurrentUser) {
    this.store.requireStoreForUriSigning();
    return this.uriSig.uriSigningKeys(user, xmlId);
  }

  @Post(':xmlID/urisignkeys')
  @ApiOperation({ summary: 'Create the URI signing keys of a delivery service' })
  @HttpCode(200)
  @RawResponse()
  @RequirePrivLevel(PrivLevel.Admin)
  @RequirePermissions('DS-SECURITY-KEY:CREATE')
  createUriSigningKeys(
    @ValidPath('xmlID', PathText()) xmlId: string,
    @ValidBody(UriSigningKeysBody, { deferred: true }) body: DeferredBody<UriSigningKeysDto>,
    @CurrentUser() user: CurrentUser,
  ) {
    this.store.requireStoreForUriSigning();
    return this.uriSig.saveUriSigningKeys(user, xmlId, body);
  }

  @Put(':xmlID/urisignkeys')
  @ApiOperation({ summary: 'Replace the URI signing keys of a delivery service' })
  @ConditionalOn({ table: 'key_store', row: uriSigningKeysRow })
  @RawResponse()
  @RequirePrivLevel(PrivLevel.Admin)
  @RequirePermissions('DS-SECURITY-KEY:UPDATE')
  updateUriSigningKeys(
    @ValidPath('xmlID', PathText()) xmlId: string,
    @ValidBody(UriSigningKeysBody, { deferred: true }) body: DeferredBody<UriSigningKeysDto>,
    @CurrentUser() user: CurrentUser,
  ) {
    this.store.requireStoreForUriSigning();
    return this.uriSig.saveUriSigningKeys(user, xmlId, body);
  }

  @Delete(':xmlID/urisignkeys')
  @ApiOperation({ summary: 'Delete the URI signing keys of a delivery service' })
  @ConditionalOn({ table: 'key_store', row: uriSigningKeysRow })
  @RequirePrivLevel(PrivLevel.Admin)
  @RequirePermissions(
    'DS-SECURITY-KEY:DELETE',
    'DS-SECURITY-KEY:READ',
    'DELIVERY-SERVICE:READ',
    'DELIVERY-SERVICE:UPDATE',
  )
  async deleteUriSigningKeys(
    @ValidPath('xmlID', PathText()) xmlId: string,
    @CurrentUser() user: CurrentUser,
  ) {
    // The original's text, typo included.
    this.store.requireStoreForUriSigning('rhe Traffic Vault service is unavailable');
    return (await this.uriSig.deleteUriSigningKeys(user, xmlId))
      ? ApiResult.alertsOnly(successAlert('object deleted'))
      : ApiResult.alertsOnly(infoAlert('not deleted, no object found to delete'));
  }
}

/** A delivery service without URL signing keys answers an empty object and a success alert. */
function urlKeysAnswer(keys: Record<string, string> | undefined) {
  return keys ? keys : ApiResult.of({}, successAlert('No url sig keys found'));
}

/** GET cdns/name/{name}/sslkeys: the latest certificate of every delivery service of the CDN. */
@Controller({ path: 'cdns/name/:name/sslkeys', version: ALL_VERSIONS })
@ApiTags('delivery service keys')
export class CdnSslKeysController {
  constructor(
    private readonly store: KeyStoreService,
    private readonly ssl: SslKeysService,
  ) {}

  @Get()
  @ApiOperation({ summary: 'List the latest SSL keys of every delivery service of a CDN' })
  @SecretRead((p) => `the SSL keys (private keys included) of every delivery service of CDN ${p.name}`)
  @RequirePrivLevel(PrivLevel.Admin)
  @RequirePermissions('DS-SECURITY-KEY:READ', 'CDN:READ', 'DELIVERY-SERVICE:READ')
  list(@ValidPath('name', PathText()) cdn: string) {
    this.store.requireStore('getting CDN SSL keys from Traffic Vault');
    return this.ssl.cdnSslKeys(cdn);
  }
}

/** GET sslkey_expirations (4.0+): when the delivery services' latest certificates expire. */
@Controller({ path: 'sslkey_expirations', version: versionsFrom('4.0') })
@ApiTags('ssl key expirations')
export class SslKeyExpirationsController {
  constructor(
    private readonly store: KeyStoreService,
    private readonly ssl: SslKeysService,
  ) {}

  @Get()
  @ApiOperation({ summary: "List when the delivery services' latest SSL certificates expire" })
  @RequirePrivLevel(PrivLevel.Admin)
  @RequirePermissions('SSL-KEY-EXPIRATION:READ')
  list(@ValidQuery('days', OptionalIntParam({ default: 0 })) days: number) {
    this.store.requireStore('getting SSL keys expiration information from Traffic Vault');
    return this.ssl.expirations(days);
  }
}
