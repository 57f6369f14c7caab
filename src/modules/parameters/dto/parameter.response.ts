import type { Parameter } from 'src/modules/parameters/parameter.entity';
import { visibleValue } from 'src/modules/parameters/secure-values';

/** lib/go-tc ParameterNullable (every version). */
export interface ParameterWire {
  configFile: string;
  id: number;
  lastUpdated: Date;
  name: string;
  profiles: string[] | null;
  secure: boolean;
  value: string;
  comment: string | null;
}

/**
 * A parameter on the wire (lib/go-tc ParameterNullable). `profiles` is the list of the names of
 * the profiles using it in reads ([] when none) and null in write responses, as in the original.
 */
export function toParameterResponse(
  parameter: Parameter,
  profiles: string[] | null,
  canReadSecure = true,
): ParameterWire {
  return {
    configFile: parameter.configFile,
    id: parameter.id,
    lastUpdated: parameter.lastUpdated,
    name: parameter.name,
    profiles,
    secure: parameter.secure,
    value: visibleValue(parameter.value, parameter.secure, canReadSecure),
    comment: parameter.comment,
  };
}
