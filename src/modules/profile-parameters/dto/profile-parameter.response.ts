import type { ProfileParameter } from 'src/modules/profile-parameters/profile-parameter.entity';

/** lib/go-tc ProfileParametersNullable as listed. */
export interface ProfileParameterWire {
  lastUpdated: Date;
  profile: string | null;
  parameter: number;
}

/** What the original's generic create answers: the request's ids, everything else null. */
export interface CreatedProfileParameterWire {
  lastUpdated: null;
  profile: null;
  profileId: number;
  parameter: null;
  parameterId: number;
}

/** A row of GET /profileparameters (lib/go-tc ProfileParametersNullable): profile by name, parameter by id. */
export function toProfileParameterResponse(link: ProfileParameter): ProfileParameterWire {
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
}): CreatedProfileParameterWire {
  return {
    lastUpdated: null,
    profile: null,
    profileId: link.profileId,
    parameter: null,
    parameterId: link.parameterId,
  };
}
