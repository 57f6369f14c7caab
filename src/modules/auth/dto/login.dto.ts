import { Allow } from 'class-validator';

/** `{"u": user name, "p": password}`; checked by the service so that any bad shape gets one text. */
export class LoginDto {
  @Allow()
  u?: unknown;

  @Allow()
  p?: unknown;
}

/** `{"t": token}` of POST user/login/token; checked by the service. */
export class TokenLoginDto {
  @Allow()
  t?: unknown;
}
