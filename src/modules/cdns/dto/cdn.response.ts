import type { ApiVersion } from 'src/common/versioning/api-version';
import type { Cdn } from 'src/modules/cdns/cdn.entity';

/** lib/go-tc CDN (every version; `ttlOverride` from 4.1, CDNV5 on 5.0 has the same fields). */
export interface CdnWire {
  dnssecEnabled: boolean;
  domainName: string;
  id: number;
  lastUpdated: Date;
  name: string;
  ttlOverride?: number;
}

/** A CDN on the wire: `ttlOverride` exists from 4.1 and is omitted when null (docs/decisions.md#d36). */
export function toCdnResponse(cdn: Cdn, version: ApiVersion): CdnWire {
  const body: CdnWire = {
    dnssecEnabled: cdn.dnssecEnabled,
    domainName: cdn.domainName,
    id: cdn.id,
    lastUpdated: cdn.lastUpdated,
    name: cdn.name,
  };
  if (version.atLeast('4.1') && cdn.ttlOverride !== null) {
    body.ttlOverride = cdn.ttlOverride;
  }
  return body;
}
