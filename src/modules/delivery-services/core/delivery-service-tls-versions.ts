/* A delivery service's TLS versions: the rule of the list and the warnings the original adds. */

const TLS_VERSION = /^\d+\.\d+$/;

/** The `tlsVersions` rule: no repeats, each `<major>.<minor>`. */
export function tlsVersionsProblem(versions: string[] | null | undefined): string | undefined {
  const seen = new Set<string>();
  for (const version of versions ?? []) {
    if (seen.has(version)) {
      return `duplicate version '${version}'`;
    }
    seen.add(version);
    if (!TLS_VERSION.test(version)) {
      return `invalid TLS version '${version}'`;
    }
  }
  return undefined;
}

/** The warnings the original adds when a body sets TLS versions (lib/go-tc tlsVersionsAlerts). */
export function tlsVersionWarnings(
  versions: string[] | null | undefined,
  protocol: number | null | undefined,
): string[] {
  if (!versions || versions.length === 0) {
    return [];
  }
  const messages = [
    "setting TLS Versions that are explicitly supported may break older clients that can't use the specified versions",
  ];
  const known = ['1.0', '1.1', '1.2', '1.3'];
  const found = new Set<string>();
  for (const v of versions) {
    if (known.includes(v)) {
      found.add(v);
    } else {
      messages.push(`unknown TLS version '${v}' - possible typo`);
    }
  }
  const oldest = known.find((v) => found.has(v));
  if (oldest === '1.0' || oldest === '1.1' || oldest === '1.2') {
    const newer = known.slice(known.indexOf(oldest) + 1).filter((v) => !found.has(v));
    if (newer.length > 0) {
      const list =
        newer.length === 1
          ? newer[0]
          : newer.length === 2
            ? `${newer[0]}, and ${newer[1]}`
            : `${newer[0]}, ${newer[1]}, and ${newer[2]}`;
      messages.push(
        `old TLS version ${oldest} is allowed, but newer version${newer.length > 1 ? 's' : ''} ${list} ${
          newer.length > 1 ? 'are' : 'is'
        } disallowed; this configuration may be insecure`,
      );
    }
  }
  if ((protocol ?? 3) === 0) {
    messages.push("tlsVersions has no effect on Delivery Services with Protocol '0' (HTTP_ONLY)");
  }
  return messages;
}
