import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { type SteeringEntry, type SteeringFilterEntry, toSteeringTargetEntry } from './dto/steering.response';

interface TargetRow {
  steering_xml_id: string;
  target_id: number | string;
  target_xml_id: string;
  value: number | string;
  steering_type: string;
  ds_type: string;
}

interface FilterRow {
  ds_id: number | string;
  xml_id: string;
  pattern: string;
}

/**
 * GET /steering (traffic_ops_golang/steering): every delivery service that has steering targets,
 * sorted by xmlId, with its targets (by target xmlId) and the STEERING_REGEXP regexes of those
 * targets as filters. Two set-based queries whatever the number of delivery services.
 */
@Injectable()
export class SteeringService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async list(): Promise<SteeringEntry[]> {
    const targets: TargetRow[] = await this.dataSource.query(
      'SELECT ds.xml_id AS steering_xml_id, t.id AS target_id, t.xml_id AS target_xml_id, st.value, ' +
        'tp.name AS steering_type, dt.name AS ds_type ' +
        'FROM steering_target st ' +
        'JOIN deliveryservice ds ON ds.id = st.deliveryservice ' +
        'JOIN deliveryservice t ON t.id = st.target ' +
        'JOIN type tp ON tp.id = st.type ' +
        'JOIN type dt ON dt.id = ds.type ' +
        'ORDER BY ds.xml_id, t.xml_id',
    );
    const filterRows: FilterRow[] = await this.dataSource.query(
      'SELECT ds.id AS ds_id, ds.xml_id, r.pattern ' +
        'FROM deliveryservice ds ' +
        'JOIN deliveryservice_regex dsr ON dsr.deliveryservice = ds.id ' +
        'JOIN regex r ON r.id = dsr.regex ' +
        'JOIN type t ON t.id = r.type ' +
        "WHERE t.name = 'STEERING_REGEXP' AND ds.id IN (SELECT target FROM steering_target) " +
        'ORDER BY r.pattern, ds.type, dsr.set_number, dsr.id',
    );
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
