import type { ValueTransformer } from 'typeorm';

/** BIGINT columns as numbers on both drivers (the values here stay far below 2^53). */
export const bigintAsNumber: ValueTransformer = {
  to: (value: number | null | undefined) => value,
  from: (value: string | number | null) => (value === null ? null : Number(value)),
};
