import { registerAs } from '@nestjs/config';
import { validateEnv } from 'src/config/env.validation';

/** Where the ISO generation's files are (docs/original-behaviour.md#osversions). */
export const isoConfig = registerAs('iso', () => ({
  kickstartFilesDir: validateEnv(process.env).KICKSTART_FILES_DIR,
}));

export type IsoConfig = ReturnType<typeof isoConfig>;
