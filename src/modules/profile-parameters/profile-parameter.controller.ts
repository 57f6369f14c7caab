import { Controller, HttpCode, Post } from '@nestjs/common';
import { PrivLevel, RequirePermissions, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { ApiResult, successAlert } from 'src/common/http/alerts';
import { ValidBody } from 'src/common/validation/valid-body';
import { ALL_VERSIONS } from 'src/common/versioning/api-version';
import { ProfileParameterAssignmentBody } from './dto/profile-parameter-assignment.dto';
import { ProfileParametersService } from './profile-parameters.service';
import { ApiOperation, ApiTags } from '@nestjs/swagger';

/**
 * POST /profileparameter: the original's older route assigning several parameters to one profile
 * (docs/original-behaviour.md#profileparameter).
 */
@Controller({ path: 'profileparameter', version: ALL_VERSIONS })
@ApiTags('profile parameters')
export class ProfileParameterController {
  constructor(private readonly links: ProfileParametersService) {}

  @Post()
  @ApiOperation({ summary: 'Assign several parameters to a profile' })
  @HttpCode(200)
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('PROFILE:READ', 'PARAMETER:READ', 'PROFILE:UPDATE')
  async assign(@ValidBody(ProfileParameterAssignmentBody) body: ProfileParameterAssignmentBody) {
    const profileName = await this.links.assignToProfile(body);
    const paramIds = body.paramIds ?? [];
    return ApiResult.of(
      { profileId: body.profileId, paramIds, replace: body.replace },
      successAlert(`${paramIds.length} parameters were assigned to the ${profileName} profile`),
    );
  }
}
