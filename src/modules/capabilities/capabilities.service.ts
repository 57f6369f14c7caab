import { Injectable } from '@nestjs/common';
import type { ListQuery } from 'src/common/list-query/list-query';
import { CapabilitiesRepository } from './capabilities.repository';
import type { ApiCapability, Capability } from './capability.entity';

/** The original's `capability` and `api_capability` tables, read only (docs/decisions.md#d113). */
@Injectable()
export class CapabilitiesService {
  constructor(private readonly repository: CapabilitiesRepository) {}

  capabilities(query: ListQuery): Promise<Capability[]> {
    return this.repository.capabilities(query);
  }

  apiCapabilities(query: ListQuery): Promise<ApiCapability[]> {
    return this.repository.apiCapabilities(query);
  }
}
