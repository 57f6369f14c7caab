import { isIPv4, isIPv6 } from 'node:net';

export type IpFamily = 4 | 6;

/**
 * The family of an IP address or CIDR-notation subnet (`192.0.2.0/24`, `2001:db8::/32`), or
 * undefined when the value is neither, as the original reads resolver addresses (net.ParseIP, then
 * net.ParseCIDR).
 */
export function ipFamily(value: unknown): IpFamily | undefined {
  if (typeof value !== 'string') {
    return undefined;
  }
  const slash = value.indexOf('/');
  const address = slash === -1 ? value : value.slice(0, slash);
  const family: IpFamily | undefined = isIPv4(address) ? 4 : isIPv6(address) ? 6 : undefined;
  if (family === undefined || slash === -1) {
    return family;
  }
  const prefix = value.slice(slash + 1);
  if (!/^(0|[1-9]\d{0,2})$/.test(prefix)) {
    return undefined;
  }
  return Number(prefix) <= (family === 4 ? 32 : 128) ? family : undefined;
}

/** The resolver type an address of this family is stored under. */
export const resolverTypeOf = (family: IpFamily): 'RESOLVE4' | 'RESOLVE6' =>
  family === 4 ? 'RESOLVE4' : 'RESOLVE6';
