import { toDate } from 'src/common/time/timestamps';
import type { RequestedDeliveryService } from './dto/delivery-service-request.dto';
import type { DeliveryServiceRequestRow } from './dto/delivery-service-request.response';

/*
 * The rules of delivery service requests that need no database
 * (docs/original-behaviour.md#deliveryservice-requests): the status workflow, which delivery
 * service a request is about, and a stored request as a row.
 */

export interface RawRequest {
  id: number | string;
  assignee: string | null;
  author: string;
  lastEditedBy: string | null;
  changeType: string;
  status: string;
  createdAt: Date | string;
  lastUpdated: Date | string;
  requested: string | null;
  original: string | null;
  assigneeId: number | string | null;
}

export type Json = Record<string, unknown>;

export const parse = (text: string | null): Json | null =>
  text === null ? null : (JSON.parse(text) as Json);
export const numberOf = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isInteger(value) ? value : undefined;

/** Open: not yet complete, rejected or pending (the original's `IsOpen`). */
export const isOpen = (status: string): boolean => !['complete', 'rejected', 'pending'].includes(status);

/** The original's status workflow (`RequestStatus.ValidTransition`): undefined when allowed, else why not. */
export function transitionProblem(from: string, to: string): string | undefined {
  if (from === 'rejected' || from === 'complete') {
    return `${from} request cannot be changed`;
  }
  if (from === to) {
    return undefined;
  }
  const allowed: Record<string, string[]> = {
    draft: ['submitted'],
    submitted: ['draft'],
    rejected: ['submitted'],
    pending: ['submitted'],
    complete: ['submitted', 'pending'],
  };
  return allowed[to]?.includes(from) ? undefined : `invalid transition from ${from} to ${to}`;
}

/** The delivery service an open request shows live: the requested one's id (update), the original's (delete). */
export function liveId(
  changeType: string,
  requested: Json | null,
  original: { id?: unknown } | null,
): number | undefined {
  if (changeType === 'update') {
    return numberOf(requested?.id);
  }
  return changeType === 'delete' ? numberOf(original?.id) : undefined;
}

export function xmlIdOf(changeType: string, requested: Json | null, original: Json | null): string {
  const ds = changeType === 'delete' ? original : requested;
  return typeof ds?.xmlId === 'string' ? ds.xmlId : '';
}

export function tenantOf(changeType: string, requested: Json | null, original: Json | null): number | null {
  const ds = changeType === 'delete' ? original : requested;
  return numberOf(ds?.tenantId) ?? null;
}

export function toRow(raw: RawRequest): DeliveryServiceRequestRow {
  return {
    id: Number(raw.id),
    assignee: raw.assignee,
    author: raw.author,
    lastEditedBy: raw.lastEditedBy ?? '',
    changeType: raw.changeType,
    status: raw.status,
    createdAt: toDate(raw.createdAt),
    lastUpdated: toDate(raw.lastUpdated),
    requested: parse(raw.requested),
    original: parse(raw.original),
  };
}

/** Whether a delivery service of a request body gives `longDesc1` or `longDesc2` (null is absent). */
export function hasLongDesc12(ds: RequestedDeliveryService | null | undefined): boolean {
  const given = (v: unknown) => v !== undefined && v !== null;
  return ds !== null && ds !== undefined && (given(ds.json.longDesc1) || given(ds.json.longDesc2));
}
