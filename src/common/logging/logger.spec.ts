import { PassThrough } from 'node:stream';
import { createRootLogger, logFormatOf, pinoLevel } from './logger';
import { AppLogger } from './nest-logger';

function capture(format: 'json' | 'pretty', level = 'info') {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  const logger = createRootLogger({ level, format, destination: stream });
  return { logger, text: () => text };
}

describe('logger', () => {
  it('accepts the usual level names and Nest’s', () => {
    expect(['fatal', 'error', 'warn', 'info', 'debug', 'trace'].map(pinoLevel)).toEqual([
      'fatal',
      'error',
      'warn',
      'info',
      'debug',
      'trace',
    ]);
    expect(pinoLevel('log')).toBe('info');
    expect(pinoLevel('verbose')).toBe('trace');
  });

  it('writes JSON in production and readable lines for a person at a terminal; LOG_FORMAT decides first', () => {
    expect(logFormatOf({ NODE_ENV: 'production' }, true)).toBe('json');
    expect(logFormatOf({}, false)).toBe('json');
    expect(logFormatOf({}, true)).toBe('pretty');
    expect(logFormatOf({ LOG_FORMAT: 'json' }, true)).toBe('json');
    expect(logFormatOf({ LOG_FORMAT: 'pretty', NODE_ENV: 'production' }, false)).toBe('pretty');
  });

  it('formats the same line as JSON or as readable text', () => {
    const json = capture('json');
    json.logger.info({ reqId: 'r-1', status: 200 }, 'request');
    expect(JSON.parse(json.text())).toEqual({
      level: 30,
      time: expect.any(Number),
      reqId: 'r-1',
      status: 200,
      msg: 'request',
    });

    const pretty = capture('pretty');
    pretty.logger.info({ reqId: 'r-1', status: 200 }, 'request');
    expect(pretty.text()).toMatch(/^\[[\d:.]+\] INFO: request\n {4}reqId: "r-1"\n {4}status: 200\n$/);
  });

  it("turns Nest's start-up chatter into debug lines", () => {
    const info = capture('json');
    const nest = new AppLogger(info.logger);
    nest.log('Mapped {/api/:version/cdns, GET} route', 'RouterExplorer');
    nest.log('AppModule dependencies initialized', 'InstanceLoader');
    nest.error(new Error('boom'), 'ExceptionHandler');
    nest.log('something of ours', 'CdnsService');
    expect(
      info
        .text()
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as object),
    ).toEqual([expect.objectContaining({ level: 30, context: 'CdnsService', msg: 'something of ours' })]);

    const debug = capture('json', 'debug');
    new AppLogger(debug.logger).log('Mapped {/api/:version/cdns, GET} route', 'RouterExplorer');
    expect(JSON.parse(debug.text())).toMatchObject({ level: 20, context: 'RouterExplorer' });
  });
});
