/**
 * The order in which the database sorts text (`ORDER BY` on a text column): byte-wise over UTF-8 on
 * both databases (SQLite's BINARY collation; on MySQL the binary collations every text column has,
 * docs/database.md). That is code-point order, which JavaScript's default sort, comparing UTF-16
 * code units, does not follow for characters beyond U+FFFF. For answering values a statement just
 * wrote in the order a read-back would have given them.
 */
export function compareAsStored(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** `values` without repeats, in the database's text order (a copy). */
export function distinctAsStored(values: readonly string[]): string[] {
  return [...new Set(values)].sort(compareAsStored);
}
