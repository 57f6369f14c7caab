import type { Profile } from 'src/modules/profiles/profile.entity';

/** A profile on the wire (lib/go-tc ProfileNullable); `params` only when the caller supplies them. */
export function toProfileResponse(
  profile: Profile,
  params?: Record<string, unknown>[],
): Record<string, unknown> {
  const body: Record<string, unknown> = {
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
