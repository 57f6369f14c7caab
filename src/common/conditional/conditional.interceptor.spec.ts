import type { CallHandler, ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { lastValueFrom, of } from 'rxjs';
import type { DataSource } from 'typeorm';
import { ConditionalOn, conditionalSpec } from 'src/common/conditional/conditional.decorator';
import {
  ConditionalRequestInterceptor,
  NotModifiedException,
} from 'src/common/conditional/conditional.interceptor';
import { UnitOfWork } from 'src/common/database/unit-of-work';

class Routes {
  @ConditionalOn('cdn')
  oneTable(): void {}

  @ConditionalOn(['federation', 'federation_deliveryservice', 'cdn'])
  severalTables(): void {}

  @ConditionalOn(['federation', 'cdn; DROP TABLE cdn'])
  badName(): void {}
}

const at = (iso: string) => new Date(iso);
const SINCE = 'Sat, 01 Jun 2024 12:00:00 GMT';

/** The interceptor on the handlers of `Routes`, over a database that answers `answer` to every query. */
function interceptorOver(answer: Record<string, Date | string | null>) {
  const query = jest.fn().mockResolvedValue([answer]);
  const dataSource = { query } as unknown as DataSource;
  const interceptor = new ConditionalRequestInterceptor(
    new Reflector(),
    dataSource,
    new UnitOfWork(dataSource),
  );
  const headers: Record<string, string> = {};
  const request = (handler: keyof Routes, method: string, requestHeaders: Record<string, string>) => {
    const req = { method, headers: requestHeaders, params: { id: '7' }, query: {} };
    const res = { headersSent: false, setHeader: (name: string, value: string) => (headers[name] = value) };
    const context = {
      getHandler: () => Routes.prototype[handler],
      getClass: () => Routes,
      switchToHttp: () => ({ getRequest: () => req, getResponse: () => res }),
    } as unknown as ExecutionContext;
    const handled = jest.fn(() => of('the list'));
    const result = () => lastValueFrom(interceptor.intercept(context, { handle: handled } as CallHandler));
    return { result, handled };
  };
  return { query, headers, request };
}

/** One handler of `Routes` over a database that answers `answer`. */
function setUp(handler: keyof Routes, answer: Record<string, Date | string | null>) {
  const over = interceptorOver(answer);
  return {
    ...over,
    request: (method: string, headers: Record<string, string>) => over.request(handler, method, headers),
  };
}

describe('conditional requests: the tables a GET names', () => {
  it('reads a declaration of one table, of several, and of one with its row', () => {
    expect(conditionalSpec('cdn')).toEqual({ tables: ['cdn'] });
    expect(conditionalSpec(['federation', 'cdn'])).toEqual({ tables: ['federation', 'cdn'] });
    const row = () => ({ id: 1 });
    expect(conditionalSpec({ table: 'role', row, modifiedText: 'changed' })).toEqual({
      tables: ['role'],
      row,
      modifiedText: 'changed',
    });
  });

  it('checks one table as before: its newest write and its last deletion, in one query', async () => {
    const { query, headers, request } = setUp('oneTable', {
      changed0: at('2024-06-01T11:00:00Z'),
      deleted: '2024-06-01 11:30:00.250',
    });
    const { result, handled } = request('GET', { 'if-modified-since': SINCE });
    await expect(result()).rejects.toEqual(new NotModifiedException(at('2024-06-01T11:30:00.250Z')));
    expect(handled).not.toHaveBeenCalled();
    expect(query).toHaveBeenCalledTimes(1);
    expect(query).toHaveBeenCalledWith(
      'SELECT (SELECT MAX(last_updated) FROM cdn) AS changed0, (SELECT MAX(last_updated) FROM last_deleted ' +
        'WHERE table_name IN (?)) AS deleted',
      ['cdn'],
    );
    expect(headers).toEqual({});
  });

  it('answers 304 when no table of several changed after the date, with the latest change', async () => {
    const { query, request } = setUp('severalTables', {
      changed0: at('2024-06-01T10:00:00Z'),
      changed1: at('2024-06-01T11:59:59.900Z'),
      changed2: null,
      deleted: at('2024-05-01T00:00:00Z'),
    });
    const { result } = request('GET', { 'if-modified-since': SINCE });
    await expect(result()).rejects.toMatchObject({ lastModified: at('2024-06-01T11:59:59.900Z') });
    expect(query).toHaveBeenCalledWith(
      'SELECT (SELECT MAX(last_updated) FROM federation) AS changed0, ' +
        '(SELECT MAX(last_updated) FROM federation_deliveryservice) AS changed1, ' +
        '(SELECT MAX(last_updated) FROM cdn) AS changed2, ' +
        '(SELECT MAX(last_updated) FROM last_deleted WHERE table_name IN (?, ?, ?)) AS deleted',
      ['federation', 'federation_deliveryservice', 'cdn'],
    );
  });

  it.each([
    [
      'the first table',
      { changed0: at('2024-06-01T12:00:01Z'), changed1: null, changed2: null, deleted: null },
    ],
    ['the last table', { changed0: null, changed1: null, changed2: '2024-06-01 12:00:01', deleted: null }],
    [
      'a deletion from any of them',
      {
        changed0: at('2024-06-01T10:00:00Z'),
        changed1: null,
        changed2: null,
        deleted: at('2024-06-01T13:00:00Z'),
      },
    ],
  ])('answers the list with Last-Modified after a change to %s', async (_, answer) => {
    const { headers, request } = setUp('severalTables', answer);
    const { result, handled } = request('GET', { 'if-modified-since': SINCE });
    await expect(result()).resolves.toBe('the list');
    expect(handled).toHaveBeenCalledTimes(1);
    expect(new Date(headers['Last-Modified']).getTime()).toBeGreaterThan(new Date(SINCE).getTime());
  });

  it('answers 304 to any date when none of the tables ever held a row (D85)', async () => {
    const { request } = setUp('severalTables', {
      changed0: null,
      changed1: null,
      changed2: null,
      deleted: null,
    });
    await expect(request('GET', { 'if-modified-since': SINCE }).result()).rejects.toBeInstanceOf(
      NotModifiedException,
    );
  });

  it('keeps the known change of a set of tables apart from that of each table', async () => {
    const { query, request } = interceptorOver({ changed0: at('2024-06-01T13:00:00Z'), deleted: null });
    const since = { 'if-modified-since': SINCE };
    await expect(request('oneTable', 'GET', since).result()).resolves.toBe('the list');
    await expect(request('oneTable', 'GET', since).result()).resolves.toBe('the list');
    expect(query).toHaveBeenCalledTimes(1); // the second answered from the known change of `cdn`
    await expect(request('severalTables', 'GET', since).result()).resolves.toBe('the list');
    expect(query).toHaveBeenCalledTimes(2); // `cdn` is one of them: their own change is read
  });

  it('costs nothing without If-Modified-Since, and refuses a table name that is not one', async () => {
    const { query, request } = setUp('severalTables', {});
    await expect(request('GET', {}).result()).resolves.toBe('the list');
    expect(query).not.toHaveBeenCalled();
    expect(() => setUp('badName', {}).request('GET', { 'if-modified-since': SINCE }).result()).toThrow(
      /needs table names/,
    );
  });

  it('refuses to check a write against several tables: there is no row to lock', () => {
    const { query, request } = setUp('severalTables', {});
    const stale = { 'if-unmodified-since': SINCE };
    const put = request('PUT', stale);
    expect(() => put.result()).toThrow(/names several tables/);
    expect(put.handled).not.toHaveBeenCalled();
    expect(query).not.toHaveBeenCalled();
  });
});
