import { byVersion } from 'src/common/wire/by-version';
import { microTimeWire } from 'src/modules/servers/micro-time';
import type { UpdateStatusRow } from 'src/modules/servers/server-updates.service';

/** 3.x (`tc.ServerUpdateStatus`), answered without the envelope as the original does. */
export interface ServerUpdateStatusV3 {
  host_name: string;
  upd_pending: boolean;
  reval_pending: boolean;
  use_reval_pending: boolean;
  host_id: number;
  status: string | null;
  parent_pending: boolean;
  parent_reval_pending: boolean;
}

/** 4.x (`tc.ServerUpdateStatusV40`): the update and apply times in RFC 3339, to the microsecond (D205). */
export interface ServerUpdateStatusV4 extends ServerUpdateStatusV3 {
  config_update_time: string | null;
  config_apply_time: string | null;
  revalidate_update_time: string | null;
  revalidate_apply_time: string | null;
}

/** 5.0 (`tc.ServerUpdateStatusV50`): the failure flags too. */
export interface ServerUpdateStatusV5 extends ServerUpdateStatusV4 {
  config_update_failed: boolean;
  revalidate_update_failed: boolean;
}

const toV3 = (row: UpdateStatusRow): ServerUpdateStatusV3 => ({
  host_name: row.hostName,
  upd_pending: row.updPending,
  reval_pending: row.revalPending,
  use_reval_pending: row.useRevalPending,
  host_id: row.id,
  status: row.status,
  parent_pending: row.parentPending,
  parent_reval_pending: row.parentRevalPending,
});

const toV4 = (row: UpdateStatusRow): ServerUpdateStatusV4 => ({
  ...toV3(row),
  config_update_time: microTimeWire(row.configUpdateTime),
  config_apply_time: microTimeWire(row.configApplyTime),
  revalidate_update_time: microTimeWire(row.revalidateUpdateTime),
  revalidate_apply_time: microTimeWire(row.revalidateApplyTime),
});

export const toServerUpdateStatus = byVersion<UpdateStatusRow, ServerUpdateStatusV3>({
  '3.0': toV3,
  '4.0': toV4,
  '5.0': (row): ServerUpdateStatusV5 => ({
    ...toV4(row),
    config_update_failed: row.configUpdateFailed,
    revalidate_update_failed: row.revalidateUpdateFailed,
  }),
});

/** The answer of POST servers/{id}/queue_update (`tc.ServerQueueUpdate`). */
export interface ServerQueueUpdateResponse {
  serverId: number;
  action: string;
}

/** The answer of POST cdns/{id}/queue_update (`tc.CDNQueueUpdateResponse`). */
export interface CdnQueueUpdateResponse {
  action: string;
  cdnId: number;
}
