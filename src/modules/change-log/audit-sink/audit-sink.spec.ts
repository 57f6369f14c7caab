import { Logger } from '@nestjs/common';
import { AppMetrics } from 'src/common/metrics/metrics';
import { AuditSink } from './audit-sink';
import { type AuditEntry, type AuditTransport, syslogMessage } from './transports';

const entry = (message: string): AuditEntry => ({
  time: new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 678)),
  level: 'APICHANGE',
  user: 'ad"min',
  message,
});

class FlakyTransport implements AuditTransport {
  readonly kind = 'webhook';
  readonly delivered: string[] = [];
  attempts = 0;

  constructor(private failures: number) {}

  send(e: AuditEntry): Promise<void> {
    this.attempts++;
    if (this.failures > 0) {
      this.failures--;
      return Promise.reject(new Error('down'));
    }
    this.delivered.push(e.message);
    return Promise.resolve();
  }

  close(): void {}
}

async function drained(sink: AuditSink): Promise<void> {
  while (sink.queued > 0) {
    await new Promise((resolve) => setImmediate(resolve));
  }
}

const quiet = { warn: () => undefined, log: () => undefined } as unknown as Logger;

describe('AuditSink', () => {
  it('retries the first entry until it goes, then sends the rest in order', async () => {
    const transport = new FlakyTransport(3);
    const sink = new AuditSink(
      transport,
      { capacity: 10, backoffMs: 1, maxBackoffMs: 2 },
      new AppMetrics(),
      quiet,
    );
    ['a', 'b', 'c'].forEach((m) => sink.enqueue(entry(m)));
    await drained(sink);
    expect(transport.delivered).toEqual(['a', 'b', 'c']);
    expect(transport.attempts).toBe(6);
  });

  it('drops the oldest past its capacity and counts them, and counts what is left at shutdown', async () => {
    const metrics = new AppMetrics();
    const transport = new FlakyTransport(Number.MAX_SAFE_INTEGER);
    const sink = new AuditSink(transport, { capacity: 2, backoffMs: 1, maxBackoffMs: 2 }, metrics, quiet);
    ['a', 'b', 'c', 'd'].forEach((m) => sink.enqueue(entry(m)));
    expect(sink.queued).toBe(2);
    await sink.close(0);
    const unsent = (await metrics.auditUnsent.get()).values;
    expect(unsent.map((v) => [v.labels.reason, v.value]).sort()).toEqual([
      ['queue_full', 2],
      ['shutdown', 2],
    ]);
    expect(transport.delivered).toEqual([]);
  });
});

describe('syslogMessage', () => {
  it('is RFC 5424 with the user and level as structured data and the text as the message', () => {
    expect(
      syslogMessage(entry('POST /cdns (id 1, name x): cdn was created.'), 'cdn-control-plane', 'to host'),
    ).toBe(
      `<109>1 2026-01-02T03:04:05.678Z tohost cdn-control-plane ${process.pid} APICHANGE ` +
        '[audit@32473 user="ad\\"min" level="APICHANGE"] POST /cdns (id 1, name x): cdn was created.',
    );
  });
});
