import { ValidBody } from 'src/common/validation/valid-body';
import { Controller, Get, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { CurrentUser } from 'src/common/decorators/current-user.decorator';
import { RequestedVersion } from 'src/common/decorators/api-version.decorator';
import { PrivLevel, Public, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { setSessionCookie } from 'src/common/guards/session-auth.guard';
import { ApiResult, successAlert } from 'src/common/http/alerts';
import type { CurrentUser as CurrentUserData } from 'src/common/types/current-user';
import { ALL_VERSIONS, type ApiVersion } from 'src/common/versioning/api-version';
import { authConfig, type AuthConfig } from 'src/config/auth.config';
import { NotAChange } from 'src/modules/change-log/change-log.decorator';
import { toUserResponse } from 'src/modules/users/dto/user.response';
import { UsersService } from 'src/modules/users/users.service';
import { AuthService } from './auth.service';
import { LoginDto } from './dto/login.dto';
import { SESSION_COOKIE } from './session-cookie';

@Controller({ path: 'user', version: ALL_VERSIONS })
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly users: UsersService,
    @Inject(authConfig.KEY) private readonly config: AuthConfig,
  ) {}

  @Post('login')
  @HttpCode(200)
  @Public()
  async login(
    @ValidBody(LoginDto) body: LoginDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ApiResult<never>> {
    const username = await this.auth.login(body.u, body.p, req.ip ?? 'unknown');
    setSessionCookie(res, this.config.sessionSecret, username);
    return ApiResult.alertsOnly(successAlert('Successfully logged in.'));
  }

  @Post('logout')
  @HttpCode(200)
  @NotAChange()
  @RequirePrivLevel(PrivLevel.LoggedIn)
  logout(@Res({ passthrough: true }) res: Response): ApiResult<never> {
    res.removeHeader('Set-Cookie');
    res.cookie(SESSION_COOKIE, '', { path: '/', httpOnly: true, expires: new Date(0) });
    return ApiResult.alertsOnly(successAlert('You are logged out.'));
  }

  @Get('current')
  @RequirePrivLevel(PrivLevel.LoggedIn)
  async current(
    @CurrentUser() user: CurrentUserData,
    @RequestedVersion() version: ApiVersion,
  ): Promise<Record<string, unknown>> {
    const found = await this.users.findWithRelations(user.id);
    return { ...toUserResponse(found, version), ...(version.atLeast('4.0') ? {} : { localUser: true }) };
  }
}
