import { isIpv4Text, isIpv6Text, staticDnsEntryProblems } from './static-dns-entry-rules';

describe('static DNS entry rules', () => {
  const valid = { host: 'www', address: '192.0.2.1', deliveryserviceId: 1, ttl: 60, typeId: 5 };

  it('reads addresses as govalidator does (ParseIP, with a dot or a colon)', () => {
    expect(isIpv4Text('192.0.2.1')).toBe(true);
    expect(isIpv4Text('::ffff:192.0.2.1')).toBe(true);
    expect(isIpv4Text('2001:db8::1')).toBe(false);
    expect(isIpv4Text('192.0.2')).toBe(false);
    expect(isIpv6Text('2001:db8::1')).toBe(true);
    expect(isIpv6Text('::ffff:192.0.2.1')).toBe(true);
    expect(isIpv6Text('fe80::1%eth0')).toBe(false);
    expect(isIpv6Text('192.0.2.1')).toBe(false);
  });

  it('checks the address by the record type', () => {
    expect(staticDnsEntryProblems(valid, 'A_RECORD')).toEqual([]);
    expect(staticDnsEntryProblems({ ...valid, address: 'a.example.' }, 'A_RECORD')).toEqual([
      "'address' must be a valid IPv4 address",
    ]);
    expect(staticDnsEntryProblems({ ...valid, address: '192.0.2.1' }, 'AAAA_RECORD')).toEqual([
      "'address' must be a valid IPv6 address",
    ]);
    expect(staticDnsEntryProblems({ ...valid, address: 'a.example.' }, 'CNAME_RECORD')).toEqual([]);
    expect(staticDnsEntryProblems({ ...valid, address: 'a.example' }, 'CNAME_RECORD')).toEqual([
      "'address' for type: CNAME_RECORD must have a trailing period",
    ]);
    expect(staticDnsEntryProblems({ ...valid, address: 'a b.' }, 'CNAME_RECORD')).toEqual([
      "'address' must be a valid DNS name",
    ]);
    expect(staticDnsEntryProblems({ ...valid, address: 'anything at all' }, 'TXT_RECORD')).toEqual([]);
    expect(staticDnsEntryProblems({ ...valid, address: null }, 'TXT_RECORD')).toEqual([
      "'address' cannot be blank",
    ]);
  });

  it('lists every problem in the order of the rules', () => {
    expect(staticDnsEntryProblems({}, 'A_RECORD')).toEqual([
      "'host' cannot be blank",
      "'address' cannot be blank",
      "'deliveryserviceId' cannot be blank",
      "'ttl' cannot be blank",
      "'typeId' cannot be blank",
    ]);
    expect(staticDnsEntryProblems({ ...valid, host: 'a b', ttl: 0 }, 'A_RECORD')).toEqual([
      "'host' must be a valid DNS name",
    ]);
  });
});
