import type { CurrentUser } from 'src/common/types/current-user';
import { missingPermissions } from './roles.service';

const user = (roleName: string, permissions: string[]): CurrentUser => ({
  id: 1,
  username: 'u',
  roleName,
  privLevel: 30,
  permissions: new Set(permissions),
  tenantId: 1,
});

describe('missingPermissions', () => {
  it('lists what the user lacks, in request order, once', () => {
    const u = user('custom', ['CDN:READ']);
    expect(missingPermissions(u, ['TYPE:READ', 'CDN:READ', 'USER:READ', 'TYPE:READ'])).toEqual([
      'TYPE:READ',
      'USER:READ',
    ]);
  });

  it('finds nothing missing for the admin role or a holder of ALL', () => {
    expect(missingPermissions(user('admin', []), ['ANYTHING:AT-ALL'])).toEqual([]);
    expect(missingPermissions(user('custom', ['ALL']), ['CDN:DELETE'])).toEqual([]);
  });
});
