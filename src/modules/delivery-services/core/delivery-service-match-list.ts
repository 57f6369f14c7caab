import { isDnsType } from './delivery-service-rules';

/* A delivery service's match list: its default host regex and the example URLs it gives. */

/** The host-regex pattern every new delivery service gets (set number 0). */
export const defaultHostRegex = (xmlId: string): string => `.*\\.${xmlId}\\..*`;

export interface MatchListEntry {
  type: string;
  setNumber: number;
  pattern: string;
}

/** The original's MakeExampleURLs. */
export function exampleUrls(
  protocol: number | null,
  typeName: string,
  routingName: string,
  matchList: MatchListEntry[],
  cdnDomain: string,
): string[] {
  let scheme = 'http';
  let scheme2 = '';
  if (protocol === 1) {
    scheme = 'https';
  } else if (protocol === 2 || protocol === 3) {
    scheme2 = 'https';
  }
  const examples: string[] = [];
  for (const match of matchList) {
    if (isDnsType(typeName) || match.type === 'HOST_REGEXP') {
      if (match.setNumber === 0) {
        const host = match.pattern.replace(/\\|\.\*|\./g, '');
        examples.push(`${scheme}://${routingName}.${host}.${cdnDomain}`);
        if (scheme2) {
          examples.push(`${scheme2}://${routingName}.${host}.${cdnDomain}`);
        }
        continue;
      }
      examples.push(`${scheme}://${match.pattern}`);
      if (scheme2) {
        examples.push(`${scheme2}://${match.pattern}`);
      }
    } else if (match.type === 'PATH_REGEXP') {
      examples.push(match.pattern);
    }
  }
  return examples;
}
