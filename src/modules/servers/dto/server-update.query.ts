import { BadRequestException } from '@nestjs/common';
import { goBool } from 'src/common/request-input/param-rules';
import type { ApiVersion } from 'src/common/versioning/api-version';
import { microTimeOfParts, type MicroTime } from 'src/modules/servers/micro-time';

/** What POST servers/{id-or-name}/update sets; an absent field is left as it is. */
export interface ServerUpdateRequest {
  updated?: boolean;
  revalUpdated?: boolean;
  configApplyTime?: MicroTime;
  revalidateApplyTime?: MicroTime;
  configUpdateFailed?: boolean;
  revalidateUpdateFailed?: boolean;
}

/** The request and the text of its success alert (which names the server as the caller did, 4.0+). */
export interface ParsedServerUpdate {
  request: ServerUpdateRequest;
  message: (hostName: string, idOrName: string) => string;
}

/** The declared query parameters (each one's first value; a key its version does not read is absent). */
type Query = Partial<Record<string, string>>;

function param(query: Query, name: string): string | undefined {
  return query[name];
}

const RFC3339_NANO = 'YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)';
const TIME = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(\.\d{1,9})?(Z|[+-]\d\d:\d\d)$/;

/**
 * A time in RFC 3339 (Go's time.RFC3339Nano layout), to the microsecond as the original stores it
 * (docs/decisions.md#d205), with its text as Go writes it back.
 */
function parseTime(text: string): { time: MicroTime; text: string } | undefined {
  const m = TIME.exec(text);
  if (!m) {
    return undefined;
  }
  const [, year, month, day, hour, minute, second, fraction = '', zone] = m;
  const date = new Date(`${year}-${month}-${day}T${hour}:${minute}:${second}${fraction.slice(0, 4)}${zone}`);
  const valid =
    !Number.isNaN(date.getTime()) &&
    Number(month) >= 1 &&
    Number(month) <= 12 &&
    Number(day) >= 1 &&
    Number(day) <= new Date(Date.UTC(Number(year), Number(month), 0)).getUTCDate() &&
    Number(hour) < 24 &&
    Number(minute) < 60 &&
    Number(second) < 60;
  const time = valid
    ? microTimeOfParts(`${year}-${month}-${day}T${hour}:${minute}:${second}`, fraction, zone)
    : undefined;
  if (!time) {
    return undefined;
  }
  const trimmed = fraction.replace(/0+$/, '');
  return {
    time,
    text: `${year}-${month}-${day}T${hour}:${minute}:${second}${trimmed === '.' ? '' : trimmed}${zone}`,
  };
}

/**
 * 3.x (server.UpdateHandler): `updated` and `reval_updated`, each `t`, `true`, `f` or `false` in any
 * case; the alert repeats the values given, in lower case.
 */
function parseV3(query: Query): ParsedServerUpdate {
  const updated = param(query, 'updated');
  const reval = param(query, 'reval_updated');
  if (updated === undefined && reval === undefined) {
    throw new BadRequestException("Must pass at least one query paramter of 'updated' or 'reval_updated'");
  }
  const check = (value: string | undefined, name: string): string | undefined => {
    if (value === undefined) {
      return undefined;
    }
    const lower = value.toLowerCase();
    if (!['t', 'true', 'f', 'false'].includes(lower)) {
      throw new BadRequestException(`query parameter '${name}' must be 'true' or 'false'`);
    }
    return lower;
  };
  const u = check(updated, 'updated');
  const r = check(reval, 'reval_updated');
  return {
    request: {
      updated: u === undefined ? undefined : !u.startsWith('f'),
      revalUpdated: r === undefined ? undefined : !r.startsWith('f'),
    },
    message: (hostName) =>
      `successfully set server '${hostName}'` +
      (u === undefined ? '' : ` updated=${u}`) +
      (r === undefined ? '' : ` reval_updated=${r}`),
  };
}

/**
 * 4.0 and later (server.UpdateHandlerV4 parseQueryParams): apply times in RFC 3339, the legacy
 * booleans, and on 5.0 the failure flags; the original's checks in its order, including its
 * reading of `config_update_failed` as conflicting with `reval_updated`.
 */
function parseV4(query: Query, version: ApiVersion): ParsedServerUpdate {
  const v5 = version.atLeast('5.0');
  const updated = param(query, 'updated');
  const reval = param(query, 'reval_updated');
  const configApply = param(query, 'config_apply_time');
  const revalApply = param(query, 'revalidate_apply_time');
  const configFailed = v5 ? param(query, 'config_update_failed') : undefined;
  const revalFailed = v5 ? param(query, 'revalidate_update_failed') : undefined;
  const has = (v: string | undefined) => v !== undefined;
  if (
    !(has(configApply) || has(configFailed)) &&
    !(has(revalApply) || has(revalFailed)) &&
    !has(updated) &&
    !has(reval)
  ) {
    throw new BadRequestException(
      "must pass at least one of the following query parameters: 'config_apply_time', 'revalidate_apply_time' ,'updated', 'reval_updated'",
    );
  }
  if ((has(configApply) || has(configFailed)) && has(updated)) {
    throw new BadRequestException(
      "conflicting parameters. may not pass 'updated' along with 'config_apply_time'",
    );
  }
  if ((has(revalApply) || has(configFailed)) && has(reval)) {
    throw new BadRequestException(
      "conflicting parameters. may not pass 'reval_updated' along with 'revalidate_apply_time'",
    );
  }
  const time = (value: string | undefined, name: string) => {
    if (value === undefined) {
      return undefined;
    }
    const parsed = parseTime(value);
    if (!parsed) {
      throw new BadRequestException(
        `query parameter '${name}' must be valid RFC3339Nano format:parsing time "${value}" as "${RFC3339_NANO}"`,
      );
    }
    return parsed;
  };
  const bool = (value: string | undefined, name: string) => {
    if (value === undefined) {
      return undefined;
    }
    const parsed = goBool(value);
    if (parsed === undefined) {
      throw new BadRequestException(`query parameter '${name}' must be a boolean`);
    }
    return parsed;
  };
  const configApplyTime = time(configApply, 'config_apply_time');
  const revalidateApplyTime = time(revalApply, 'revalidate_apply_time');
  const request: ServerUpdateRequest = {
    configApplyTime: configApplyTime?.time,
    revalidateApplyTime: revalidateApplyTime?.time,
    updated: bool(updated, 'updated'),
    revalUpdated: bool(reval, 'reval_updated'),
    configUpdateFailed: bool(configFailed, 'config_update_failed'),
    revalidateUpdateFailed: bool(revalFailed, 'revalidate_update_failed'),
  };
  const part = (name: string, value: boolean | string | undefined) =>
    value === undefined ? '' : ` ${name}=${String(value)}`;
  return {
    request,
    message: (_hostName, idOrName) =>
      `successfully set server '${idOrName}'` +
      part('updated', request.updated) +
      part('reval_updated', request.revalUpdated) +
      part('config_apply_time', configApplyTime?.text) +
      part('revalidate_apply_time', revalidateApplyTime?.text) +
      part('config_update_failed', request.configUpdateFailed) +
      part('revalidate_update_failed', request.revalidateUpdateFailed),
  };
}

/** The query of POST servers/{id-or-name}/update as the requested version reads it. */
export function parseServerUpdate(query: Query, version: ApiVersion): ParsedServerUpdate {
  return version.atLeast('4.0') ? parseV4(query, version) : parseV3(query);
}
