import type { Parameter } from 'src/modules/parameters/parameter.entity';
import { visibleValue } from 'src/modules/parameters/secure-values';

/**
 * A parameter on the wire (lib/go-tc ParameterNullable). `profiles` is the list of the names of
 * the profiles using it in reads ([] when none) and null in write responses, as in the original.
 */
export function toParameterResponse(
  parameter: Parameter,
  profiles: string[] | null,
  canReadSecure = true,
): Record<string, unknown> {
  return {
    configFile: parameter.configFile,
    id: parameter.id,
    lastUpdated: parameter.lastUpdated,
    name: parameter.name,
    profiles,
    secure: parameter.secure,
    value: visibleValue(parameter.value, parameter.secure, canReadSecure),
  };
}
