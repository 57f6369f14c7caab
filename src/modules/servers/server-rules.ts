import { isIP } from 'node:net';

/** An interface as the rules see it, whichever version wrote it. */
export interface InterfaceInput {
  name: string;
  mtu?: number | null;
  ipAddresses: { address: string; gateway?: string | null; serviceAddress: boolean }[];
}

/** The IP family (4 or 6) of an address or CIDR, or 0 when it is neither. */
export function ipFamily(value: string): 4 | 6 | 0 {
  const [address, prefix, extra] = value.split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined) {
    return 0;
  }
  if (prefix !== undefined) {
    const bits = Number(prefix);
    if (!/^\d{1,3}$/.test(prefix) || bits > (family === 4 ? 32 : 128)) {
      return 0;
    }
  }
  return family as 4 | 6;
}

/**
 * The original's interface rules for a server (validateV4): at least one interface; each named,
 * with addresses and an MTU of at least 1280; every address an IP or CIDR with a gateway of the
 * same family; service addresses on one interface only, at most one per family, and at least one.
 */
export function interfaceProblems(interfaces: InterfaceInput[]): string[] {
  if (interfaces.length === 0) {
    return ['a server must have at least one interface'];
  }
  const problems: string[] = [];
  let serviceInterface: string | undefined;
  const serviceFamilies = new Set<number>();
  const names = new Set<string>();
  for (const iface of interfaces) {
    if (names.has(iface.name)) {
      problems.push(`interfaces: the name '${iface.name}' is used by more than one interface`);
    }
    names.add(iface.name);
    if (iface.mtu !== undefined && iface.mtu !== null && iface.mtu < 1280) {
      problems.push(`'interface '${iface.name}' mtu' must be at least 1280`);
    }
    if (iface.ipAddresses.length === 0) {
      problems.push(`'interface '${iface.name}' ipAddresses' cannot be blank`);
    }
    for (const ip of iface.ipAddresses) {
      const where = `interface '${iface.name}' address '${ip.address}'`;
      const family = ipFamily(ip.address);
      if (family === 0) {
        problems.push(`${where}: address: invalid CIDR address: ${ip.address}`);
        continue;
      }
      if (ip.gateway !== undefined && ip.gateway !== null) {
        const gatewayFamily = isIP(ip.gateway);
        if (gatewayFamily === 0) {
          problems.push(`${where}: gateway: could not parse '${ip.gateway}' as a network gateway`);
        } else if (gatewayFamily !== family) {
          problems.push(`${where}: address family mismatch between address and gateway`);
        }
      }
      if (!ip.serviceAddress) {
        continue;
      }
      if (serviceInterface !== undefined && serviceInterface !== iface.name) {
        problems.push(
          `interfaces: both ${serviceInterface} and ${iface.name} interfaces contain service addresses - ` +
            'only one service-address-containing-interface is allowed',
        );
      }
      serviceInterface = iface.name;
      if (serviceFamilies.has(family)) {
        problems.push(
          `interfaces: address '${ip.address}' of interface '${iface.name}' is marked as a service address, ` +
            `but an IPv${family} service address appears earlier in the list`,
        );
      }
      serviceFamilies.add(family);
    }
  }
  if (serviceFamilies.size === 0) {
    problems.push('a server must have at least one service address');
  }
  return problems;
}

/**
 * `…would leave Active Delivery Service #1 with…`, `…Services #1 and #2 with…`, `…Services #1, #2,
 * and #3 with no 'ONLINE' or 'REPORTED' EDGE servers` (ORG for an origin).
 */
export function leftWithoutServersText(prefix: string, serverType: string, dsIds: number[]): string {
  const ids = dsIds.map((id) => `#${id}`);
  const named =
    ids.length === 1
      ? ` ${ids[0]}`
      : ids.length === 2
        ? `s ${ids[0]} and ${ids[1]}`
        : `s ${ids.slice(0, -1).join(', ')}, and ${ids[ids.length - 1]}`;
  const kind = serverType.startsWith('ORG') ? 'ORG' : 'EDGE';
  return `${prefix}${named} with no 'ONLINE' or 'REPORTED' ${kind} servers`;
}
