import type { Tenant } from 'src/modules/tenants/tenant.entity';
import { toTenantResponse } from './tenant.response';

const lastUpdated = new Date('2024-01-02T03:04:05Z');
const root: Tenant = { id: 1, name: 'root', active: true, parentId: null, lastUpdated };

describe('toTenantResponse', () => {
  it('names the parent', () => {
    const tenant = { id: 5, name: 'east', active: false, parentId: 1, lastUpdated, parent: root };
    expect(toTenantResponse(tenant)).toEqual({
      active: false,
      id: 5,
      lastUpdated,
      name: 'east',
      parentId: 1,
      parentName: 'root',
    });
  });

  it('gives the root a null parent name', () => {
    expect(toTenantResponse({ ...root, parent: null })).toMatchObject({ parentId: null, parentName: null });
  });
});
