import { BadRequestException } from '@nestjs/common';
import { INT32, parseIntText } from 'src/common/validation/integers';
import type { ApiVersion } from 'src/common/versioning/api-version';

/** Which role PUT and DELETE /roles address: `?name=` on 4.0 and later, `?id=` on 3.x. */
export type RoleKey = { name: string } | { id: number };

export function roleKeyOf(query: Record<string, unknown>, version: ApiVersion): RoleKey {
  const field = version.atLeast('4.0') ? 'name' : 'id';
  const raw = Array.isArray(query[field]) ? (query[field] as unknown[])[0] : query[field];
  if (typeof raw !== 'string' || raw === '') {
    throw new BadRequestException(`missing key: ${field}`);
  }
  if (field === 'name') {
    return { name: raw };
  }
  const id = parseIntText(raw, { min: 0, max: INT32.max });
  if (id === undefined) {
    throw new BadRequestException('failed to parse key: id');
  }
  return { id };
}
