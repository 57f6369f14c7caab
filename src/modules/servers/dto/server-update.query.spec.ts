import { BadRequestException } from '@nestjs/common';
import { ApiVersion } from 'src/common/versioning/api-version';
import { parseServerUpdate } from './server-update.query';

const at = (version: string) => ApiVersion.parse(version)!;

function rejection(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof BadRequestException) {
      return error.message;
    }
    throw error;
  }
  throw new Error('not refused');
}

describe('parseServerUpdate', () => {
  it('reads 4.x apply times and writes them back as Go does', () => {
    const parsed = parseServerUpdate({ config_apply_time: '2024-01-02T03:04:05.120+02:00' }, at('4.0'));
    expect(parsed.request.configApplyTime).toBe('2024-01-02 01:04:05.120000');
    expect(parsed.message('h', '7')).toBe(
      "successfully set server '7' config_apply_time=2024-01-02T03:04:05.12+02:00",
    );
  });

  it('keeps microseconds, rounding further digits to the nearest microsecond as PostgreSQL (D205)', () => {
    const read = (text: string) =>
      parseServerUpdate({ revalidate_apply_time: text }, at('5.0')).request.revalidateApplyTime;
    expect(read('2026-12-04T21:49:53.123456Z')).toBe('2026-12-04 21:49:53.123456');
    expect(read('2026-12-04T21:49:53.000001-01:00')).toBe('2026-12-04 22:49:53.000001');
    expect(read('2026-12-04T21:49:53.1234567Z')).toBe('2026-12-04 21:49:53.123457');
    expect(read('2026-12-31T23:59:59.9999996Z')).toBe('2027-01-01 00:00:00.000000');
    const message = parseServerUpdate(
      { config_apply_time: '2026-12-04T21:49:53.123450Z' },
      at('4.0'),
    ).message;
    expect(message('h', 'h')).toBe(
      "successfully set server 'h' config_apply_time=2026-12-04T21:49:53.12345Z",
    );
  });

  it('refuses impossible dates', () => {
    expect(
      rejection(() => parseServerUpdate({ config_apply_time: '2024-02-30T00:00:00Z' }, at('4.0'))),
    ).toMatch(/^query parameter 'config_apply_time' must be valid RFC3339Nano format:/);
  });

  it('reads the failure flags on 5.0 only', () => {
    expect(parseServerUpdate({ config_update_failed: 'T' }, at('5.0')).request.configUpdateFailed).toBe(true);
    expect(rejection(() => parseServerUpdate({ config_update_failed: 'T' }, at('4.1')))).toMatch(
      /^must pass/,
    );
  });

  it('reads 3.x booleans in any case, keeping the given text in the alert', () => {
    const parsed = parseServerUpdate({ updated: 'FALSE', reval_updated: 'T' }, at('3.1'));
    expect(parsed.request).toEqual({ updated: false, revalUpdated: true });
    expect(parsed.message('host', '7')).toBe("successfully set server 'host' updated=false reval_updated=t");
  });
});
