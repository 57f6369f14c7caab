import { Controller, Get, HttpCode, NotFoundException, Post } from '@nestjs/common';
import { RequestedVersion } from 'src/common/decorators/api-version.decorator';
import { PrivLevel, RequirePermissions, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { CurrentUser } from 'src/common/decorators/current-user.decorator';
import { ApiResult, successAlert } from 'src/common/http/alerts';
import { ValidBody } from 'src/common/validation/valid-body';
import { ALL_VERSIONS, type ApiVersion } from 'src/common/versioning/api-version';
import { rfc3339 } from 'src/common/wire/by-version';
import { ParametersService } from 'src/modules/parameters/parameters.service';
import { canReadSecureValues, visibleValue } from 'src/modules/parameters/secure-values';
import { ProfilesService } from 'src/modules/profiles/profiles.service';
import { type ByNameParameter, ByNameParametersBody } from './dto/by-name.dto';
import { ParamProfileBody } from './dto/param-profile.dto';
import { ProfileParametersService } from './profile-parameters.service';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ConditionalOn } from 'src/common/conditional/conditional.decorator';
import { PROFILE_PARAMETER_TABLES } from './profile-parameters.list';
import { IntParam } from 'src/common/request-input/param-rules';
import { ValidPath } from 'src/common/request-input/request-input';

/** GET and POST profiles/{id}/parameters (docs/original-behaviour.md#profile-id-parameters). */
@Controller({ path: 'profiles/:id/parameters', version: ALL_VERSIONS })
@ApiTags('profile parameters')
export class ProfileIdParametersController {
  constructor(
    private readonly profiles: ProfilesService,
    private readonly parameters: ParametersService,
    private readonly links: ProfileParametersService,
  ) {}

  /**
   * The profile's parameters (an unknown profile has none: 200 []); secure values masked as in
   * GET /parameters, as the by-name route does. 5.0 writes `lastUpdated` as RFC 3339.
   */
  // A cache's t3c asks for its profiles' parameters on every run, with If-Modified-Since.
  @ConditionalOn(PROFILE_PARAMETER_TABLES)
  @Get()
  @ApiOperation({ summary: 'List the parameters of a profile' })
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('PROFILE:READ', 'PARAMETER:READ')
  async list(
    @ValidPath('id', IntParam()) id: number,
    @CurrentUser() user: CurrentUser,
    @RequestedVersion() version: ApiVersion,
  ) {
    const canReadSecure = canReadSecureValues(user, version);
    return (await this.parameters.forProfile({ profileId: id })).map((p) => ({
      configFile: p.configFile,
      id: p.id,
      lastUpdated: version.atLeast('5.0') ? rfc3339(p.lastUpdated) : p.lastUpdated,
      name: p.name,
      secure: p.secure,
      value: visibleValue(p.value, p.secure, canReadSecure),
    }));
  }

  /** As POST profiles/name/{name}/parameters, for the profile of that id. */
  @Post()
  @ApiOperation({ summary: 'Assign parameters to a profile, creating missing ones' })
  @HttpCode(200)
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('PROFILE:UPDATE', 'PROFILE:READ', 'PARAMETER:READ')
  async assign(
    @ValidPath('id', IntParam()) id: number,
    @ValidBody(ByNameParametersBody) items: ByNameParameter[],
  ) {
    const profile = await this.profiles.find(id);
    if (!profile) {
      throw new NotFoundException(`no profile with ID ${id} exists`);
    }
    const assigned = await this.links.assignByName(profile.id, items);
    return ApiResult.of(
      {
        parameters: assigned.map((p) => ({
          configFile: p.configFile,
          name: p.name,
          secure: p.secure ? 1 : 0,
          value: p.value,
          id: p.id,
        })),
        profileId: profile.id,
        profileName: profile.name,
      },
      successAlert(`Assign parameters successfully to profile ${profile.name}`),
    );
  }
}

/** POST /parameterprofile: one parameter given to several profiles (docs/original-behaviour.md#parameterprofile). */
@Controller({ path: 'parameterprofile', version: ALL_VERSIONS })
@ApiTags('profile parameters')
export class ParameterProfileController {
  constructor(private readonly links: ProfileParametersService) {}

  @Post()
  @ApiOperation({ summary: 'Assign a parameter to several profiles' })
  @HttpCode(200)
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('PROFILE:UPDATE', 'PROFILE:READ', 'PARAMETER:READ')
  async assign(@ValidBody(ParamProfileBody) body: ParamProfileBody) {
    await this.links.assignToParameter(body);
    return ApiResult.of(
      { paramId: body.paramId, profileIds: body.profileIds, replace: body.replace },
      successAlert(`${body.profileIds.length} profiles were assigned to the ${body.paramId} parameter`),
    );
  }
}
