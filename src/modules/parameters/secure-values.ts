import { PrivLevel } from 'src/common/decorators/auth.decorators';
import { type CurrentUser, holdsPermission } from 'src/common/types/current-user';
import type { ApiVersion } from 'src/common/versioning/api-version';

/** What a secure parameter's value reads as for a user who may not see it (the original's text). */
export const HIDDEN_VALUE = '********';

/**
 * Whether the user may read the values of secure parameters, as the original decides it: on 4.0
 * and later (role-based permissions) the role must hold `PARAMETER-SECURE:READ` (the admin role and
 * `ALL` hold everything); on 3.x the user must be an admin (level 30).
 */
export function canReadSecureValues(user: CurrentUser, version: ApiVersion): boolean {
  return version.atLeast('4.0')
    ? holdsPermission(user, 'PARAMETER-SECURE:READ')
    : user.privLevel >= Number(PrivLevel.Admin);
}

export function visibleValue(value: string, secure: boolean, canReadSecure: boolean): string {
  return secure && !canReadSecure ? HIDDEN_VALUE : value;
}
