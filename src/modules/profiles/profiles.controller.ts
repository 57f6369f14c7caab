import { ValidBody } from 'src/common/validation/valid-body';
import { Controller, Delete, Get, HttpCode, NotFoundException, Post, Put, Res } from '@nestjs/common';
import type { Response } from 'express';
import { RequestedVersion } from 'src/common/decorators/api-version.decorator';
import { PrivLevel, RequirePermissions, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { CurrentUser } from 'src/common/decorators/current-user.decorator';
import { RawResponse } from 'src/common/decorators/raw-response.decorator';
import { ApiResult, successAlert } from 'src/common/http/alerts';
import { ListParams, type ListQuery } from 'src/common/list-query/list-query';
import { ALL_VERSIONS, type ApiVersion } from 'src/common/versioning/api-version';
import { ParametersService } from 'src/modules/parameters/parameters.service';
import { canReadSecureValues, visibleValue } from 'src/modules/parameters/secure-values';
import { ProfileDto } from './dto/profile.dto';
import { type ProfileExport, toProfileResponse } from './dto/profile.response';
import { PROFILE_LIST } from './profiles.list';
import { ProfilesService } from './profiles.service';
import { ConditionalOn } from 'src/common/conditional/conditional.decorator';
import { WireTimes } from 'src/common/wire/wire-times';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { IntKey, IntParam, TextParam, intRule } from 'src/common/request-input/param-rules';
import { ValidPath, ValidQuery } from 'src/common/request-input/request-input';
import { CreatedFrom } from 'src/common/wire/created-from';

/**
 * `attachment; filename="<name>.json"` as the original sends it; a name that is not plain ASCII
 * also gets the RFC 6266 `filename*` form (a raw one could not be sent as a header).
 */
export function contentDisposition(name: string): string {
  if (/^[\x20-\x7e]*$/.test(name)) {
    return `attachment; filename="${name.replace(/["\\]/g, '\\$&')}.json"`;
  }
  const fallback = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${fallback}.json"; filename*=UTF-8''${encodeURIComponent(name)}.json`;
}

@ConditionalOn('profile')
@WireTimes({ rfc3339From: '5.0' })
@Controller({ path: 'profiles', version: ALL_VERSIONS })
@ApiTags('profiles')
export class ProfilesController {
  constructor(
    private readonly profiles: ProfilesService,
    private readonly parameters: ParametersService,
  ) {}

  /**
   * As the original: `param=<parameter id>` keeps the profiles using that parameter, and asking for
   * one `id` adds the profile's parameters as `params` (secure values masked as in GET /parameters).
   */
  @Get()
  @ApiOperation({ summary: 'List the profiles' })
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('PROFILE:READ')
  async list(
    @ListParams(PROFILE_LIST) query: ListQuery,
    @ValidQuery('param', intRule('rangedFilter', { required: false })) param: number | undefined,
    @ValidQuery('id', TextParam()) id: string | undefined,
    @CurrentUser() user: CurrentUser,
    @RequestedVersion() version: ApiVersion,
  ) {
    const profiles = await this.profiles.list(query, param);
    if (id === undefined) {
      return profiles.map((p) => toProfileResponse(p));
    }
    const canReadSecure = canReadSecureValues(user, version);
    return Promise.all(
      profiles.map(async (profile) => {
        const params = await this.parameters.forProfile({ profileId: profile.id });
        return toProfileResponse(
          profile,
          params.map((p) => ({
            configFile: p.configFile,
            id: p.id,
            lastUpdated: null,
            name: p.name,
            profiles: null,
            secure: p.secure,
            value: visibleValue(p.value, p.secure, canReadSecure),
          })),
        );
      }),
    );
  }

  @Post()
  @CreatedFrom('5.0')
  @ApiOperation({ summary: 'Create a profile' })
  @HttpCode(200)
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('PROFILE:CREATE', 'PROFILE:READ')
  async create(@ValidBody(ProfileDto) dto: ProfileDto, @CurrentUser() user: CurrentUser) {
    const profile = await this.profiles.create(dto, user);
    return ApiResult.of(toProfileResponse(profile), successAlert('profile was created.'));
  }

  @Put(':id')
  @ApiOperation({ summary: 'Update a profile' })
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('PROFILE:UPDATE', 'PROFILE:READ')
  async update(
    @ValidPath('id', IntKey()) id: number,
    @ValidBody(ProfileDto) dto: ProfileDto,
    @CurrentUser() user: CurrentUser,
  ) {
    const profile = await this.profiles.update(id, dto, user);
    return ApiResult.of(toProfileResponse(profile), successAlert('profile was updated.'));
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a profile' })
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('PROFILE:DELETE', 'PROFILE:READ')
  async remove(@ValidPath('id', IntKey()) id: number, @CurrentUser() user: CurrentUser) {
    await this.profiles.remove(id, user);
    return ApiResult.alertsOnly(successAlert('profile was deleted.'));
  }

  /**
   * A file download, not wrapped in the envelope (docs/original-behaviour.md#profile-export). Unlike the
   * original, secure values are masked for a user who may not read them elsewhere (docs/decisions.md#d27).
   */
  @Get(':id/export')
  @ApiOperation({ summary: 'Export a profile and its parameters' })
  @RawResponse()
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('PROFILE:READ', 'PARAMETER:READ')
  async export(
    @ValidPath('id', IntParam()) id: number,
    @Res({ passthrough: true }) res: Response,
    @CurrentUser() user: CurrentUser,
    @RequestedVersion() version: ApiVersion,
  ): Promise<ProfileExport> {
    const profile = await this.profiles.find(id);
    if (!profile) {
      throw new NotFoundException('profile does not exist');
    }
    const canReadSecure = canReadSecureValues(user, version);
    const params = await this.parameters.forProfile({ profileId: id });
    res.setHeader('Content-Disposition', contentDisposition(profile.name));
    return {
      profile: {
        name: profile.name,
        description: profile.description ?? '',
        cdn: profile.cdn?.name ?? '',
        type: profile.type,
      },
      parameters: params.map((p) => ({
        config_file: p.configFile,
        name: p.name,
        value: visibleValue(p.value, p.secure, canReadSecure),
      })),
    };
  }
}
