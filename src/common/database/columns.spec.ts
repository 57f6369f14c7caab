import { LAST_UPDATED, booleanColumn, dialectDefault, useDialect } from 'src/common/database/columns';

describe('per-dialect column defaults', () => {
  it('refuse to guess before DataSource options are built', () => {
    expect(() => dialectDefault({ mysql: '0', sqlite: 'false' })()).toThrow(/buildTypeOrmOptions/);
  });

  it('answer the SQL of the dialect the options were built for', () => {
    const value = dialectDefault({ mysql: 'CURRENT_TIMESTAMP(6)', sqlite: 'CURRENT_TIMESTAMP' });
    useDialect('mysql');
    expect(value()).toBe('CURRENT_TIMESTAMP(6)');
    useDialect('sqlite');
    expect(value()).toBe('CURRENT_TIMESTAMP');
  });

  it('describe booleans as the migrations wrote them (TINYINT(1); 0/1 on MySQL, false/true on SQLite)', () => {
    const off = booleanColumn({ name: 'secure', default: false });
    const on = booleanColumn({ default: true });
    expect(off).toMatchObject({ name: 'secure', type: 'boolean', width: 1 });
    expect(booleanColumn()).toEqual({ type: 'boolean', width: 1 });
    useDialect('mysql');
    expect([(off.default as () => string)(), (on.default as () => string)()]).toEqual(['0', '1']);
    useDialect('sqlite');
    expect([(off.default as () => string)(), (on.default as () => string)()]).toEqual(['false', 'true']);
    useDialect('mysql');
    expect((LAST_UPDATED.default as () => string)()).toBe('CURRENT_TIMESTAMP(6)');
  });
});
