import { Injectable } from '@nestjs/common';

/** How long one request to a Traffic Monitor or Traffic Router may take. */
export const MONITOR_TIMEOUT_MS = 3000;

/** A JSON document of a Traffic Monitor's or Traffic Router's HTTP API (`http://<fqdn><path>`). */
@Injectable()
export class TrafficMonitorClient {
  async get<T>(fqdn: string, path: string): Promise<T> {
    const url = `http://${fqdn}${path}`;
    const res = await fetch(url, { signal: AbortSignal.timeout(MONITOR_TIMEOUT_MS) });
    if (!res.ok) {
      throw new Error(`getting ${url}: HTTP ${res.status}`);
    }
    return (await res.json()) as T;
  }
}
