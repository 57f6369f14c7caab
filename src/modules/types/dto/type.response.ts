import type { Type } from 'src/modules/types/type.entity';

/** lib/go-tc Type (every version). */
export interface TypeWire {
  description: string;
  id: number;
  lastUpdated: Date;
  name: string;
  useInTable: string | null;
}

export function toTypeResponse(type: Type): TypeWire {
  return {
    description: type.description,
    id: type.id,
    lastUpdated: type.lastUpdated,
    name: type.name,
    useInTable: type.useInTable,
  };
}
