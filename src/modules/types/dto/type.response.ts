import type { Type } from 'src/modules/types/type.entity';

export function toTypeResponse(type: Type): Record<string, unknown> {
  return {
    description: type.description,
    id: type.id,
    lastUpdated: type.lastUpdated,
    name: type.name,
    useInTable: type.useInTable,
  };
}
