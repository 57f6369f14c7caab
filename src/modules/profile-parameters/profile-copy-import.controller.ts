import { Controller, HttpCode, Post } from '@nestjs/common';
import { PrivLevel, RequirePermissions, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { ApiResult, successAlert } from 'src/common/http/alerts';
import { ValidBody } from 'src/common/validation/valid-body';
import { ALL_VERSIONS } from 'src/common/versioning/api-version';
import { ProfileImportBody } from './dto/profile-import.dto';
import { ProfileCopyImportService } from './profile-copy-import.service';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { PathText } from 'src/common/request-input/param-rules';
import { ValidPath } from 'src/common/request-input/request-input';

/**
 * POST profiles/name/{new}/copy/{existing} and POST profiles/import (docs/original-behaviour.md#profile-copy,
 * docs/original-behaviour.md#profile-import): they write a profile, parameters and their links, so they
 * live with the links (docs/decisions.md#d83).
 */
@Controller({ path: 'profiles', version: ALL_VERSIONS })
@ApiTags('profiles')
export class ProfileCopyImportController {
  constructor(private readonly service: ProfileCopyImportService) {}

  @Post('name/:name/copy/:from')
  @ApiOperation({ summary: 'Copy a profile and its parameters to a new profile' })
  @HttpCode(200)
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('PROFILE:CREATE', 'PROFILE:READ', 'PARAMETER:READ')
  async copy(@ValidPath('name', PathText()) name: string, @ValidPath('from', PathText()) from: string) {
    const copy = await this.service.copy(name, from);
    return ApiResult.of(
      copy,
      successAlert(`created new profile [${copy.name}] from existing profile [${copy.profileCopyFrom}]`),
    );
  }

  @Post('import')
  @ApiOperation({ summary: 'Import a profile and its parameters' })
  @HttpCode(200)
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('PROFILE:CREATE', 'PARAMETER:CREATE', 'PROFILE:READ', 'PARAMETER:READ')
  async import(@ValidBody(ProfileImportBody) body: ProfileImportBody) {
    const { profile, created, existing } = await this.service.import(body);
    return ApiResult.of(
      {
        name: profile.name,
        description: profile.description,
        cdn: body.cdn,
        type: profile.type,
        id: profile.id,
      },
      successAlert(
        `Profile imported [ ${profile.name} ] with ${created} new and ${existing} existing parameters`,
      ),
    );
  }
}
