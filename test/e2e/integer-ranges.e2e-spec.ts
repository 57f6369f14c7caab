import type { INestApplication } from '@nestjs/common';
import { ApiClient, expectError, responseOf } from 'test/e2e/support/api';
import { createTestApp } from 'test/e2e/support/app';

/**
 * Every integer that reaches SQL is bounded by the column it meets (src/common/validation/integers.ts):
 * 32-bit `integer` columns (-2^31 .. 2^31-1), and for `bigint` ones the integers a JSON number
 * carries exactly (±(2^53-1)). Beyond that, a 400 naming the parameter or field, never a database
 * error (a 500 on MySQL) or an altered value (on SQLite).
 */
describe('integer ranges', () => {
  let app: INestApplication;
  let admin: ApiClient;

  beforeAll(async () => {
    app = await createTestApp();
    admin = await ApiClient.admin(app);
  });

  afterAll(() => app.close());

  describe('list filters and paging', () => {
    it.each([
      ['cdns?id=99999999999999999999', 'id must be no greater than 2147483647'],
      ['cdns?id=-2147483649', 'id must be no less than -2147483648'],
      ['cdns?limit=99999999999999999999', 'limit parameter must be no greater than 2147483647'],
      ['servers?cdn=2147483648', 'cdn must be no greater than 2147483647'],
      ['servers?profileId=99999999999999999999', 'profileId must be no greater than 2147483647'],
      ['servers?limit=1&offset=2147483648', 'offset parameter must be no greater than 2147483647'],
      ['deliveryservices?type=2147483648', 'type must be no greater than 2147483647'],
      [
        'deliveryservices?accessibleTo=99999999999999999999',
        'accessibleTo must be no greater than 2147483647',
      ],
      ['cachegroups?type=2147483648', 'type must be no greater than 2147483647'],
      ['users?tenant=2147483648', 'tenant must be no greater than 2147483647'],
      ['profileparameters?profileId=2147483648', 'profileId must be no greater than 2147483647'],
      ['asns?asn=9007199254740992', 'asn must be no greater than 9007199254740991'],
      ['asns?cachegroup=2147483648', 'cachegroup must be no greater than 2147483647'],
      ['steering/1/targets?value=9007199254740992', 'value must be no greater than 9007199254740991'],
      ['steering/1/targets?typeId=2147483648', 'typeId must be no greater than 2147483647'],
      ['federations/1/deliveryservices?dsID=2147483648', 'dsID must be no greater than 2147483647'],
      ['federation_resolvers?id=2147483648', 'id must be no greater than 2147483647'],
      ['profiles?param=99999999999999999999', 'param must be no greater than 2147483647'],
      ['logs?limit=1&page=99999999999999999999', 'page parameter must be no greater than 2147483648'],
      ['deliveryserviceserver?page=99999999999', 'page parameter must be no greater than 107374183'],
      [
        'deliveryserviceserver?deliveryserviceids=1,99999999999999999999',
        "deliveryserviceids query parameter must be a comma-delimited list of integers, got '1,99999999999999999999'",
      ],
    ])('GET %s → 400', async (path, text) => {
      expectError(await admin.get(path), 400, text);
    });

    it('accepts the bounds: a 32-bit id, a bigint ASN beyond 32 bits, the largest limit and offset', async () => {
      expect(responseOf(await admin.get('cdns?id=2147483647'))).toEqual([]);
      expect(responseOf(await admin.get('asns?asn=9007199254740991'))).toEqual([]);
      expect(responseOf(await admin.get('cdns?limit=2147483647&offset=2147483647'))).toEqual([]);
      expect((await admin.get('deliveryserviceserver?page=107374183')).status).toBe(200);
    });
  });

  describe('ids in paths and keys in query strings', () => {
    it.each([
      ['put', 'cdns/2147483648', 'failed to parse key: id'],
      ['put', 'cdns/99999999999999999999', 'failed to parse key: id'],
      ['delete', 'divisions/2147483648', 'failed to parse key: id'],
      ['get', 'profiles/2147483648/export', "getting integer parameters: parameter 'id' not an integer"],
      ['get', 'steering/99999999999999999999/targets', 'deliveryservice cannot parse to integer'],
      ['get', 'steering/1/targets/2147483648', 'target cannot parse to integer'],
      ['put', 'asns?id=2147483648', 'failed to parse key: id'],
      ['delete', 'regions?id=2147483648', 'id cannot parse to integer'],
      [
        'delete',
        'federation_resolvers?id=2147483648',
        "getting integer parameters: parameter 'id' not an integer",
      ],
    ] as const)('%s %s → 400', async (method, path, text) => {
      expectError(await admin[method](path, method === 'put' ? {} : undefined), 400, text);
    });

    it('3.x roles by id', async () => {
      expectError(await admin.at('3.0').delete('roles?id=2147483648'), 400, 'failed to parse key: id');
    });
  });
});
