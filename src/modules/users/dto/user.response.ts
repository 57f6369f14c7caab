import type { ApiVersion } from 'src/common/versioning/api-version';
import type { User } from 'src/modules/users/user.entity';

/** The fields every version's user has (lib/go-tc User / UserV4 / UserV40), times as Dates for the envelope. */
export interface UserCommonWire {
  addressLine1: string | null;
  addressLine2: string | null;
  city: string | null;
  company: string | null;
  country: string | null;
  email: string | null;
  fullName: string | null;
  gid: number | null;
  id: number;
  lastUpdated: Date;
  newUser: boolean;
  phoneNumber: string | null;
  postalCode: string | null;
  publicSshKey: string | null;
  registrationSent: Date | null;
  stateOrProvince: string | null;
  tenant: string | null;
  tenantId: number;
  uid: number | null;
  username: string;
}

/** 3.x `users`: the role by id (`role`) and name (`rolename`). */
export interface UserV3 extends UserCommonWire {
  role: number;
  rolename: string | null;
}

/** 4.0 and later: the role by name, the change-log count, the last sign-in and the uCDN. */
export interface UserV4 extends UserCommonWire {
  changeLogCount: number;
  lastAuthenticated: Date | null;
  role: string | null;
  ucdn: string;
}

/**
 * The 3.x `PUT user/current` answer (the original's `tc.User`): the role by id (`role`) and name
 * (`roleName`, spelt so here, unlike the 3.x `users`), with `registrationSent` and no `localUser`.
 */
export interface CurrentUserV3Response extends UserCommonWire {
  role: number;
  roleName: string | null;
}

function commonFields(user: User): UserCommonWire {
  return {
    addressLine1: user.addressLine1,
    addressLine2: user.addressLine2,
    city: user.city,
    company: user.company,
    country: user.country,
    email: user.email,
    fullName: user.fullName,
    gid: user.gid,
    id: user.id,
    lastUpdated: user.lastUpdated,
    newUser: user.newUser,
    phoneNumber: user.phoneNumber,
    postalCode: user.postalCode,
    publicSshKey: user.publicSshKey,
    registrationSent: user.registrationSent,
    stateOrProvince: user.stateOrProvince,
    tenant: user.tenant?.name ?? null,
    tenantId: user.tenantId,
    uid: user.uid,
    username: user.username,
  };
}

/** A user on the wire. 3.x names the role by id (`role`) and name (`rolename`); 4.0+ by name (`role`). */
export function toUserResponse(user: User, version: ApiVersion): UserV3 | UserV4 {
  const common = commonFields(user);
  if (version.atLeast('4.0')) {
    return {
      ...common,
      changeLogCount: user.changeLogCount ?? 0,
      lastAuthenticated: user.lastAuthenticated,
      role: user.role?.name ?? null,
      ucdn: user.ucdn,
    };
  }
  return { ...common, role: user.roleId, rolename: user.role?.name ?? null };
}

/** 3.x `GET user/current`: the 3.x user with `localUser` (always true: there are no LDAP users). */
export interface CurrentUserV3 extends UserV3 {
  localUser: true;
}
/** 4.0 and later `GET user/current`: the user as `users` shows it. */
export type CurrentUserV4 = UserV4;

/** The signed-in user on `GET user/current`. */
export function toCurrentUser(user: User, version: ApiVersion): CurrentUserV3 | CurrentUserV4 {
  if (version.atLeast('4.0')) {
    return toUserResponse(user, version) as UserV4;
  }
  return { ...(toUserResponse(user, version) as UserV3), localUser: true };
}

export function toCurrentUserV3Response(user: User): CurrentUserV3Response {
  return { ...commonFields(user), role: user.roleId, roleName: user.role?.name ?? null };
}
