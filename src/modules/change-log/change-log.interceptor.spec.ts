import { ApiResult, EmptyBody, successAlert, warningAlert } from 'src/common/http/alerts';
import { describeChange } from './change-log.participant';

describe('describeChange', () => {
  const req = (method: string, originalUrl: string) => ({ method, originalUrl });

  it('names the method, the path without the version, the record and the success alert', () => {
    const result = ApiResult.of({ id: 7, name: 'cdn1', domainName: 'x' }, successAlert('cdn was created.'));
    expect(describeChange(req('POST', '/api/4.0/cdns'), result)).toBe(
      'POST /cdns (id 7, name cdn1): cdn was created.',
    );
  });

  it('takes the one record of an array answer, and the first name-like field', () => {
    const result = ApiResult.of([{ id: 3, xmlId: 'ds-1', displayName: 'd' }], successAlert('created'));
    expect(describeChange(req('POST', '/api/5.0/deliveryservices'), result)).toBe(
      'POST /deliveryservices (id 3, xmlId ds-1): created',
    );
  });

  it('keeps the query string and leaves out other alerts and lists of records', () => {
    const result = ApiResult.of([{ id: 1 }, { id: 2 }], warningAlert('deprecated'));
    expect(describeChange(req('DELETE', '/api/3.0/asns?id=4'), result)).toBe('DELETE /asns?id=4');
    expect(describeChange(req('PUT', '/api/4.0/deliveryservices/9'), new EmptyBody())).toBe(
      'PUT /deliveryservices/9',
    );
  });

  it('cuts a message longer than 1,024 characters', () => {
    const message = describeChange(req('POST', `/api/4.0/cdns?x=${'a'.repeat(2000)}`), undefined);
    expect(message).toHaveLength(1024);
    expect(message.endsWith('…')).toBe(true);
  });
});
