export type AlertLevel = 'success' | 'info' | 'warning' | 'error';

export interface Alert {
  text: string;
  level: AlertLevel;
}

export const successAlert = (text: string): Alert => ({ text, level: 'success' });
export const infoAlert = (text: string): Alert => ({ text, level: 'info' });
export const warningAlert = (text: string): Alert => ({ text, level: 'warning' });
export const errorAlert = (text: string): Alert => ({ text, level: 'error' });

/**
 * What a handler returns when its answer carries alerts. The envelope interceptor turns it into
 * `{alerts, response}` (or `{alerts}` when there is no response); a plain value becomes `{response}`.
 */
export class ApiResult<T = unknown> {
  private constructor(
    readonly alerts: Alert[],
    readonly response?: T,
    readonly hasResponse = true,
    readonly summary?: { count: number },
  ) {}

  /** A list with the original's `summary` of how many rows match before paging (servers, 3.0+). */
  static list<T>(response: T, count: number): ApiResult<T> {
    return new ApiResult([] as Alert[], response, true, { count });
  }

  static of<T>(response: T, ...alerts: Alert[]): ApiResult<T> {
    return new ApiResult(alerts, response);
  }

  static alertsOnly(...alerts: Alert[]): ApiResult<never> {
    return new ApiResult<never>(alerts, undefined, false);
  }

  toBody(): { alerts?: Alert[]; response?: T; summary?: { count: number } } {
    const body: { alerts?: Alert[]; response?: T; summary?: { count: number } } = {};
    if (this.alerts.length > 0) {
      body.alerts = this.alerts;
    }
    if (this.hasResponse) {
      body.response = this.response;
    }
    if (this.summary) {
      body.summary = this.summary;
    }
    return body;
  }
}

/** A 200 with no body at all (`Content-Length: 0`, `Content-Type: text/plain`), docs/decisions.md#d5. */
export class EmptyBody {}
