import { Controller, HttpCode, Post, Put } from '@nestjs/common';
import type { Request } from 'express';
import { ConditionalOn } from 'src/common/conditional/conditional.decorator';
import { RequestedVersion } from 'src/common/decorators/api-version.decorator';
import {
  PrivLevel,
  Public,
  RequirePermissions,
  RequirePrivLevel,
} from 'src/common/decorators/auth.decorators';
import { CurrentUser } from 'src/common/decorators/current-user.decorator';
import { ApiResult, successAlert } from 'src/common/http/alerts';
import { ValidBody } from 'src/common/validation/valid-body';
import { ALL_VERSIONS, type ApiVersion } from 'src/common/versioning/api-version';
import { NotAChange } from 'src/common/decorators/not-a-change.decorator';
import {
  PasswordResetBody,
  RegistrationV3Body,
  RegistrationV4Body,
  type RegistrationRequest,
} from './dto/registration.dto';
import { CurrentUserV3Body } from './dto/current-user.dto';
import { UserV4Dto } from './dto/user.dto';
import { toCurrentUserV3Response, toUserResponse } from './dto/user.response';
import { RegistrationService } from './registration.service';
import { CurrentUserService } from './current-user.service';
import { WireTimes } from 'src/common/wire/wire-times';
import { ApiOperation, ApiTags } from '@nestjs/swagger';

/** POST users/register (docs/original-behaviour.md#user-registration). */
@Controller({ path: 'users/register', version: ALL_VERSIONS })
@ApiTags('users')
export class UserRegistrationController {
  constructor(private readonly registration: RegistrationService) {}

  @Post()
  @ApiOperation({ summary: 'Invite a new user to register by email' })
  @HttpCode(200)
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('USER:CREATE', 'USER:READ')
  async register(
    @ValidBody({ '3.0': RegistrationV3Body, '4.0': RegistrationV4Body }) body: RegistrationRequest,
    @CurrentUser() user: CurrentUser,
  ) {
    const sent = await this.registration.register(body, user);
    return ApiResult.alertsOnly(
      successAlert(
        `Sent user registration to <${sent.email}> with the following permissions [ role: ${sent.role} | tenant: ${sent.tenant} ]`,
      ),
    );
  }
}

/** POST user/reset_password (no session). */
@Controller({ path: 'user', version: ALL_VERSIONS })
@ApiTags('users')
export class UserAccountController {
  constructor(private readonly registration: RegistrationService) {}

  @Post('reset_password')
  @ApiOperation({ summary: 'Send a password reset email' })
  @HttpCode(200)
  @Public()
  @NotAChange()
  async resetPassword(@ValidBody(PasswordResetBody) body: PasswordResetBody) {
    await this.registration.resetPassword(body.email);
    return ApiResult.alertsOnly(successAlert('Password reset email sent'));
  }
}

/**
 * PUT user/current: the signed-in user's own profile (docs/original-behaviour.md#user-current): on
 * 4.0+ the user object itself, on 3.x `{"user": {...}}` merged into the stored user.
 * The 4.x types write their times as RFC 3339 (docs/decisions.md#d4), 3.x the custom form, as
 * GET user/current does.
 */
@WireTimes({ rfc3339From: '4.0' })
@Controller({ path: 'user/current', version: ALL_VERSIONS })
@ApiTags('users')
export class CurrentUserController {
  constructor(private readonly currentUser: CurrentUserService) {}

  @Put()
  @ApiOperation({ summary: 'Update the signed-in user' })
  @ConditionalOn({ table: 'tm_user', row: (req: Request) => ({ id: (req.user as CurrentUser).id }) })
  @RequirePrivLevel(PrivLevel.ReadOnly)
  async update(
    @ValidBody({ '3.0': CurrentUserV3Body, '4.0': UserV4Dto }) body: CurrentUserV3Body | UserV4Dto,
    @CurrentUser() user: CurrentUser,
    @RequestedVersion() version: ApiVersion,
  ) {
    const alert = successAlert('User profile was successfully updated');
    if (body instanceof CurrentUserV3Body) {
      return ApiResult.of(toCurrentUserV3Response(await this.currentUser.updateCurrentV3(body, user)), alert);
    }
    return ApiResult.of(toUserResponse(await this.currentUser.updateCurrent(body, user), version), alert);
  }
}
