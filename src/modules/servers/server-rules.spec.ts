import { interfaceProblems, ipFamily } from './server-rules';

const ip = (address: string, serviceAddress = false, gateway?: string) => ({
  address,
  serviceAddress,
  gateway,
});

describe('server interface rules', () => {
  it('reads addresses and CIDRs of both families', () => {
    expect(ipFamily('192.0.2.1')).toBe(4);
    expect(ipFamily('192.0.2.0/24')).toBe(4);
    expect(ipFamily('2001:db8::1/64')).toBe(6);
    expect(ipFamily('192.0.2.0/33')).toBe(0);
    expect(ipFamily('host.example.net')).toBe(0);
    expect(ipFamily('1.2.3.4/8/9')).toBe(0);
  });

  it('accepts one service address per family on one interface', () => {
    expect(
      interfaceProblems([
        {
          name: 'eth0',
          mtu: 1500,
          ipAddresses: [ip('192.0.2.1', true, '192.0.2.254'), ip('2001:db8::1/64', true)],
        },
        { name: 'eth1', mtu: null, ipAddresses: [ip('198.51.100.1')] },
      ]),
    ).toEqual([]);
  });

  it('needs an interface and a service address', () => {
    expect(interfaceProblems([])).toEqual(['a server must have at least one interface']);
    expect(interfaceProblems([{ name: 'eth0', ipAddresses: [ip('192.0.2.1')] }])).toEqual([
      'a server must have at least one service address',
    ]);
  });

  it('names each problem of an interface', () => {
    expect(
      interfaceProblems([
        { name: 'eth0', mtu: 1000, ipAddresses: [ip('nope', true), ip('192.0.2.1', true, '2001:db8::1')] },
        { name: 'eth1', ipAddresses: [] },
      ]),
    ).toEqual([
      "'interface 'eth0' mtu' must be at least 1280",
      "interface 'eth0' address 'nope': address: invalid CIDR address: nope",
      "interface 'eth0' address '192.0.2.1': address family mismatch between address and gateway",
      "'interface 'eth1' ipAddresses' cannot be blank",
    ]);
  });

  it('refuses two interfaces of one name', () => {
    expect(
      interfaceProblems([
        { name: 'eth0', ipAddresses: [ip('192.0.2.1', true)] },
        { name: 'eth0', ipAddresses: [ip('192.0.2.2')] },
      ]),
    ).toEqual(["interfaces: the name 'eth0' is used by more than one interface"]);
  });

  it('refuses service addresses on two interfaces or twice in a family', () => {
    expect(
      interfaceProblems([
        { name: 'eth0', ipAddresses: [ip('192.0.2.1', true), ip('192.0.2.2', true, 'bad')] },
        { name: 'eth1', ipAddresses: [ip('2001:db8::1', true)] },
      ]),
    ).toEqual([
      "interface 'eth0' address '192.0.2.2': gateway: could not parse 'bad' as a network gateway",
      "interfaces: address '192.0.2.2' of interface 'eth0' is marked as a service address, but an IPv4 service address appears earlier in the list",
      'interfaces: both eth0 and eth1 interfaces contain service addresses - only one service-address-containing-interface is allowed',
    ]);
  });
});
