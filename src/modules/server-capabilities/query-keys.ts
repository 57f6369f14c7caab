import type { Request } from 'express';
import { intParamOf, paramOf, type RowKey } from 'src/common/conditional/conditional.decorator';
import { intRule, TextParam } from 'src/common/request-input/param-rules';

/**
 * The keys of the original's generic handlers read from the query string
 * (`DELETE server_server_capabilities?serverId=&serverCapability=`): absent or empty → 400 `missing
 * key: <name>`; an integer key that is not one (or beyond the 32-bit ids) → 400 `failed to parse
 * key: <name>` (docs/original-behaviour.md#generic-handlers). A negative one is an integer (the
 * original's Atoi): it names no row, so the handler's 404 answers it.
 */
export const INT_KEY = intRule('generic', { emptyIsMissing: true });
export const TEXT_KEY = TextParam({ requiredBy: 'generic', emptyIsMissing: true });

/**
 * The row a PUT or DELETE of a table keyed by several columns addresses, read from the query string
 * (`{ column: [parameter, kind] }`) for its preconditions; undefined unless every key is given (and
 * each integer one is an integer), when the handler answers its own 400.
 */
export function rowByQuery(
  columns: Record<string, [param: string, kind: 'int' | 'string']>,
): (req: Request) => RowKey | undefined {
  return (req) => {
    const key: RowKey = {};
    for (const [column, [param, kind]] of Object.entries(columns)) {
      const value = kind === 'int' ? intParamOf(req, param) : paramOf(req, param);
      if (value === undefined || value === '') {
        return undefined;
      }
      key[column] = value;
    }
    return key;
  };
}
