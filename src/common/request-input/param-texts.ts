/**
 * The texts of the original's 400s (and the one 404) for path and query parameters, in one table:
 * each entry is a wording family, named after the kind of handler of the original that writes it
 * (docs/original-behaviour.md#generic-handlers). A parameter's rule names its family
 * (src/common/request-input/param-rules.ts); a route whose family changes with the version declares
 * one rule per version. Nothing else in the code words a parameter's refusal.
 */
export interface Wording {
  /** The parameter is absent (or, for rules that say so, empty). */
  missing?: (name: string) => string;
  /** The text is not an integer (or not one the rule accepts). */
  notInt?: (name: string, text: string) => string;
  /** An integer beyond the ids' range (default: notInt). */
  beyond?: (name: string, text: string, problem: string) => string;
  /** An integer beyond the ids' range that names no row: a 404 with this text. */
  notFound?: (name: string, text: string) => string;
  /** The text is not one of Go's strconv.ParseBool words. */
  notBool?: (name: string, text: string) => string;
  /** The text is not one of the values the parameter takes. */
  notOneOf?: (name: string, text: string, values: readonly string[]) => string;
}

const atoi = (text: string) => `strconv.Atoi: parsing ${JSON.stringify(text)}`;
const HAND_WRITTEN_MISSING = (name: string) =>
  `required parameters missing: missing required parameters: ${name}`;
const HAND_WRITTEN_NOT_INT = (name: string) =>
  `getting integer parameters: parameter '${name}' not an integer`;

export const PARAM_TEXTS = {
  /** The generic CRUD handlers' keys (api.GenericUpdate/GenericDelete, `?id=` and `{id}`). */
  generic: {
    missing: (name) => `missing key: ${name}`,
    notInt: (name) => `failed to parse key: ${name}`,
  },
  /** Handlers written by hand: api.NewInfo(r, required, intParams). */
  handWritten: {
    missing: HAND_WRITTEN_MISSING,
    notInt: HAND_WRITTEN_NOT_INT,
  },
  /** PUT and DELETE jobs?id= (4.0+): hand-written, and an id beyond the ids names no job. */
  jobId: {
    missing: HAND_WRITTEN_MISSING,
    notInt: HAND_WRITTEN_NOT_INT,
    notFound: (_name, text) => `No job by id '${text}'!`,
  },
  /** The read handlers' filters (dbhelpers' query filters): `<name> cannot parse to integer`. */
  filter: {
    notInt: (name) => `${name} cannot parse to integer`,
    notOneOf: (name, text, values) =>
      `${name} illegal value '${text}' must be one of ${values
        .map((v, i) => `${i === values.length - 1 ? 'or ' : ''}'${v}'`)
        .join(', ')}`,
  },
  /** A filter whose handler also says why a number is out of the ids' range (GET profiles?param=). */
  rangedFilter: {
    notInt: (name) => `${name} cannot parse to integer`,
    beyond: (name, _text, problem) => `${name} ${problem}`,
  },
  /** `deliveryserviceserver/{id}` and its kin: the parse error without the parameter's name. */
  unnamedFilter: {
    notInt: () => 'cannot parse to integer',
  },
  /** POST steering/{deliveryservice}/targets reads the path's id as the body's field. */
  steeringCreate: {
    notInt: () => 'delivery service ID must be an integer',
  },
  /** 5.0 PUT deliveryservice_request_comments?id=. */
  commentUpdate: {
    missing: HAND_WRITTEN_MISSING,
    notInt: (name) => `${name} must be an integer`,
  },
  /** 5.0 DELETE deliveryservice_request_comments?id=: Go's Atoi error appended. */
  commentDelete: {
    missing: HAND_WRITTEN_MISSING,
    notInt: (name, text) => `${name} must be an integer ${atoi(text)}: invalid syntax`,
  },
  /** 5.0 staticdnsentries?id=: the key's absence as the generic handlers say it, then Go's Atoi errors. */
  staticDnsEntry: {
    missing: (name) => `missing key: ${name}`,
    notInt: (_name, text) => `couldn't convert ID into a numeric value: ${atoi(text)}: invalid syntax`,
    beyond: (_name, text) => `couldn't convert ID into a numeric value: ${atoi(text)}: value out of range`,
  },
  /** GET logs?days=. */
  logDays: {
    notInt: (name) => `${name} parameter must be a positive integer`,
  },
  /** GET deliveryserviceserver?deliveryserviceids=&serverids=: comma-separated integers. */
  intList: {
    notInt: (name, text) =>
      `${name} query parameter must be a comma-delimited list of integers, got '${text}'`,
  },
  /** DELETE logout?all=. */
  logoutAll: {
    notBool: (name) => `query parameter '${name}' must be true or false`,
  },
  /** PUT OC/CI/configuration/request/{id}/{approved}. */
  cdniApproval: {
    notBool: (name) => `${name} parameter must be a boolean`,
  },
  /** Go's strconv.ParseBool error as the handler passes it on. */
  parseBool: {
    notBool: (_name, text) => `strconv.ParseBool: parsing ${JSON.stringify(text)}: invalid syntax`,
  },
} satisfies Record<string, Wording>;

export type WordingName = keyof typeof PARAM_TEXTS;

/** The text of `kind` in `wording`; a family that does not word it is a programming error. */
export function paramText<K extends keyof Wording>(
  wording: WordingName,
  kind: K,
  ...args: Parameters<NonNullable<Wording[K]>>
): string {
  const text = (PARAM_TEXTS[wording] as Wording)[kind] as ((...a: unknown[]) => string) | undefined;
  if (!text) {
    throw new Error(`the parameter wording '${wording}' has no '${kind}' text`);
  }
  return text(...(args as unknown[]));
}
