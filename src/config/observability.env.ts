// The decorators below read design types: the metadata API first (this file may load before Nest does).
import 'reflect-metadata';
import { plainToInstance, Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, Min, validateSync } from 'class-validator';

/** The audit sinks AUDIT_SINK_URL may name (src/modules/change-log/audit-sink). */
const AUDIT_SINK_URL = /^(?:syslog\+(?:udp|tcp):\/\/[^\s/?#@]+:\d+|https?:\/\/\S+)$/;

/**
 * The settings of metrics, tracing and the audit sink (docs/decisions.md#d160–d162), validated with
 * the others at start-up (src/config/env.validation.ts).
 */
export class ObservabilityVariables {
  /** `on` (the default): GET /metrics and the request metrics; `off`: neither. */
  @IsOptional()
  @IsIn(['on', 'off'], { message: 'METRICS must be on or off' })
  METRICS: 'on' | 'off' = 'on';

  /** Serve /metrics on this port (of its own) rather than the service's port. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(65535)
  METRICS_PORT?: number;

  /** The address METRICS_PORT is bound to: loopback unless told otherwise. */
  @IsOptional()
  @IsString()
  METRICS_HOST: string = '127.0.0.1';

  /** OpenTelemetry's standard variable: tracing is on when it (or the traces-only one) is set. */
  @IsOptional()
  @Matches(/^https?:\/\/\S+$/, { message: 'OTEL_EXPORTER_OTLP_ENDPOINT must be an http(s) URL' })
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;

  @IsOptional()
  @Matches(/^https?:\/\/\S+$/, { message: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT must be an http(s) URL' })
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?: string;

  /**
   * Where every change-log entry is also sent: `syslog+udp://host:port`, `syslog+tcp://host:port`
   * (RFC 5424) or an `http(s)://` webhook (a JSON POST per entry).
   */
  @IsOptional()
  @Matches(AUDIT_SINK_URL, {
    message: 'AUDIT_SINK_URL must be syslog+udp://host:port, syslog+tcp://host:port or an http(s) URL',
  })
  AUDIT_SINK_URL?: string;

  /** Entries the sink keeps while it cannot send; past that the oldest are dropped (and counted). */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  AUDIT_SINK_QUEUE: number = 10_000;
}

export function readObservabilityEnv(present: Record<string, unknown>): {
  env: ObservabilityVariables;
  problems: string[];
} {
  const env = plainToInstance(ObservabilityVariables, present, {
    exposeDefaultValues: true,
    excludeExtraneousValues: false,
  });
  const errors = validateSync(env, { skipMissingProperties: false, whitelist: false });
  return {
    env,
    problems: errors.flatMap((e) => Object.values(e.constraints ?? {}).map((m) => `  ${e.property}: ${m}`)),
  };
}

/** The observability settings of an environment (start-up has validated it already). */
export function observabilityEnv(
  raw: Record<string, string | undefined> = process.env,
): ObservabilityVariables {
  const present = Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined && v !== ''));
  return readObservabilityEnv(present).env;
}
