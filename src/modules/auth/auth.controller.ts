import { Controller, Get, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import { ValidBody } from 'src/common/validation/valid-body';
import type { Request, Response } from 'express';
import { CurrentUser } from 'src/common/decorators/current-user.decorator';
import { RequestedVersion } from 'src/common/decorators/api-version.decorator';
import { PrivLevel, Public, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { ApiResult, successAlert } from 'src/common/http/alerts';
import { ALL_VERSIONS, type ApiVersion } from 'src/common/versioning/api-version';
import { NotAChange } from 'src/common/decorators/not-a-change.decorator';
import { toCurrentUser } from 'src/modules/users/dto/user.response';
import { UsersService } from 'src/modules/users/users.service';
import { AuthService } from './auth.service';
import { LoginDto, TokenLoginDto } from './dto/login.dto';
import { SessionService } from './session.service';
import { WireTimes } from 'src/common/wire/wire-times';
import { cdniConfig, type CdniConfig } from 'src/config/cdni.config';
import { ACCESS_TOKEN_COOKIE, CDNI_TOKEN_SECONDS, signHs256 } from 'src/modules/cdni/cdni-token';
import { sessionCookieOptions } from './session-cookie';
import { ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { BoolParam } from 'src/common/request-input/param-rules';
import { ValidQuery } from 'src/common/request-input/request-input';

@WireTimes({ rfc3339From: '4.0' })
@Controller({ path: 'user', version: ALL_VERSIONS })
@ApiTags('authentication')
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly users: UsersService,
    private readonly sessions: SessionService,
    @Inject(cdniConfig.KEY) private readonly cdni: CdniConfig,
  ) {}

  @Post('login')
  @ApiOperation({ summary: 'Log in with a username and password' })
  @HttpCode(200)
  @Public()
  async login(
    @ValidBody(LoginDto) body: LoginDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ApiResult<never>> {
    const claims = await this.auth.login(body.u, body.p, req.ip ?? 'unknown');
    this.sessions.start(req, res, claims);
    await this.issueCdniToken(req, res, claims.userId);
    return ApiResult.alertsOnly(successAlert('Successfully logged in.'));
  }

  @Post('login/token')
  @ApiOperation({ summary: "Log in with a user's registration or password-reset token" })
  @HttpCode(200)
  @Public()
  async loginWithToken(
    @ValidBody(TokenLoginDto) body: TokenLoginDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ApiResult<never>> {
    const claims = await this.auth.loginWithToken(body.t, req.ip ?? 'unknown');
    this.sessions.start(req, res, claims);
    return ApiResult.alertsOnly(successAlert('Successfully logged in.'));
  }

  /**
   * Ends this session (this sign-in's cookies, on every instance); `?all=true`, an extension of the
   * original's API, ends every session of the user (docs/decisions.md#d115).
   */
  @Post('logout')
  @ApiOperation({ summary: 'Log out: end this session, or with all=true every session of the user' })
  @ApiQuery({
    name: 'all',
    required: false,
    type: Boolean,
    description: 'true: end every session of the user, on every device (an extension)',
  })
  @HttpCode(200)
  @NotAChange()
  @RequirePrivLevel(PrivLevel.LoggedIn)
  async logout(
    @CurrentUser() user: CurrentUser,
    @ValidQuery('all', BoolParam('logoutAll', false)) everywhere: boolean,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ApiResult<never>> {
    await this.sessions.end(req, res, user, everywhere);
    return ApiResult.alertsOnly(successAlert('You are logged out.'));
  }

  /**
   * With CDNi configured, sign-in also sets the `access_token` cookie the original's sign-in sets: a
   * token for the CDNi routes naming the user's uCDN (`iss`) and this dCDN (`aud`), valid for the
   * original's six hours and not renewed (docs/decisions.md#d112).
   */
  private async issueCdniToken(req: Request, res: Response, userId: number): Promise<void> {
    const { dcdnId, jwtSecret } = this.cdni;
    if (dcdnId === undefined || jwtSecret === undefined) {
      return;
    }
    const user = await this.users.findWithRelations(userId);
    const exp = Math.floor(Date.now() / 1000) + CDNI_TOKEN_SECONDS;
    res.cookie(ACCESS_TOKEN_COOKIE, signHs256({ iss: user.ucdn ?? '', aud: dcdnId, exp }, jwtSecret), {
      ...sessionCookieOptions(req),
      maxAge: CDNI_TOKEN_SECONDS * 1000,
    });
  }

  @Get('current')
  @ApiOperation({ summary: 'Show the signed-in user' })
  @RequirePrivLevel(PrivLevel.LoggedIn)
  async current(@CurrentUser() user: CurrentUser, @RequestedVersion() version: ApiVersion) {
    return toCurrentUser(await this.users.findWithRelations(user.id), version);
  }
}
