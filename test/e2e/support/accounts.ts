import type { INestApplication } from '@nestjs/common';
import { ApiClient, created, uniqueName } from 'test/e2e/support/api';
import { USER_PASSWORD } from 'test/e2e/support/constants';

/* The users, tenants and roles a suite creates through the API (as the admin) to act as. */

export interface CreatedUser {
  id: number;
  username: string;
  client: ApiClient;
}

/** Creates a user of `role` in `tenantId` through the API (as admin) and signs them in. */
export async function createUser(
  app: INestApplication,
  admin: ApiClient,
  role: string,
  tenantId = 1,
  version = '4.0',
): Promise<CreatedUser> {
  const username = uniqueName(role.replace(/[^a-z]/gi, ''), 40).toLowerCase();
  const res = await admin.at('4.0').post('users', {
    username,
    localPasswd: USER_PASSWORD,
    confirmLocalPasswd: USER_PASSWORD,
    role,
    tenantId,
    email: `${username}@example.com`,
    fullName: `Test ${role}`,
  });
  if (!created(res)) {
    throw new Error(`creating user ${username} failed: ${res.status} ${res.text}`);
  }
  const id = (res.body as { response: { id: number } }).response.id;
  return { id, username, client: await ApiClient.login(app, username, USER_PASSWORD, version) };
}

/** Creates a tenant under `parentId` through the API. */
export async function createTenant(
  admin: ApiClient,
  parentId = 1,
  active = true,
): Promise<{ id: number; name: string }> {
  const name = uniqueName('tenant');
  const res = await admin.at('4.0').post('tenants', { name, active, parentId });
  if (!created(res)) {
    throw new Error(`creating tenant ${name} failed: ${res.status} ${res.text}`);
  }
  return { id: (res.body as { response: { id: number } }).response.id, name };
}

/** Creates a role holding exactly `permissions` (at the creator's level) through the API. */
export async function createRole(admin: ApiClient, permissions: string[]): Promise<string> {
  const name = uniqueName('role');
  const res = await admin.at('4.0').post('roles', { name, description: 'test role', permissions });
  if (!created(res)) {
    throw new Error(`creating role ${name} failed: ${res.status} ${res.text}`);
  }
  return name;
}
