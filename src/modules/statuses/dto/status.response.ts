import type { Status } from 'src/modules/statuses/status.entity';

/** lib/go-tc Status (every version). */
export interface StatusWire {
  description: string | null;
  id: number;
  lastUpdated: Date;
  name: string;
}

export function toStatusResponse(status: Status): StatusWire {
  return {
    description: status.description,
    id: status.id,
    lastUpdated: status.lastUpdated,
    name: status.name,
  };
}
