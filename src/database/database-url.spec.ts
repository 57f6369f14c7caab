import { describeHosts, parseDatabaseUrl, urlForHost } from 'src/database/database-url';

describe('DATABASE_URL with one or several hosts', () => {
  it('reads a single host, with the default port when none is given', () => {
    expect(parseDatabaseUrl('mysql://cdn:s3cret@db.example.net:3307/cdn')).toEqual({
      user: 'cdn',
      password: 's3cret',
      hosts: [{ host: 'db.example.net', port: 3307 }],
      database: 'cdn',
      query: '',
    });
    expect(parseDatabaseUrl('mysql://root@127.0.0.1/test').hosts).toEqual([
      { host: '127.0.0.1', port: 3306 },
    ]);
  });

  it('reads several hosts in their order, IPv6 literals and percent-encoded credentials', () => {
    const url = 'mysql://us%40er:p%3Aw%2Fd@node1:4306,[::1]:4307,node3/cdn_db?ssl=true';
    expect(parseDatabaseUrl(url)).toEqual({
      user: 'us@er',
      password: 'p:w/d',
      hosts: [
        { host: 'node1', port: 4306 },
        { host: '::1', port: 4307 },
        { host: 'node3', port: 3306 },
      ],
      database: 'cdn_db',
      query: 'ssl=true',
    });
    expect(describeHosts(parseDatabaseUrl(url).hosts)).toBe('node1:4306,[::1]:4307,node3:3306');
  });

  it('gives the URL of one host, credentials and options kept, another database when asked', () => {
    const url = 'mysql://cdn:pw@node1:4306,node2:4307/cdn?ssl=true';
    expect(urlForHost(url, { host: 'node2', port: 4307 })).toBe('mysql://cdn:pw@node2:4307/cdn?ssl=true');
    expect(urlForHost(url, { host: '::1', port: 4308 }, '')).toBe('mysql://cdn:pw@[::1]:4308/?ssl=true');
    expect(urlForHost('mysql://node1:1,node2:2/x', { host: 'node1', port: 1 })).toBe('mysql://node1:1/x');
  });

  it.each([
    'postgres://u@h/db',
    'mysql://u@h:3306',
    'mysql://u@h:99999/db',
    'mysql://u@h:3306,,h2:3306/db',
    'mysql://u@h:port/db',
  ])('refuses %s', (url) => {
    expect(() => parseDatabaseUrl(url)).toThrow(/DATABASE_URL/);
  });
});
