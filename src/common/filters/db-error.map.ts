import { HttpStatus } from '@nestjs/common';
import type { DbFailure } from 'src/common/database/db-error';

export interface MappedError {
  status: number;
  text: string;
}

const camelCase = (column: string): string => column.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
const article = (word: string): string => (/^[aeio]/i.test(word) ? 'an' : 'a');

/** A database failure as the original answers it (docs/api-conventions.md#database-errors). */
export function mapDbFailure(failure: DbFailure): MappedError {
  switch (failure.kind) {
    case 'unique': {
      const values = failure.values ? ` '${failure.values.join(', ')}'` : '';
      const columns = failure.columns.length > 0 ? ` ${failure.columns.join(', ')}` : '';
      return { status: HttpStatus.BAD_REQUEST, text: `${failure.table}${columns}${values} already exists.` };
    }
    case 'missingReference':
      return { status: HttpStatus.NOT_FOUND, text: `${failure.referencedTable} not found` };
    case 'inUse':
      return {
        status: HttpStatus.BAD_REQUEST,
        text: `cannot delete ${failure.table} because it is being used by ${article(failure.referencingTable)} ${failure.referencingTable}`,
      };
    case 'notNull':
      return { status: HttpStatus.BAD_REQUEST, text: `${camelCase(failure.column)} is a required field` };
    case 'badValue':
      return {
        status: HttpStatus.BAD_REQUEST,
        text: failure.column ? `invalid value for field ${camelCase(failure.column)}` : 'invalid value',
      };
    case 'contention':
      return {
        status: HttpStatus.SERVICE_UNAVAILABLE,
        text: 'the database is busy; please retry the request',
      };
    case 'unavailable':
      return {
        status: HttpStatus.SERVICE_UNAVAILABLE,
        text: 'the database is unavailable; please retry later',
      };
  }
}
