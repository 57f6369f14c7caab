import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { WireCompat } from 'src/common/wire/wire-compat';

/**
 * The WIRE_COMPAT setting for the few handlers whose answer it changes (docs/decisions.md#d5a):
 * `original` is true with `WIRE_COMPAT=traffic-ops`. Timestamps follow it through `@WireTimes`.
 */
@Injectable()
export class WireCompatService {
  readonly mode: WireCompat;
  readonly original: boolean;

  constructor(config: ConfigService) {
    this.mode = config.get<WireCompat>('app.wireCompat') ?? 'spec';
    this.original = this.mode === 'traffic-ops';
  }
}
