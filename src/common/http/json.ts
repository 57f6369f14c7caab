import type { Response } from 'express';
import { type Alert } from 'src/common/http/alerts';
import { formatTrafficOpsTime } from 'src/common/time/timestamps';

/** JSON.stringify with every Date written in the Traffic Ops format (decision D4). */
export function serializeJson(body: unknown): string {
  return JSON.stringify(body, function (this: Record<string, unknown>, key: string, value: unknown) {
    const raw = this[key];
    return raw instanceof Date ? formatTrafficOpsTime(raw) : value;
  });
}

export function sendJson(res: Response, status: number, body: unknown): void {
  res.status(status).type('application/json').send(serializeJson(body));
}

export function sendAlerts(res: Response, status: number, alerts: Alert[]): void {
  sendJson(res, status, { alerts });
}
