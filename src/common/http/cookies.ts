/** The value of the cookie `name` in a `Cookie` request header, if any (quotes and %-escapes undone). */
export function cookieFrom(header: string | undefined, name: string): string | undefined {
  if (!header) {
    return undefined;
  }
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq > 0 && pair.slice(0, eq).trim() === name) {
      const raw = pair.slice(eq + 1).trim();
      const value = raw.startsWith('"') && raw.endsWith('"') ? raw.slice(1, -1) : raw;
      try {
        return decodeURIComponent(value);
      } catch {
        return value;
      }
    }
  }
  return undefined;
}
