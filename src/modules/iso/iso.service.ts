import { Inject, Injectable } from '@nestjs/common';
import { access, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { processLogger } from 'src/common/logging/logger';
import { isoConfig, type IsoConfig } from 'src/config/iso.config';
import { IsoRepository } from './iso.repository';

/** The file GET osversions answers, in the kickstart files' directory. */
export const OS_VERSIONS_FILE = 'osversions.json';
/** The Perl Traffic Ops' file of the same data, named in a warning when the JSON file cannot be read. */
const PERL_OS_VERSIONS_FILE = 'osversions.cfg';
/** The parameter that names the kickstart files' directory instead of KICKSTART_FILES_DIR. */
export const KICKSTART_PARAMETER = { name: 'kickstart.files.location', configFile: 'mkisofs' };

/** OS names and the directories of their ISO sources (lib/go-tc OSVersionsResponse). */
export type OsVersions = Record<string, string> | null;

/**
 * The ISO generation's data (docs/original-behaviour.md#osversions): `osversions.json` in the
 * directory the `kickstart.files.location` parameter (config file `mkisofs`) names, else
 * KICKSTART_FILES_DIR. A file that cannot be read or is not an object of strings is the original's
 * bare 500; the reason goes to the request's log line.
 */
@Injectable()
export class IsoService {
  constructor(
    private readonly parameters: IsoRepository,
    @Inject(isoConfig.KEY) private readonly config: IsoConfig,
  ) {}

  async osVersions(): Promise<OsVersions> {
    const path = join(await this.kickstartDir(), OS_VERSIONS_FILE);
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      const perlPath = join(dirname(path), PERL_OS_VERSIONS_FILE);
      if (
        await access(perlPath).then(
          () => true,
          () => false,
        )
      ) {
        processLogger().warn(
          `The configuration file for the /osversions endpoint has changed from "${perlPath}" to "${path}"`,
        );
      }
      throw new Error(`reading OS versions: ${(error as Error).message}`);
    }
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (error) {
      throw new Error(`reading OS versions from ${path}: ${(error as Error).message}`);
    }
    if (data === null) {
      return null;
    }
    if (
      typeof data !== 'object' ||
      Array.isArray(data) ||
      Object.values(data).some((value) => typeof value !== 'string' && value !== null)
    ) {
      throw new Error(`reading OS versions from ${path}: not an object of strings`);
    }
    // Go reads a JSON null value into a map of strings as "".
    return Object.fromEntries(
      Object.entries(data as Record<string, string | null>).map(([os, dir]) => [os, dir ?? '']),
    );
  }

  /** The parameter's value when it names a directory, else the setting. */
  private async kickstartDir(): Promise<string> {
    const value = await this.parameters.parameterValue(
      KICKSTART_PARAMETER.name,
      KICKSTART_PARAMETER.configFile,
    );
    return value !== undefined && value !== '' ? value : this.config.kickstartFilesDir;
  }
}
