import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { inputText } from 'src/common/request-input/request-input';

/** The columns and values naming the one row a PUT/DELETE addresses, e.g. `{ id: 7 }`. */
export type RowKey = Record<string, string | number>;

export interface ConditionalTable {
  table: string;
  /**
   * The row a PUT/DELETE of the route addresses, read from the request the way its handler reads
   * it; undefined when the request names none or names it badly (the handler then answers 400).
   * Default: the integer `id` of the path, else of the query string (`PUT /asns?id=7`).
   */
  row?: (req: Request) => RowKey | undefined;
  /** The 412 text, where the original words it its own way. */
  modifiedText?: string;
}

/**
 * The table behind a controller's (or a handler's) routes, for conditional requests: its list GETs
 * answer 304 to If-Modified-Since when nothing matching changed or was deleted since, and its
 * PUT/DELETE of one row answer 412 to If-Unmodified-Since / If-Match when the row changed after
 * that, checked atomically with the write (src/common/conditional/conditional.interceptor.ts).
 *
 * A GET built from several tables names them all, `@ConditionalOn(['federation', 'cdn'])`: its
 * last change is the latest change (write or deletion) of any of them. Such a declaration has no
 * row for a write to check, so it belongs on GET handlers only.
 */
export const ConditionalOn = Reflector.createDecorator<string | readonly string[] | ConditionalTable>();

/** A declaration of @ConditionalOn, read: the tables, and for a single table its row and text. */
export interface ConditionalSpec extends Omit<ConditionalTable, 'table'> {
  tables: readonly string[];
}

export function conditionalSpec(declared: string | readonly string[] | ConditionalTable): ConditionalSpec {
  if (typeof declared === 'string') {
    return { tables: [declared] };
  }
  if (isTableList(declared)) {
    return { tables: [...declared] };
  }
  const { table, ...rest } = declared;
  return { tables: [table], ...rest };
}

function isTableList(declared: readonly string[] | ConditionalTable): declared is readonly string[] {
  return Array.isArray(declared);
}

/** The first value of a path or query parameter (a repeated query parameter counts by its first). */
export function paramOf(req: Request, name: string): string | undefined {
  return inputText(req, 'path', name) ?? inputText(req, 'query', name);
}

/** An integer key parameter, or undefined when absent or not an integer. */
export function intParamOf(req: Request, name: string): number | undefined {
  const value = paramOf(req, name);
  return value !== undefined && /^-?\d{1,15}$/.test(value) ? Number(value) : undefined;
}

/** A row named by integer parameters, `{ column: parameter }`; undefined unless all are integers. */
export function rowByIntParams(columns: Record<string, string>): (req: Request) => RowKey | undefined {
  return (req) => {
    const key: RowKey = {};
    for (const [column, param] of Object.entries(columns)) {
      const value = intParamOf(req, param);
      if (value === undefined) {
        return undefined;
      }
      key[column] = value;
    }
    return key;
  };
}
