import { BadRequestException, type ValidationPipeOptions } from '@nestjs/common';
import type { ValidationError } from 'class-validator';
import { INT_COLUMN } from 'src/common/validation/rules';

export const BODY_NOT_AN_OBJECT = 'the request body must be a JSON object';

/**
 * Messages of one failed field, as the original words them: `'<field>' <problem>`. One problem per
 * field (the first rule it fails, as ozzo-validation reports), fields in the order the DTO declares
 * them, joined with `, ` (docs/decisions.md#d7).
 */
export function validationMessages(errors: ValidationError[], parent = ''): string[] {
  const messages: string[] = [];
  for (const error of errors) {
    const path =
      parent === ''
        ? error.property
        : /^\d+$/.test(error.property)
          ? `${parent}[${error.property}]`
          : `${parent}.${error.property}`;
    const constraints = Object.values(error.constraints ?? {});
    if (error.property === undefined || (constraints.length > 0 && error.constraints?.unknownValue)) {
      messages.push(BODY_NOT_AN_OBJECT);
      continue;
    }
    const problem = firstProblem(error.constraints);
    if (problem !== undefined) {
      // A message that starts with a quoted name names its field itself (e.g. `'use_in_table' …`).
      messages.push(problem.startsWith("'") ? problem : `'${path}' ${problem}`);
    }
    if (error.children && error.children.length > 0) {
      messages.push(...validationMessages(error.children, path));
    }
  }
  return messages;
}

/**
 * Presence and JSON-type problems outrank rule problems, whatever order the decorators ran in; a
 * field's own range (e.g. `must be no greater than 30`) outranks its column's.
 */
const PRECEDENCE = [
  'isDefined',
  'isString',
  'isInt',
  'isNumber',
  'isBoolean',
  'isArray',
  'isObject',
  'isNotEmpty',
  'isIn',
  'isEnum',
];

function firstProblem(constraints: Record<string, string> | undefined): string | undefined {
  if (!constraints) {
    return undefined;
  }
  const key =
    PRECEDENCE.find((name) => name in constraints) ??
    Object.keys(constraints).find((name) => name !== INT_COLUMN) ??
    Object.keys(constraints)[0];
  return key === undefined ? undefined : constraints[key];
}

export function validationException(errors: ValidationError[]): BadRequestException {
  return new BadRequestException(validationMessages(errors).join(', '));
}

export const VALIDATION_OPTIONS: ValidationPipeOptions = {
  transform: true,
  whitelist: true,
  forbidNonWhitelisted: false,
  forbidUnknownValues: true,
  transformOptions: { enableImplicitConversion: false },
  validationError: { target: false, value: false },
  exceptionFactory: validationException,
};
