/**
 * The dates of conditional requests: HTTP dates (RFC 1123 / RFC 850 / asctime, second precision)
 * and the original's ETags, `"v1-<unix nanoseconds in base 36>"`.
 */
export function parseHttpDate(value: string | undefined): Date | undefined {
  if (!value) {
    return undefined;
  }
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : new Date(time);
}

export function etagOf(date: Date): string {
  return `"v1-${(BigInt(date.getTime()) * 1_000_000n).toString(36)}"`;
}

/** The latest time named by an If-Match header's v1 ETags (others are ignored). */
export function parseIfMatch(value: string | undefined): Date | undefined {
  if (!value) {
    return undefined;
  }
  let latest: number | undefined;
  for (const tag of value.split(',')) {
    const match = /^\s*(?:W\/)?"v1-([0-9a-z]+)"\s*$/.exec(tag);
    if (!match) {
      continue;
    }
    let nanos = 0n;
    for (const digit of match[1]) {
      nanos = nanos * 36n + BigInt(parseInt(digit, 36));
    }
    const ms = Number(nanos / 1_000_000n);
    latest = latest === undefined ? ms : Math.max(latest, ms);
  }
  return latest === undefined ? undefined : new Date(latest);
}

/** HTTP dates have whole seconds: compare at that precision. */
export function seconds(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}
