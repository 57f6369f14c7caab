import type { Status } from 'src/modules/statuses/status.entity';

export function toStatusResponse(status: Status): Record<string, unknown> {
  return {
    description: status.description,
    id: status.id,
    lastUpdated: status.lastUpdated,
    name: status.name,
  };
}
