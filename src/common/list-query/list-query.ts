import { BadRequestException, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { paramText } from 'src/common/request-input/param-texts';
import { declareInputs, firstValue } from 'src/common/request-input/request-input';
import { BIGINT, INT32, intProblem, isIntText } from 'src/common/validation/integers';
import { goBool } from 'src/common/request-input/param-rules';
import {
  type ApiVersion,
  type ApiVersionString,
  requestedVersion,
  SERVED_VERSIONS,
} from 'src/common/versioning/api-version';
import { handlerArgument } from 'src/common/request-input/handler-argument';

/**
 * The list conventions of each collection GET (docs/api-conventions.md#list-queries): whitelisted exact-match
 * filters, `orderby` over the fields of the response object, `sortOrder`, `limit`, `offset` and
 * `page`, all validated here and applied in SQL. Field names never reach SQL: each maps to a column
 * expression fixed in the resource's spec. Integers are bounded (src/common/validation/integers.ts):
 * a filter value beyond its column's range (`int`: a 32-bit `integer` column, `bigint`: a `bigint`
 * one) matches no row, as in the original (`jobs?id=11111111111` answers no jobs), and never reaches
 * SQL; `limit`, `offset` and the offset a `page` makes are at most 2^31-1.
 */
export interface ListField {
  /** Column expression in the resource's query, e.g. `cdn.domain_name`. */
  column: string;
  /** `int` for an `integer` column (32-bit), `bigint` for a `bigint` one; text by default. */
  type?: 'int' | 'bigint' | 'bool' | 'string';
  /** Whether the field may be used as a filter (default true). */
  filter?: boolean;
  /** First version that knows the field. */
  since?: ApiVersionString;
  /** Values are unique: ordering by it needs no tiebreak, so a unique index can serve the order. */
  unique?: boolean;
  /**
   * The filter's condition when it is not `column = value`: SQL with the bound parameter named by
   * the argument, e.g. a sub-query (fixed text: the value is only ever bound).
   */
  condition?: (param: string) => string;
  /** The only values a text filter takes; another is refused before any other check (`filter` wording). */
  oneOf?: readonly string[];
}

export interface ListSpec {
  fields: Record<string, ListField>;
  /** Field ordered by when the request names none. */
  defaultOrder: string;
  /** Column that breaks ties so that pages are stable (default: the `id` field). */
  tiebreak?: string;
}

export interface ListQuery {
  filters: { column: string; value: string | number | boolean; condition?: ListField['condition'] }[];
  order: { column: string; direction: 'ASC' | 'DESC' };
  tiebreak?: string;
  limit?: number;
  offset?: number;
}

/** Largest `limit`, `offset`, and offset made by `page`. */
export const MAX_PAGING = INT32.max;

const first = firstValue;

function knownField(spec: ListSpec, name: string, version: ApiVersion): ListField | undefined {
  const field = Object.hasOwn(spec.fields, name) ? spec.fields[name] : undefined;
  return field && (!field.since || version.atLeast(field.since)) ? field : undefined;
}

export function parseListQuery(
  spec: ListSpec,
  query: Record<string, unknown>,
  version: ApiVersion,
): ListQuery {
  for (const [name, field] of Object.entries(spec.fields)) {
    const value = field.oneOf && knownField(spec, name, version) ? first(query[name]) : undefined;
    if (value !== undefined && !field.oneOf!.includes(value)) {
      throw new BadRequestException(paramText('filter', 'notOneOf', name, value, field.oneOf!));
    }
  }
  const filters: ListQuery['filters'] = [];
  for (const [name, raw] of Object.entries(query)) {
    const field = knownField(spec, name, version);
    const value = first(raw);
    if (!field || field.filter === false || value === undefined) {
      continue;
    }
    if (field.type === 'int' || field.type === 'bigint') {
      filters.push(intListFilter(name, value, field));
    } else if (field.type === 'bool') {
      const parsed = goBool(value);
      if (parsed === undefined) {
        throw new BadRequestException(`${name} cannot parse to boolean`);
      }
      filters.push({ column: field.column, value: parsed, condition: field.condition });
    } else {
      filters.push({ column: field.column, value, condition: field.condition });
    }
  }

  const orderField = knownField(spec, first(query.orderby) ?? '', version) ?? spec.fields[spec.defaultOrder];
  const direction = first(query.sortOrder) === 'desc' ? 'DESC' : 'ASC';
  const list: ListQuery = {
    filters,
    order: { column: orderField.column, direction },
    tiebreak: orderField.unique ? undefined : (spec.tiebreak ?? spec.fields.id?.column),
  };

  const limit = first(query.limit);
  if (limit === undefined) {
    return list;
  }
  const limitValue = pagingNumber('limit', limit, -1, MAX_PAGING, 'must be bigger than -1');
  if (limitValue === -1) {
    return list;
  }
  list.limit = limitValue;
  const offset = first(query.offset);
  const page = first(query.page);
  if (offset !== undefined) {
    list.offset = pagingNumber('offset', offset, 1, MAX_PAGING, 'must be a positive integer');
  } else if (page !== undefined) {
    list.offset = pageOffset(page, limitValue);
  }
  return list;
}

/**
 * The offset of page `page` (text, from 1) of `limit` rows; the offset must be a valid offset too.
 * 400 `page parameter must be a positive integer`, or `… must be no greater than <last page>`.
 */
export function pageOffset(page: string, limit: number): number {
  const lastPage = limit === 0 ? MAX_PAGING : Math.floor(MAX_PAGING / limit) + 1;
  return (pagingNumber('page', page, 1, lastPage, 'must be a positive integer') - 1) * limit;
}

/** A condition no row meets: the filter of a value its column cannot hold. */
export const NO_MATCH: NonNullable<ListField['condition']> = () => '1 = 0';

/**
 * An integer filter: 400 `<name> cannot parse to integer` for text that is no integer; a value
 * beyond the column's range matches nothing (NO_MATCH, the value not bound).
 */
function intListFilter(name: string, value: string, field: ListField): ListQuery['filters'][number] {
  if (!isIntText(value)) {
    throw new BadRequestException(`${name} cannot parse to integer`);
  }
  const number = Number(value);
  if (intProblem(number, field.type === 'int' ? INT32 : BIGINT) !== undefined) {
    return { column: field.column, value: 0, condition: NO_MATCH };
  }
  return { column: field.column, value: number, condition: field.condition };
}

/**
 * `limit`, `offset` or `page`: an integer from `min` (else the original's `<name> parameter
 * <belowMin>`) to `max` (else `<name> parameter must be no greater than <max>`).
 */
function pagingNumber(name: string, text: string, min: number, max: number, belowMin: string): number {
  const value = Number(text);
  if (!isIntText(text) || value < min) {
    throw new BadRequestException(`${name} parameter ${belowMin}`);
  }
  if (value > max) {
    throw new BadRequestException(`${name} parameter must be no greater than ${max}`);
  }
  return value;
}

/** Adds the filters, the order and the page to a query; bound parameters only. */
export function applyListQuery<T extends ObjectLiteral>(
  qb: SelectQueryBuilder<T>,
  list: ListQuery,
): SelectQueryBuilder<T> {
  list.filters.forEach((filter, i) => {
    const param = `listFilter${i}`;
    qb.andWhere(filter.condition ? filter.condition(param) : `${filter.column} = :${param}`, {
      [param]: filter.value,
    });
  });
  qb.orderBy(list.order.column, list.order.direction);
  if (list.tiebreak && list.tiebreak !== list.order.column) {
    qb.addOrderBy(list.tiebreak, 'ASC');
  }
  if (list.limit !== undefined) {
    qb.limit(list.limit);
    qb.offset(list.offset ?? 0);
  }
  return qb;
}

/**
 * Metadata on a handler that takes a list query: the spec of each version, so that the tests find
 * every list route and the OpenAPI documents list its query parameters (declared as the handler's
 * query keys, src/common/request-input/request-input.ts).
 */
export const LIST_ROUTE = 'cdn:list-route';

export type ListSpecFor = (version: ApiVersion) => ListSpec;

/** A list whose fields change with the version: one spec per version, each from its version on. */
export type VersionedListSpecs = Partial<Record<ApiVersionString, ListSpec>>;

function specFor(specs: ListSpec | VersionedListSpecs): ListSpecFor {
  if ('fields' in specs) {
    const spec = specs;
    return () => spec;
  }
  return (version) => {
    let chosen: ListSpec | undefined;
    for (const served of SERVED_VERSIONS) {
      if (version.atLeast(served)) {
        chosen = specs[served] ?? chosen;
      }
    }
    if (!chosen) {
      throw new Error(`no list spec declared for API ${version.toString()}`);
    }
    return chosen;
  };
}

const listParams = handlerArgument((specs: ListSpecFor, ctx: ExecutionContext): ListQuery => {
  const req = ctx.switchToHttp().getRequest<Request>();
  const version = requestedVersion(req);
  return parseListQuery(specs(version), req.query, version);
});

/**
 * `@ListParams(spec)`, or `@ListParams({ '3.0': V3_LIST, '4.0': V4_LIST })`: the request's list query,
 * parsed and validated against the version's spec; its keys are the handler's declared query keys.
 */
export const ListParams =
  (specs: ListSpec | VersionedListSpecs): ParameterDecorator =>
  (target, key, index) => {
    const list = specFor(specs);
    if (key !== undefined) {
      Reflect.defineMetadata(LIST_ROUTE, list, (target as Record<string | symbol, object>)[key]);
    }
    declareInputs(target, key, [{ in: 'query', list }]);
    listParams(list)(target, key, index);
  };
