import { isIPv4, isIPv6 } from 'node:net';

/**
 * Copied from src/common/net/inet.ts: migrations are self-contained, so that a later change there
 * never changes what they did.
 *
 * An IP address or CIDR as the original's PostgreSQL `inet` column stores and answers it: IPv6 in the
 * canonical text of RFC 5952 (lower case, no leading zeros, the longest run of two or more zero
 * groups — the first of equal runs — written `::`, and an IPv4-mapped or -compatible address's last
 * 32 bits as a dotted quad), and the prefix left out when it covers the whole address (`/32`, `/128`).
 * `fd00::0:1/64` reads `fd00::1/64`; `192.0.2.1/32` reads `192.0.2.1`. A value that is neither an
 * address nor a CIDR is answered as given (validation refuses it elsewhere).
 */
export function canonicalInet(value: string): string {
  const slash = value.indexOf('/');
  const address = slash === -1 ? value : value.slice(0, slash);
  const prefix = slash === -1 ? undefined : value.slice(slash + 1);
  if (isIPv4(address)) {
    return prefix === undefined || Number(prefix) === 32 ? address : `${address}/${Number(prefix)}`;
  }
  if (!isIPv6(address)) {
    return value;
  }
  const text = canonicalIpv6(address);
  return prefix === undefined || Number(prefix) === 128 ? text : `${text}/${Number(prefix)}`;
}

/** The eight 16-bit groups of a valid IPv6 address (`isIPv6` already true). */
function groupsOf(address: string): number[] {
  let text = address.toLowerCase();
  const zone = text.indexOf('%');
  if (zone !== -1) {
    text = text.slice(0, zone);
  }
  const parse = (part: string): number[] => {
    if (part === '') {
      return [];
    }
    return part.split(':').flatMap((group) => {
      if (group.includes('.')) {
        const [a, b, c, d] = group.split('.').map(Number);
        return [(a << 8) | b, (c << 8) | d];
      }
      return [parseInt(group, 16)];
    });
  };
  const gap = text.indexOf('::');
  if (gap === -1) {
    return parse(text);
  }
  const head = parse(text.slice(0, gap));
  const tail = parse(text.slice(gap + 2));
  return [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
}

function canonicalIpv6(address: string): string {
  const groups = groupsOf(address);
  let best = { start: -1, length: 0 };
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let end = i;
    while (end < 8 && groups[end] === 0) {
      end++;
    }
    if (end - i > best.length) {
      best = { start: i, length: end - i };
    }
    i = end;
  }
  if (best.length < 2) {
    best = { start: -1, length: 0 };
  }
  let out = '';
  for (let i = 0; i < 8; i++) {
    if (i >= best.start && i < best.start + best.length) {
      if (i === best.start) {
        out += '::';
      }
      continue;
    }
    if (i > 0 && !out.endsWith(':')) {
      out += ':';
    }
    // As PostgreSQL: an IPv4-compatible (::a.b.c.d) or -mapped (::ffff:a.b.c.d) address ends dotted.
    if (i === 6 && best.start === 0 && (best.length === 6 || (best.length === 5 && groups[5] === 0xffff))) {
      out += `${groups[6] >> 8}.${groups[6] & 0xff}.${groups[7] >> 8}.${groups[7] & 0xff}`;
      break;
    }
    out += groups[i].toString(16);
  }
  return out;
}
