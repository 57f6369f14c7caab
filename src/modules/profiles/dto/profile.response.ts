import type { Profile } from 'src/modules/profiles/profile.entity';

/** A parameter inside a profile read by id: no last update and no profiles, as the original. */
export interface ProfileParameterOfProfile {
  configFile: string;
  id: number;
  lastUpdated: null;
  name: string;
  profiles: null;
  secure: boolean;
  value: string;
}

/** lib/go-tc ProfileNullable (every version). */
export interface ProfileWire {
  id: number;
  lastUpdated: Date;
  name: string;
  description: string | null;
  cdnName: string | null;
  cdn: number;
  routingDisabled: boolean;
  type: string;
  params?: ProfileParameterOfProfile[];
}

/** A profile on the wire (lib/go-tc ProfileNullable); `params` only when the caller supplies them. */
export function toProfileResponse(profile: Profile, params?: ProfileParameterOfProfile[]): ProfileWire {
  const body: ProfileWire = {
    id: profile.id,
    lastUpdated: profile.lastUpdated,
    name: profile.name,
    description: profile.description,
    cdnName: profile.cdn?.name ?? null,
    cdn: profile.cdnId,
    routingDisabled: profile.routingDisabled,
    type: profile.type,
  };
  if (params && params.length > 0) {
    body.params = params;
  }
  return body;
}

export interface ProfileExport {
  profile: { name: string; description: string; cdn: string; type: string };
  parameters: { config_file: string; name: string; value: string }[];
}
