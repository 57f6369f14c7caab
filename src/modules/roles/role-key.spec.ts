import { BadRequestException } from '@nestjs/common';
import type { Request } from 'express';
import { roleKeyOfRequest } from './role-key';

const request = (version: string, query: Record<string, unknown>) =>
  ({ path: `/api/${version}/roles`, query }) as unknown as Request;

describe('roleKeyOfRequest (ROLE_KEY)', () => {
  it('takes the name on 4.0 and later', () => {
    expect(roleKeyOfRequest(request('4.0', { name: 'ops' }))).toEqual({ name: 'ops' });
    expect(roleKeyOfRequest(request('5.0', { name: ['first', 'second'] }))).toEqual({ name: 'first' });
  });

  it('takes the id on 3.x', () => {
    expect(roleKeyOfRequest(request('3.1', { id: '12', name: 'ignored' }))).toEqual({ id: 12 });
  });

  it.each([
    [{}, '4.0', 'missing key: name'],
    [{ name: '' }, '4.0', 'missing key: name'],
    [{ id: '3' }, '4.0', 'missing key: name'],
    [{}, '3.1', 'missing key: id'],
    [{ id: 'x' }, '3.1', 'failed to parse key: id'],
    [{ id: '-1' }, '3.1', 'failed to parse key: id'],
    [{ id: '2147483648' }, '3.1', 'failed to parse key: id'],
    [{ id: '99999999999999999999' }, '3.1', 'failed to parse key: id'],
  ])('refuses %j', (query, version, text) => {
    expect(() => roleKeyOfRequest(request(version, query))).toThrow(new BadRequestException(text));
  });
});
