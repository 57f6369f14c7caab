import { isIP } from 'node:net';
import { isDnsName } from 'src/common/validation/dns';
import { StaticDnsEntryDto } from './dto/static-dns-entry.dto';

/** The longest host or address the columns hold (the original's are unbounded `text`). */
export const MAX_TEXT = 255;

const blank = (value: string | number | null | undefined): boolean =>
  value === undefined || value === null || value === '' || value === 0;

/**
 * govalidator's IsIPv4 / IsIPv6, which the original's `is.IPv4` / `is.IPv6` use: an address Go's
 * net.ParseIP reads (no zone) written with a dot, resp. a colon. So `::ffff:192.0.2.1` is both.
 */
const parsesAsIp = (value: string): boolean => isIP(value) !== 0 && !value.includes('%');
export const isIpv4Text = (value: string): boolean => parsesAsIp(value) && value.includes('.');
export const isIpv6Text = (value: string): boolean => parsesAsIp(value) && value.includes(':');

/** The address's problem for a record of `typeName` (the original's switch on the type's name). */
function addressProblem(address: string | null | undefined, typeName: string): string | undefined {
  if (address === undefined || address === null || address === '') {
    return 'cannot be blank';
  }
  if (address.length > MAX_TEXT) {
    return `the length must be between 1 and ${MAX_TEXT}`;
  }
  switch (typeName) {
    case 'A_RECORD':
      return isIpv4Text(address) ? undefined : 'must be a valid IPv4 address';
    case 'AAAA_RECORD':
      return isIpv6Text(address) ? undefined : 'must be a valid IPv6 address';
    case 'CNAME_RECORD':
      if (!isDnsName(address)) {
        return 'must be a valid DNS name';
      }
      return address.endsWith('.') ? undefined : 'for type: CNAME_RECORD must have a trailing period';
    default:
      return undefined;
  }
}

function hostProblem(host: string | null | undefined): string | undefined {
  if (host === undefined || host === null || host === '') {
    return 'cannot be blank';
  }
  if (host.length > MAX_TEXT) {
    return `the length must be between 1 and ${MAX_TEXT}`;
  }
  return isDnsName(host) ? undefined : 'must be a valid DNS name';
}

/**
 * The original's field rules of a static DNS entry whose type (already found, of `staticdnsentry`)
 * is named `typeName`, as `'<field>' <problem>` texts in the order of its rules
 * (docs/decisions.md#d7): `host` a DNS name; `address` an IPv4 address for A_RECORD, an IPv6 one for
 * AAAA_RECORD, a DNS name ending in `.` for CNAME_RECORD, anything non-empty for the others;
 * `deliveryserviceId` present and not 0; `ttl` present (0 and negative numbers are accepted, as by
 * the original); `typeId` not 0. Host and address are also held to the columns' length.
 */
export function staticDnsEntryProblems(body: StaticDnsEntryDto, typeName: string): string[] {
  const problems: [string, string | undefined][] = [
    ['host', hostProblem(body.host)],
    ['address', addressProblem(body.address, typeName)],
    ['deliveryserviceId', blank(body.deliveryserviceId) ? 'cannot be blank' : undefined],
    ['ttl', body.ttl === undefined || body.ttl === null ? 'cannot be blank' : undefined],
    ['typeId', blank(body.typeId) ? 'cannot be blank' : undefined],
  ];
  return problems
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([field, problem]) => `'${field}' ${problem}`);
}
