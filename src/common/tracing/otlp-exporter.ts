import { type ExportResult, ExportResultCode } from '@opentelemetry/core';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

const EXPORT_TIMEOUT_MS = 10_000;

/** OTEL_EXPORTER_OTLP_HEADERS (and the traces-only one): `key=value,key2=value2`, values URL-encoded. */
export function otlpHeadersOf(env: Record<string, string | undefined>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const list of [env.OTEL_EXPORTER_OTLP_HEADERS, env.OTEL_EXPORTER_OTLP_TRACES_HEADERS]) {
    for (const pair of (list ?? '').split(',')) {
      const at = pair.indexOf('=');
      if (at > 0) {
        headers[decodeURIComponent(pair.slice(0, at).trim())] = decodeURIComponent(pair.slice(at + 1).trim());
      }
    }
  }
  return headers;
}

/**
 * Spans to an OTLP/HTTP receiver in its JSON encoding (POST to `url`, which ends in /v1/traces).
 * OpenTelemetry's own exporter loads Node's http module with a dynamic import, which Jest's module
 * loader refuses; this one is the same protocol through OpenTelemetry's serializer.
 */
export class OtlpJsonSpanExporter implements SpanExporter {
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly url: string,
    private readonly headers: Record<string, string> = {},
  ) {}

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    const body = JsonTraceSerializer.serializeRequest(spans);
    if (body === undefined) {
      done({ code: ExportResultCode.FAILED, error: new Error('spans could not be serialized') });
      return;
    }
    const sent = this.post(body).then(
      () => done({ code: ExportResultCode.SUCCESS }),
      (error: Error) => done({ code: ExportResultCode.FAILED, error }),
    );
    this.inFlight.add(sent);
    void sent.finally(() => this.inFlight.delete(sent));
  }

  private post(body: Uint8Array): Promise<void> {
    const url = new URL(this.url);
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const req = send(
        url,
        {
          method: 'POST',
          headers: { ...this.headers, 'Content-Type': 'application/json', 'Content-Length': body.length },
          timeout: EXPORT_TIMEOUT_MS,
        },
        (res) => {
          res.resume();
          res.on('end', () =>
            res.statusCode !== undefined && res.statusCode >= 200 && res.statusCode < 300
              ? resolve()
              : reject(new Error(`the OTLP receiver answered HTTP ${res.statusCode}`)),
          );
        },
      );
      req.on('timeout', () =>
        req.destroy(new Error(`the OTLP receiver did not answer in ${EXPORT_TIMEOUT_MS} ms`)),
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  async forceFlush(): Promise<void> {
    await Promise.all(this.inFlight);
  }

  async shutdown(): Promise<void> {
    await this.forceFlush();
  }
}
