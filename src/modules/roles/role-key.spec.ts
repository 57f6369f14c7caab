import { BadRequestException } from '@nestjs/common';
import { ApiVersion } from 'src/common/versioning/api-version';
import { roleKeyOf } from './role-key';

const v4 = new ApiVersion(4, 0);
const v3 = new ApiVersion(3, 1);

describe('roleKeyOf', () => {
  it('takes the name on 4.0 and later', () => {
    expect(roleKeyOf({ name: 'ops' }, v4)).toEqual({ name: 'ops' });
    expect(roleKeyOf({ name: 'first' }, new ApiVersion(5, 0))).toEqual({ name: 'first' });
  });

  it('takes the id on 3.x', () => {
    expect(roleKeyOf({ id: '12', name: 'ignored' }, v3)).toEqual({ id: 12 });
  });

  it.each([
    [{}, v4, 'missing key: name'],
    [{ name: '' }, v4, 'missing key: name'],
    [{ id: '3' }, v4, 'missing key: name'],
    [{}, v3, 'missing key: id'],
    [{ id: 'x' }, v3, 'failed to parse key: id'],
    [{ id: '-1' }, v3, 'failed to parse key: id'],
    [{ id: '2147483648' }, v3, 'failed to parse key: id'],
    [{ id: '99999999999999999999' }, v3, 'failed to parse key: id'],
  ])('refuses %j', (query, version, text) => {
    expect(() => roleKeyOf(query, version)).toThrow(new BadRequestException(text));
  });
});
