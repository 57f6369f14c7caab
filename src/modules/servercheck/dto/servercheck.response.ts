/** GET servercheck: the original's `tc.GenericServerCheck`; `checks` only for servers with a row. */
export interface GenericServerCheck {
  adminState: string;
  cacheGroup: string;
  id: number;
  hostName: string;
  revalPending: boolean;
  profile: string;
  type: string;
  updPending: boolean;
  checks?: Record<string, number | null>;
}

/** GET servercheck/extensions: the original's `tc.ServerCheckExtensionNullable` (snake_case, `isactive` 0/1). */
export interface ServerCheckExtension {
  id: number;
  name: string;
  version: string;
  info_url: string;
  script_file: string;
  isactive: number;
  additional_config_json: string | null;
  description: string | null;
  servercheck_short_name: string | null;
  type: string;
}
