import { QueryFailedError } from 'typeorm';
import { classifyDbError, translateDbErrors, valuesFromQuery } from 'src/common/database/db-error';

function failed(driverError: object, query = 'SELECT 1', parameters: unknown[] = []): QueryFailedError {
  return new QueryFailedError(query, parameters, Object.assign(new Error('db'), driverError));
}

describe('classifyDbError', () => {
  describe('MySQL', () => {
    it('reads a unique violation from our index name and the statement', () => {
      const error = failed(
        {
          code: 'ER_DUP_ENTRY',
          errno: 1062,
          sqlMessage: "Duplicate entry 'x.net' for key 'uq_cdn__domain_name'",
        },
        'INSERT INTO `cdn`(`id`, `name`, `domain_name`, `dnssec_enabled`) VALUES (DEFAULT, ?, ?, ?)',
        ['cdn1', 'x.net', 0],
      );
      expect(classifyDbError(error)).toEqual({
        kind: 'unique',
        table: 'cdn',
        columns: ['domain_name'],
        values: ['x.net'],
      });
    });

    it('falls back to the value MySQL reports, with the MySQL 8 key form', () => {
      const error = failed({
        code: 'ER_DUP_ENTRY',
        errno: 1062,
        sqlMessage: "Duplicate entry 'a' for key 'cdn.uq_cdn__name'",
      });
      expect(classifyDbError(error)).toEqual({
        kind: 'unique',
        table: 'cdn',
        columns: ['name'],
        values: ['a'],
      });
    });

    it('splits composite keys and tables with underscores', () => {
      const error = failed({
        code: 'ER_DUP_ENTRY',
        errno: 1062,
        sqlMessage: "Duplicate entry '3-7' for key 'uq_role_capability__role_id__cap_name'",
      });
      expect(classifyDbError(error)).toMatchObject({
        table: 'role_capability',
        columns: ['role_id', 'cap_name'],
      });
    });

    it('reads a missing reference and a referenced row', () => {
      const fk =
        '(`db`.`asn`, CONSTRAINT `fk_asn__cachegroup` FOREIGN KEY (`cachegroup`) REFERENCES `cachegroup` (`id`))';
      expect(
        classifyDbError(
          failed({ code: 'ER_NO_REFERENCED_ROW_2', errno: 1452, sqlMessage: `Cannot add … fails ${fk}` }),
        ),
      ).toEqual({
        kind: 'missingReference',
        table: 'asn',
        column: 'cachegroup',
        referencedTable: 'cachegroup',
      });
      expect(
        classifyDbError(
          failed({ code: 'ER_ROW_IS_REFERENCED_2', errno: 1451, sqlMessage: `Cannot delete … fails ${fk}` }),
        ),
      ).toEqual({ kind: 'inUse', table: 'cachegroup', referencingTable: 'asn' });
    });

    it('reads NOT NULL, bad values, contention and lost connections', () => {
      expect(
        classifyDbError(
          failed({
            code: 'ER_BAD_NULL_ERROR',
            errno: 1048,
            sqlMessage: "Column 'domain_name' cannot be null",
          }),
        ),
      ).toEqual({
        kind: 'notNull',
        column: 'domain_name',
      });
      expect(
        classifyDbError(
          failed({
            code: 'ER_DATA_TOO_LONG',
            errno: 1406,
            sqlMessage: "Data too long for column 'name' at row 1",
          }),
        ),
      ).toEqual({
        kind: 'badValue',
        column: 'name',
      });
      expect(classifyDbError(failed({ code: 'ER_LOCK_DEADLOCK', errno: 1213 }))).toEqual({
        kind: 'contention',
      });
      expect(classifyDbError(failed({ code: 'ECONNREFUSED', errno: -111 }))).toEqual({ kind: 'unavailable' });
    });
  });

  describe('SQLite', () => {
    it('reads a unique violation and its values from the statement', () => {
      const error = failed(
        { code: 'SQLITE_CONSTRAINT_UNIQUE', message: 'UNIQUE constraint failed: cdn.name' },
        'INSERT INTO "cdn"("id", "name", "domain_name", "last_updated") VALUES (NULL, ?, ?, datetime(\'now\'))',
        ['cdn1', 'x.net'],
      );
      expect(classifyDbError(error)).toEqual({
        kind: 'unique',
        table: 'cdn',
        columns: ['name'],
        values: ['cdn1'],
      });
    });

    it('reads composite unique violations', () => {
      const error = failed({
        code: 'SQLITE_CONSTRAINT_UNIQUE',
        message: 'UNIQUE constraint failed: role_capability.role_id, role_capability.cap_name',
      });
      expect(classifyDbError(error)).toEqual({
        kind: 'unique',
        table: 'role_capability',
        columns: ['role_id', 'cap_name'],
        values: undefined,
      });
    });

    it('reads the messages of our foreign-key triggers', () => {
      expect(
        classifyDbError(
          failed({
            code: 'SQLITE_CONSTRAINT_TRIGGER',
            message: 'FOREIGN KEY missing asn.cachegroup -> cachegroup',
          }),
        ),
      ).toEqual({
        kind: 'missingReference',
        table: 'asn',
        column: 'cachegroup',
        referencedTable: 'cachegroup',
      });
      expect(
        classifyDbError(
          failed({
            code: 'SQLITE_CONSTRAINT_TRIGGER',
            message: 'FOREIGN KEY restrict asn.cachegroup -> cachegroup',
          }),
        ),
      ).toEqual({ kind: 'inUse', table: 'cachegroup', referencingTable: 'asn' });
    });

    it('reads NOT NULL and busy', () => {
      expect(
        classifyDbError(
          failed({ code: 'SQLITE_CONSTRAINT_NOTNULL', message: 'NOT NULL constraint failed: cdn.name' }),
        ),
      ).toEqual({
        kind: 'notNull',
        column: 'name',
      });
      expect(classifyDbError(failed({ code: 'SQLITE_BUSY', message: 'database is locked' }))).toEqual({
        kind: 'contention',
      });
    });
  });

  it('leaves other errors alone', () => {
    expect(classifyDbError(new Error('boom'))).toBeUndefined();
    expect(classifyDbError(failed({ code: 'SQLITE_ERROR', message: 'syntax error' }))).toBeUndefined();
  });
});

