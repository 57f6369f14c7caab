import { Injectable } from '@nestjs/common';
import { type SteeringEntry, type SteeringFilterEntry, toSteeringTargetEntry } from './dto/steering.response';
import { SteeringRepository } from './steering.repository';

/**
 * GET /steering (traffic_ops_golang/steering): every delivery service that has steering targets,
 * sorted by xmlId, with its targets (by target xmlId) and the STEERING_REGEXP regexes of those
 * targets as filters. Two set-based queries whatever the number of delivery services.
 */
@Injectable()
export class SteeringService {
  constructor(private readonly steering: SteeringRepository) {}

  async list(): Promise<SteeringEntry[]> {
    const targets = await this.steering.steeringTargets();
    const filterRows = await this.steering.steeringFilters();
    const filtersByTarget = new Map<number, SteeringFilterEntry[]>();
    for (const row of filterRows) {
      const id = Number(row.ds_id);
      const list = filtersByTarget.get(id) ?? [];
      list.push({ deliveryService: row.xml_id, pattern: row.pattern });
      filtersByTarget.set(id, list);
    }

    const entries: SteeringEntry[] = [];
    let current: SteeringEntry | undefined;
    for (const row of targets) {
      if (current?.deliveryService !== row.steering_xml_id) {
        current = {
          deliveryService: row.steering_xml_id,
          clientSteering: row.ds_type === 'CLIENT_STEERING',
          targets: [],
          filters: [],
        };
        entries.push(current);
      }
      current.targets.push(toSteeringTargetEntry(row.target_xml_id, row.steering_type, Number(row.value)));
      current.filters.push(...(filtersByTarget.get(Number(row.target_id)) ?? []));
    }
    return entries;
  }
}
