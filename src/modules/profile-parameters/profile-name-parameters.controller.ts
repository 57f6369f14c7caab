import { Controller, Get, HttpCode, NotFoundException, Post } from '@nestjs/common';
import { RequestedVersion } from 'src/common/decorators/api-version.decorator';
import { PrivLevel, RequirePermissions, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { CurrentUser } from 'src/common/decorators/current-user.decorator';
import { ApiResult, successAlert } from 'src/common/http/alerts';
import { ALL_VERSIONS, type ApiVersion } from 'src/common/versioning/api-version';
import { ParametersService } from 'src/modules/parameters/parameters.service';
import { canReadSecureValues, visibleValue } from 'src/modules/parameters/secure-values';
import { ProfilesService } from 'src/modules/profiles/profiles.service';
import { type ByNameParameter, ByNameParametersBody } from './dto/by-name.dto';
import { ValidBody } from 'src/common/validation/valid-body';
import { ProfileParametersService } from './profile-parameters.service';
import { WireTimes } from 'src/common/wire/wire-times';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ConditionalOn } from 'src/common/conditional/conditional.decorator';
import { PROFILE_PARAMETER_TABLES } from './profile-parameters.list';
import { PathText } from 'src/common/request-input/param-rules';
import { ValidPath } from 'src/common/request-input/request-input';

@WireTimes({ rfc3339From: '5.0', specified: true })
@Controller({ path: 'profiles/name/:name/parameters', version: ALL_VERSIONS })
@ApiTags('profile parameters')
export class ProfileNameParametersController {
  constructor(
    private readonly profiles: ProfilesService,
    private readonly parameters: ParametersService,
    private readonly links: ProfileParametersService,
  ) {}

  /**
   * The parameters of the named profile; an unknown profile has none (200 []). Unlike the original,
   * secure values are masked here as in GET /parameters, so that this route does not reveal them.
   */
  // A cache's t3c asks for its profiles' parameters on every run, with If-Modified-Since.
  @ConditionalOn(PROFILE_PARAMETER_TABLES)
  @Get()
  @ApiOperation({ summary: 'List the parameters of a profile by its name' })
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('PROFILE:READ', 'PARAMETER:READ')
  async list(
    @ValidPath('name', PathText()) name: string,
    @CurrentUser() user: CurrentUser,
    @RequestedVersion() version: ApiVersion,
  ) {
    const canReadSecure = canReadSecureValues(user, version);
    return (await this.parameters.forProfile({ profileName: name })).map((p) => ({
      configFile: p.configFile,
      id: p.id,
      lastUpdated: p.lastUpdated,
      name: p.name,
      secure: p.secure,
      value: visibleValue(p.value, p.secure, canReadSecure),
    }));
  }

  @Post()
  @ApiOperation({ summary: 'Assign parameters to a profile by its name, creating missing ones' })
  @HttpCode(200)
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('PROFILE:UPDATE', 'PROFILE:READ', 'PARAMETER:READ')
  async assign(
    @ValidPath('name', PathText()) name: string,
    @ValidBody(ByNameParametersBody) items: ByNameParameter[],
  ) {
    const profile = await this.profiles.findByName(name);
    if (!profile) {
      throw new NotFoundException('no profile with that name exists');
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
