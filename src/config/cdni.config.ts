import { registerAs } from '@nestjs/config';
import { validateEnv } from 'src/config/env.validation';

/**
 * CDN interconnection (the original's `cdni` section): this CDN's identifier as a downstream CDN
 * and the key of the uCDNs' tokens; both undefined when CDNi is not configured.
 */
export const cdniConfig = registerAs('cdni', () => {
  const env = validateEnv(process.env);
  return { dcdnId: env.CDNI_DCDN_ID, jwtSecret: env.CDNI_JWT_DECODING_SECRET };
});

export type CdniConfig = ReturnType<typeof cdniConfig>;
