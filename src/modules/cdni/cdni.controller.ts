import { Controller, Get, HttpCode, Put, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ConditionalOn } from 'src/common/conditional/conditional.decorator';
import { CurrentUser } from 'src/common/decorators/current-user.decorator';
import { PrivLevel, RequirePermissions, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { RawResponse } from 'src/common/decorators/raw-response.decorator';
import { ApiResult, successAlert } from 'src/common/http/alerts';
import { type DeferredBody, ValidBody } from 'src/common/validation/valid-body';
import { versionsFrom } from 'src/common/versioning/api-version';
import { bearerTokenOf } from './cdni-token';
import { ASYNC_STATUS_ENDPOINT, type CdniCredentials, CdniService, HOST_CONFIG_UPDATE } from './cdni.service';
import { CdniConfigurationDto, CdniHostConfigurationDto } from './dto/cdni-configuration.dto';
import type { AsyncStatusV4, CdniAdvertisementWire, CdniConfigurationRequestV4 } from './dto/cdni.response';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { BoolParam, IntParam, PathText, TextParam } from 'src/common/request-input/param-rules';
import { ValidPath, ValidQuery } from 'src/common/request-input/request-input';

/** `GET async_status/{id}` (4.0+): where the CDNi routes say a queued request's progress is. */
@Controller({ path: 'async_status', version: versionsFrom('4.0') })
@ApiTags('async status')
export class AsyncStatusController {
  constructor(private readonly cdni: CdniService) {}

  @Get(':id')
  @ApiOperation({ summary: 'Show the progress of a queued asynchronous request' })
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('ASYNC-STATUS:READ')
  get(@ValidPath('id', IntParam()) id: number): Promise<AsyncStatusV4> {
    return this.cdni.asyncStatus(id);
  }
}

/** The uCDN's `?ucdn=`, '' when absent. */
const UCDN = TextParam({ default: '' });

function credentialsOf(req: Request, ucdn: string): CdniCredentials {
  return { token: bearerTokenOf(req.headers.authorization, req.headers.cookie), ucdnParam: ucdn };
}

/**
 * CDN interconnection, 4.0+ (docs/original-behaviour.md#cdni): what this dCDN advertises to a uCDN,
 * the configuration changes a uCDN asks for (queued, 202 with where their status is), and their
 * review by an administrator. The uCDN's routes need a session and a token (CdniService.ucdnOf).
 */
@Controller({ path: 'OC', version: versionsFrom('4.0') })
@ApiTags('cdni')
export class CdniController {
  constructor(private readonly cdni: CdniService) {}

  /** The advertisement, without the `{response}` envelope, as the original writes it. */
  @Get('FCI/advertisement')
  @ApiOperation({ summary: 'Show the capacity and telemetry capabilities advertised to a uCDN' })
  @RawResponse()
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('CDNI-CAPACITY:READ')
  async advertisement(
    @Req() req: Request,
    @ValidQuery('ucdn', UCDN) ucdn: string,
    @CurrentUser() user: CurrentUser,
  ): Promise<CdniAdvertisementWire> {
    return this.cdni.advertisement(await this.cdni.ucdnOf(credentialsOf(req, ucdn), user));
  }

  @Put('CI/configuration')
  @ApiOperation({ summary: "Queue a uCDN's configuration change request" })
  @HttpCode(202)
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('CDNI-CAPACITY:UPDATE')
  async configuration(
    @ValidBody(CdniConfigurationDto, { deferred: true }) body: DeferredBody<CdniConfigurationDto>,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
    @ValidQuery('ucdn', UCDN) ucdn: string,
    @CurrentUser() user: CurrentUser,
  ) {
    const acting = await this.cdni.ucdnOf(credentialsOf(req, ucdn), user);
    const dto = await body.read();
    const asyncStatusId = await this.cdni.queue(
      { ucdn: acting, data: dto.metadata, requestType: dto.type, host: dto.host },
      'CDNi configuration update request received.',
    );
    return this.accepted(res, asyncStatusId);
  }

  @Put('CI/configuration/:host')
  @ApiOperation({ summary: "Queue a uCDN's configuration change request for one host" })
  @HttpCode(202)
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('CDNI-CAPACITY:UPDATE')
  async hostConfiguration(
    @ValidPath('host', PathText()) host: string,
    @ValidBody(CdniHostConfigurationDto, { deferred: true }) body: DeferredBody<CdniHostConfigurationDto>,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
    @ValidQuery('ucdn', UCDN) ucdn: string,
    @CurrentUser() user: CurrentUser,
  ) {
    await this.cdni.assertHostExists(host);
    const acting = await this.cdni.ucdnOf(credentialsOf(req, ucdn), user);
    const dto = await body.read();
    const asyncStatusId = await this.cdni.queue(
      { ucdn: acting, data: dto.metadata, requestType: HOST_CONFIG_UPDATE, host },
      'CDNi host configuration update request received.',
    );
    return this.accepted(res, asyncStatusId);
  }

  @Get('CI/configuration/requests')
  @ApiOperation({ summary: 'List the queued CDNi configuration change requests' })
  @RequirePrivLevel(PrivLevel.Admin)
  @RequirePermissions('CDNI-ADMIN:READ')
  requests(@ValidQuery('id', TextParam()) id: string | undefined): Promise<CdniConfigurationRequestV4[]> {
    return this.cdni.requests(id);
  }

  /**
   * Approves (`true`) or denies (`false`) a queued request; answers the outcome as `response`. With
   * If-Unmodified-Since / If-Match, a request changed since answers 412 (docs/decisions.md#d33).
   */
  @Put('CI/configuration/request/:id/:approved')
  @ApiOperation({ summary: 'Approve or deny a queued CDNi configuration change request' })
  @ConditionalOn('cdni_capability_updates')
  @RequirePrivLevel(PrivLevel.Admin)
  @RequirePermissions('CDNI-ADMIN:READ', 'CDNI-ADMIN:UPDATE')
  async respond(
    @ValidPath('id', IntParam()) id: number,
    @ValidPath('approved', BoolParam('cdniApproval')) decision: boolean,
  ) {
    return this.cdni.respond(id, decision);
  }

  /** 202 with the status's address in `Location` and in the alert, as the original answers. */
  private accepted(res: Response, asyncStatusId: number) {
    const location = `${ASYNC_STATUS_ENDPOINT}${asyncStatusId}`;
    res.setHeader('Location', location);
    return ApiResult.alertsOnly(
      successAlert(
        `CDNi configuration update request received. Status updates can be found here: ${location}`,
      ),
    );
  }
}
