import { ApiVersion } from 'src/common/versioning/api-version';
import { roleInputOf, RoleV3Dto, RoleV4Dto } from './role.dto';
import { type RoleWithPermissions, toRoleResponse } from './role.response';

const role: RoleWithPermissions = {
  id: 9,
  name: 'ops',
  description: 'operators',
  privLevel: 20,
  lastUpdated: new Date('2024-01-02T03:04:05Z'),
  permissions: ['CDN:READ', 'TYPE:READ'],
};

describe('toRoleResponse', () => {
  it('answers name, description, permissions and lastUpdated on 4.0+', () => {
    expect(toRoleResponse(role, new ApiVersion(4, 0))).toEqual({
      name: 'ops',
      description: 'operators',
      permissions: ['CDN:READ', 'TYPE:READ'],
      lastUpdated: role.lastUpdated,
    });
  });

  it('answers id, level and capabilities on 3.x', () => {
    expect(toRoleResponse(role, new ApiVersion(3, 0))).toEqual({
      id: 9,
      name: 'ops',
      description: 'operators',
      privLevel: 20,
      capabilities: ['CDN:READ', 'TYPE:READ'],
    });
  });
});

describe('roleInputOf', () => {
  it('gives 4.0+ roles no level and an empty permission list by default', () => {
    const dto = Object.assign(new RoleV4Dto(), { name: 'a', description: 'b' });
    expect(roleInputOf(dto)).toEqual({ name: 'a', description: 'b', permissions: [] });
  });

  it('keeps a 3.x level, and null capabilities as "unchanged"', () => {
    const dto = Object.assign(new RoleV3Dto(), { name: 'a', description: 'b', privLevel: 10 });
    expect(roleInputOf(dto)).toEqual({ name: 'a', description: 'b', privLevel: 10, permissions: null });
  });
});
