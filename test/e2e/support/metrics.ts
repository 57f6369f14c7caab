import request from 'supertest';
import type { App } from 'supertest/types';

/** One sample line of Prometheus' text format: its name, labels and value. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const LINE = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL = /(\w+)="((?:[^"\\]|\\.)*)"/g;

export function parseMetrics(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const match = LINE.exec(line);
      if (!match) {
        throw new Error(`not a sample line: ${line}`);
      }
      const labels: Record<string, string> = {};
      for (const [, key, value] of (match[2] ?? '').matchAll(LABEL)) {
        labels[key] = value;
      }
      return { name: match[1], labels, value: Number(match[3]) };
    });
}

/** The value of the sample with exactly these labels (0 when there is none yet). */
export function valueOf(samples: Sample[], name: string, labels: Record<string, string>): number {
  const keys = Object.keys(labels);
  const found = samples.find(
    (s) =>
      s.name === name &&
      Object.keys(s.labels).length === keys.length &&
      keys.every((k) => s.labels[k] === labels[k]),
  );
  return found?.value ?? 0;
}

export async function scrape(server: App): Promise<Sample[]> {
  const res = await request(server).get('/metrics');
  if (res.status !== 200) {
    throw new Error(`GET /metrics answered ${res.status}: ${res.text}`);
  }
  return parseMetrics(res.text);
}
