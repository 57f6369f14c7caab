import {
  type Attributes,
  type Context,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
  type Tracer,
} from '@opentelemetry/api';
import { parseTraceParent } from '@opentelemetry/core';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { AsyncLocalStorage } from 'node:async_hooks';
import { packageInfo } from 'src/bootstrap/package-info';
import { OtlpJsonSpanExporter, otlpHeadersOf } from './otlp-exporter';

/**
 * OpenTelemetry tracing (docs/decisions.md#d161): off unless an OTLP endpoint is configured with the
 * standard variables. When on, each request is a span named by its route template
 * (src/common/logging/request-log.ts starts and ends it), each database statement a child span
 * carrying the statement's text with `?` for its values, and each outgoing call (InfluxDB, SMTP) a
 * child span. When off, every function here returns after one comparison.
 */
let tracer: Tracer | undefined;
let provider: TracerProvider | undefined;
/** The span of the request being served (the parent of statement and outgoing-call spans). */
const current = new AsyncLocalStorage<Span>();

/** Where spans go: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as is, else OTEL_EXPORTER_OTLP_ENDPOINT + /v1/traces. */
export function tracesEndpointOf(env: Record<string, string | undefined>): string | undefined {
  if (env.OTEL_SDK_DISABLED === 'true' || env.OTEL_TRACES_EXPORTER === 'none') {
    return undefined;
  }
  if (env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) {
    return env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  }
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT;
  return base ? `${base.replace(/\/+$/, '')}/v1/traces` : undefined;
}

/** Starts tracing when the environment names an endpoint (once per process); whether it is on. */
export function startTracing(env: Record<string, string | undefined> = process.env): boolean {
  const url = tracesEndpointOf(env);
  if (url === undefined || provider !== undefined) {
    return provider !== undefined;
  }
  const { name, version } = packageInfo();
  provider = new TracerProvider({
    resource: resourceFromAttributes({
      'service.name': env.OTEL_SERVICE_NAME ?? name,
      'service.version': version,
    }),
    spanProcessors: [
      new BatchSpanProcessor({
        exporter: new OtlpJsonSpanExporter(url, otlpHeadersOf(env)),
        scheduledDelayMillis: 1000,
      }),
    ],
  });
  tracer = provider.getTracer(name, version);
  return true;
}

/** Sends the spans still buffered and stops tracing (application shutdown, tests). */
export async function stopTracing(): Promise<void> {
  const stopping = provider;
  provider = undefined;
  tracer = undefined;
  await stopping?.shutdown();
}

/** Sends the spans buffered so far (tests; the batch processor sends them every second otherwise). */
export async function flushTracing(): Promise<void> {
  await provider?.forceFlush();
}

export function tracingEnabled(): boolean {
  return tracer !== undefined;
}

/** The caller's trace from a W3C `traceparent` header, if it is a valid one. */
export function remoteParent(traceparent: string | string[] | undefined): Context | undefined {
  if (typeof traceparent !== 'string') {
    return undefined;
  }
  const parent = parseTraceParent(traceparent);
  return parent ? trace.setSpanContext(ROOT_CONTEXT, { ...parent, isRemote: true }) : undefined;
}

/** The trace id of a valid `traceparent` header (logged with the request id even when tracing is off). */
export function traceIdOf(traceparent: string | string[] | undefined): string | undefined {
  return typeof traceparent === 'string' ? parseTraceParent(traceparent)?.traceId : undefined;
}

/** A request's span (undefined when tracing is off), child of the caller's `traceparent`. */
export function startRequestSpan(
  method: string,
  traceparent: string | string[] | undefined,
): Span | undefined {
  if (tracer === undefined) {
    return undefined;
  }
  return tracer.startSpan(
    method,
    { kind: SpanKind.SERVER, attributes: { 'http.request.method': method } },
    remoteParent(traceparent) ?? ROOT_CONTEXT,
  );
}

/** Runs the rest of the request with `span` as the parent of its statements and outgoing calls. */
export function runInSpan<T>(span: Span | undefined, work: () => T): T {
  return span === undefined ? work() : current.run(span, work);
}

/** Names and closes a request's span once its route and answer are known. */
export function endRequestSpan(
  span: Span,
  method: string,
  route: string,
  status: number,
  attributes: Attributes,
): void {
  span.updateName(`${method} ${route}`);
  span.setAttributes({ 'http.route': route, 'http.response.status_code': status, ...attributes });
  if (status >= 500) {
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
  span.end();
}

/** A `traceparent` header continuing the current span (for an outgoing HTTP call). */
export function outgoingTraceparent(span: Span): string {
  const { traceId, spanId, traceFlags } = span.spanContext();
  return `00-${traceId}-${spanId}-${traceFlags.toString(16).padStart(2, '0')}`;
}

/**
 * Runs `work` as a client span under the request's span (nothing is recorded outside a traced
 * request): a database statement, an InfluxDB query, a mail sent.
 */
export async function withClientSpan<T>(
  name: string,
  attributes: Attributes,
  work: (span: Span | undefined) => Promise<T>,
): Promise<T> {
  const parent = tracer === undefined ? undefined : current.getStore();
  if (parent === undefined) {
    return work(undefined);
  }
  const span = tracer!.startSpan(
    name,
    { kind: SpanKind.CLIENT, attributes },
    trace.setSpan(ROOT_CONTEXT, parent),
  );
  try {
    return await work(span);
  } catch (error) {
    span.setStatus({
      code: SpanStatusCode.ERROR,
      message: error instanceof Error ? error.message : String(error),
    });
    throw error;
  } finally {
    span.end();
  }
}

const STRING_LITERAL = /'(?:[^'\\]|\\.|'')*'/g;
const NUMBER_LITERAL = /(?<![\w$.`"])-?\d+(?:\.\d+)?(?![\w$`"])/g;
const MAX_STATEMENT = 2000;

/** A statement's text without values: literals become `?` (TypeORM already sends values apart). */
export function statementTemplate(sql: string): string {
  const template = sql.replace(STRING_LITERAL, '?').replace(NUMBER_LITERAL, '?').replace(/\s+/g, ' ').trim();
  return template.length > MAX_STATEMENT ? `${template.slice(0, MAX_STATEMENT - 1)}…` : template;
}

/** `SELECT cdn`, `INSERT log`: the operation and its first table. */
export function statementName(sql: string): string {
  const operation = /^\s*(\w+)/.exec(sql)?.[1]?.toUpperCase() ?? 'SQL';
  const table = /\b(?:FROM|INTO|UPDATE|JOIN)\s+[`"]?(\w+)/i.exec(sql)?.[1];
  return table ? `${operation} ${table}` : operation;
}

/** Runs one database statement as a child span of the request's span (when traced). */
export function traceStatement<T>(system: string, sql: string, work: () => Promise<T>): Promise<T> {
  if (tracer === undefined || current.getStore() === undefined) {
    return work();
  }
  return withClientSpan(
    statementName(sql),
    { 'db.system.name': system, 'db.query.text': statementTemplate(sql) },
    work,
  );
}