describe('valuesFromQuery', () => {
  it('reads UPDATE assignments', () => {
    expect(
      valuesFromQuery(
        'UPDATE `cdn` SET `name` = ?, `last_updated` = CURRENT_TIMESTAMP(6) WHERE `id` IN (?)',
        ['n', 3],
        ['name'],
      ),
    ).toEqual(['n']);
  });

  it('reads values TypeORM wrote into the statement', () => {
    expect(
      valuesFromQuery(
        'INSERT INTO "steering_target"("deliveryservice", "target", "value", "type") VALUES (3, 7, ?, 12)',
        [5],
        ['deliveryservice', 'target'],
      ),
    ).toEqual(['3', '7']);
    expect(valuesFromQuery("INSERT INTO t (a, b) VALUES ('it''s', NULL)", [], ['a'])).toEqual(["it's"]);
  });

  it('gives up on statements of other shapes', () => {
    expect(valuesFromQuery('INSERT INTO t (a) SELECT a FROM u', [1], ['a'])).toBeUndefined();
    expect(
      valuesFromQuery('INSERT INTO t (a, b) VALUES (?, ?), (?, ?)', [1, 2, 3, 4], ['a']),
    ).toBeUndefined();
  });
});

describe('translateDbErrors', () => {
  const duplicate = () =>
    Promise.reject(
      failed({ code: 'SQLITE_CONSTRAINT_UNIQUE', message: 'UNIQUE constraint failed: asn.asn' }),
    );

  it('answers a recognised failure with the given error', async () => {
    await expect(
      translateDbErrors(duplicate, (f) => (f.kind === 'unique' ? new Error('taken') : undefined)),
    ).rejects.toThrow('taken');
  });

  it('passes other failures and results through', async () => {
    await expect(translateDbErrors(duplicate, () => undefined)).rejects.toBeInstanceOf(QueryFailedError);
    await expect(
      translateDbErrors(
        () => Promise.resolve(3),
        () => undefined,
      ),
    ).resolves.toBe(3);
  });
});
