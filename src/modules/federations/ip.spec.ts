import { ipFamily } from './ip';

describe('ipFamily', () => {
  it.each([
    ['192.0.2.1', 4],
    ['0.0.0.0', 4],
    ['192.0.2.0/25', 4],
    ['1.2.3.4/0', 4],
    ['1.2.3.4/32', 4],
    ['::1', 6],
    ['2001:db8::/32', 6],
    ['1234::/110', 6],
    ['::/128', 6],
  ])('%s is IPv%s', (value, family) => {
    expect(ipFamily(value)).toBe(family);
  });

  it.each([
    ['not-an-ip'],
    [''],
    ['1.2.3'],
    ['256.1.1.1'],
    ['1.2.3.4/33'],
    ['1.2.3.4/'],
    ['1.2.3.4/-1'],
    ['1.2.3.4/08'],
    ['::1/129'],
    ['1.2.3.4/24/1'],
    [5],
    [null],
  ])('%s is not an address', (value) => {
    expect(ipFamily(value)).toBeUndefined();
  });
});
