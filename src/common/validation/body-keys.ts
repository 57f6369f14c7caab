import 'reflect-metadata';
import type { Type } from '@nestjs/common';
import { getMetadataStorage } from 'class-validator';

/**
 * How a class-validator body's keys are read before its rules run (docs/decisions.md#d219), for the
 * bodies whose keys the original matches otherwise than by exact name. Declared on the class:
 *
 *     @BodyKeys({ foldCase: true })                       // Go's decoder: any case of a field's name
 *     @BodyKeys({ rename: V5_NAMES, validatedAs: ServerV4Dto })   // 5.0's names are 4.x's fields
 *
 * validateBody (and so `@ValidBody`) applies it; the OpenAPI documents still describe the class itself.
 */
export interface BodyKeysOptions {
  /**
   * Keys matched as Go's decoder matches them: the exact name first, else any case of it, the last
   * key naming a field winning; keys that name no field (a validated property) are dropped.
   */
  foldCase?: boolean;
  /** Keys renamed (`{ newName: oldName }`); a key that is already an old name is dropped. */
  rename?: Record<string, string>;
  /** The class whose rules validate the body read so (the class itself unless told). */
  validatedAs?: () => Type;
}

const BODY_KEYS = 'cdn:body-keys';

export function BodyKeys(options: BodyKeysOptions): ClassDecorator {
  return (target) => {
    Reflect.defineMetadata(BODY_KEYS, options, target);
  };
}

function isRecord(raw: unknown): raw is Record<string, unknown> {
  return raw !== null && typeof raw === 'object' && !Array.isArray(raw);
}

/** The names of the properties `type` validates, in declaration order. */
function validatedProperties(type: Type): string[] {
  const metadata = getMetadataStorage().getTargetValidationMetadatas(type, '', true, false);
  return [...new Set(metadata.map((rule) => rule.propertyName))];
}

function foldCase(raw: Record<string, unknown>, fields: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    const field = fields.find((f) => f === key) ?? fields.find((f) => f.toLowerCase() === key.toLowerCase());
    if (field !== undefined) {
      out[field] = value;
    }
  }
  return out;
}

function rename(raw: Record<string, unknown>, names: Record<string, string>): Record<string, unknown> {
  const oldNames = new Set(Object.values(names));
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (!oldNames.has(key)) {
      out[names[key] ?? key] = value;
    }
  }
  return out;
}

/** The body as `type`'s BodyKeys read it, and the class that validates it (a body not an object is kept). */
export function readBodyKeys(raw: unknown, type: Type): { raw: unknown; type: Type } {
  const options = Reflect.getMetadata(BODY_KEYS, type) as BodyKeysOptions | undefined;
  if (!options) {
    return { raw, type };
  }
  const target = options.validatedAs?.() ?? type;
  if (!isRecord(raw)) {
    return { raw, type: target };
  }
  let read = raw;
  if (options.rename) {
    read = rename(read, options.rename);
  }
  if (options.foldCase) {
    read = foldCase(read, validatedProperties(target));
  }
  return { raw: read, type: target };
}
