import type { ProfileParameter } from 'src/modules/profile-parameters/profile-parameter.entity';

/** A row of GET /profileparameters (lib/go-tc ProfileParametersNullable): profile by name, parameter by id. */
export function toProfileParameterResponse(link: ProfileParameter): Record<string, unknown> {
  return {
    lastUpdated: link.lastUpdated,
    profile: link.profile?.name ?? null,
    parameter: link.parameterId,
  };
}

/** The create response of the original's generic handler: the request's ids, everything else null. */
export function toCreatedProfileParameter(link: {
  profileId: number;
  parameterId: number;
}): Record<string, unknown> {
  return {
    lastUpdated: null,
    profile: null,
    profileId: link.profileId,
    parameter: null,
    parameterId: link.parameterId,
  };
}
