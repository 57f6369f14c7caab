import { registerAs } from '@nestjs/config';
import { validateEnv } from 'src/config/env.validation';

/** Where current_stats, cache_stats and deliveryservice_stats read (docs/decisions.md#d16): InfluxDB 1.x, when configured. */
export const statsConfig = registerAs('stats', () => {
  const env = validateEnv(process.env);
  return {
    influxUrl: env.INFLUXDB_URL?.replace(/\/+$/, ''),
    database: env.INFLUXDB_DATABASE,
    dsDatabase: env.INFLUXDB_DS_DATABASE,
    user: env.INFLUXDB_USER,
    password: env.INFLUXDB_PASSWORD,
    timeoutMs: env.INFLUXDB_TIMEOUT_MS,
  };
});

export type StatsConfig = ReturnType<typeof statsConfig>;
