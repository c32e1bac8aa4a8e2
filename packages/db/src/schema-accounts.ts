import type { Generated } from 'kysely';

// Accounts and company administration: companies, users and sessions, tablets, mail, exports, API keys,
// login limits, notifications, invites and password links, sign-in codes, the API revision.
// Part of the Kysely schema: schema.ts assembles the Database interface.

export interface CompaniesTable {
  id: string;
  name: string;
  timezone: string;
  locale: string;
  product_tier: 'serviceProvider' | 'utilization' | 'full';
  is_demo: number;
  created_at: number;
  enable_setup_stages: Generated<number>;
  hide_remove_rejected_parts_checkbox: Generated<number>;
  activities_enabled: Generated<number>;
  cycleinputoption: Generated<'timepercycle' | 'timeperpart' | 'partsperhour'>;
  enable_tablet_machine_switching: Generated<number>;
  downtime_list_filter_duration_ms: Generated<number>;
  time_context_offset_ms: Generated<number>;
  future_time_context_offset_ms: number | null;
  future_time_context_effective: string | null;
  warningpercent: Generated<number>;
  failurepercent: Generated<number>;
  utilization_warningpercent: Generated<number>;
  utilization_failurepercent: Generated<number>;
  /** The company's name in MQTT topics; unique when set (0004). */
  mqtt_ref: string | null;
  // 0019 (internal company admin; decisions 0920, 0921): 'YYYY-MM-DD' or NULL, free text, 0/1, whole USD.
  trial_expiration_date: string | null;
  erp: string | null;
  muted: Generated<number>;
  annual_recurring_revenue: number | null;
  // 0040 (company settings screen, decision 1087): 0/1 flags, durations in ms, percents, null = not set.
  operator_tracking: Generated<number>;
  underlay_delay_ms: Generated<number>;
  underlay_auto_expand_ms: Generated<number>;
  long_downtime_threshold_ms: Generated<number>;
  warningpercent_oee: Generated<number>;
  failurepercent_oee: Generated<number>;
  enable_auto_job_dispatch: Generated<number>;
  /** reports-admin §9 benchmarking: null Undecided, 0 Opt In, 1 Opt Out. */
  exclude_from_benchmarking: number | null;
  tablet_registration_key: string | null;
  address: string | null;
}

export interface UsersTable {
  id: string;
  company_id: string;
  email: string;
  display_name: string;
  password_hash: string;
  role: 'admin' | 'manager' | 'operator' | 'kiosk';
  is_root: number;
  locked: number;
  created_at: number;
  /** The brand the user's app header shows instead of Takt (0043, decision 1117); null: Takt. */
  brand_override: string | null;
}

export interface SessionsTable {
  /** sha256 of the cookie token: a stolen database does not yield live sessions. */
  id: string;
  company_id: string;
  user_id: string;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
  /**
   * 'session': the login cookie. 'link': a short-lived CSV-link token (live-operations §7), accepted only as
   * `?token=` on GET requests (decision 0502).
   */
  kind: Generated<'session' | 'link'>;
}

/** A registered (or registering) tablet (0006); company_id is NULL until an admin associates it. */
export interface TabletsTable {
  id: string;
  company_id: string | null;
  serial_number: string;
  remote_identifier: string | null;
  machine_id: string | null;
  dashboard_view: Generated<string>;
  /** sha256 of the device token; the token itself only ever reaches the tablet. */
  token_hash: string | null;
  state: Generated<'pending' | 'associated' | 'active' | 'revoked'>;
  code: string | null;
  code_expires_at: number | null;
  associated_by: string | null;
  last_seen_at: number | null;
  created_at: number;
}

/** A user's e-mail preferences (0007); no row means the defaults (decision 0701). */
export interface EmailPreferencesTable {
  user_id: string;
  company_id: string;
  receive_downtime: number;
  receive_utilization: number;
  receive_benchmarking: number;
  updated_at: number;
}

/**
 * One benchmarking e-mail per user and week (0042, decision 1110): the row is inserted before the e-mail is sent,
 * so a user gets each week's e-mail once whatever restarts and however many API processes.
 */
export interface BenchmarkMailsTable {
  user_id: string;
  /** 'YYYY-MM-DD': the Monday shop date the compared week starts on. */
  week: string;
  company_id: string;
  claimed_at: number;
}

/** Every message the API sent, by SMTP or kept here when no SMTP server is configured (0007, decision 0701). */
export interface MailOutboxTable {
  id: string;
  company_id: string;
  user_id: string | null;
  to_address: string;
  subject: string;
  body: string;
  transport: 'outbox' | 'smtp';
  status: 'stored' | 'sent' | 'failed';
  error: string | null;
  created_at: number;
}

/** A queued event export (0007, decision 0702); `csv` holds the file once done. */
export interface EventExportsTable {
  id: string;
  company_id: string;
  user_id: string;
  machine_id: string;
  start_at: number;
  end_at: number;
  /** JSON array of observation keys; empty means every key. */
  filter_keys: string;
  /** Origin the download link in the e-mail points at (the one the request came to). */
  link_base: string;
  status: 'queued' | 'running' | 'done' | 'failed';
  claimed_at: number | null;
  row_count: number | null;
  csv: string | null;
  error: string | null;
  created_at: number;
  finished_at: number | null;
}

/** A company's API key (0012, decision 0840): the token itself is never stored, only its sha256. */
export interface ApiKeysTable {
  id: string;
  company_id: string;
  name: string;
  /** sha256 hex of the token; the lookup key. */
  token_hash: string;
  /** The token's first characters, shown in the list. */
  prefix: string;
  /** JSON array of scope names. */
  scopes: string;
  /** The user who made the key. */
  created_by: string;
  created_at: number;
  last_used_at: number | null;
  /** When the key stops working (decision 0990); null only for keys an older version made without one. */
  expires_at: number | null;
}

/** A failed login (0012, decision 0842); not a company's row: it is counted before anyone is known. */
export interface LoginFailuresTable {
  /** `account:<e-mail, lower case>` or `address:<client address>`. */
  key: string;
  at: number;
}

/** One counter per key (migration 0025, decision 0987): services/api/src/http/rate-limit.ts. */
export interface RateLimitsTable {
  /** `<what>:<who>`, e.g. `login:pair:<e-mail>|<address>`, `sync:<tablet id>`. */
  key: string;
  /** When the key's current window began (epoch ms). */
  window_start: number;
  /** Hits counted in that window (never above the limit: refused hits are not counted). */
  count: number;
}

/** reports-admin §3 Machine notification (migration 0017, decision 0900). */
export interface MachineNotificationsTable {
  id: string;
  company_id: string;
  machine_id: string;
  /** The user told (accountId). */
  account_id: string;
  type: 'downtime' | 'utilization';
  /** 2 Failure, otherwise Warning. */
  level: number;
  delay_minutes: number;
  created_at: number;
}

/** A notification's condition while it holds (migration 0017, decision 0901). */
export interface MachineNotificationEpisodesTable {
  notification_id: string;
  company_id: string;
  machine_id: string;
  /** When the condition began. */
  since: number;
  /** The last check that found it holding. */
  seen_at: number;
  /** Set once, by the one process that claims the e-mail. */
  notified_at: number | null;
}

/** An open invite (0015, decision 0880): accepted once through its e-mailed link; only the token's sha256. */
export interface InvitesTable {
  id: string;
  company_id: string;
  /** Lower case. */
  email: string;
  role: UsersTable['role'];
  token_hash: string;
  invited_by: string | null;
  created_at: number;
  /** When the last link went out (create or resend). */
  sent_at: number;
  expires_at: number;
  /** The brand the invite e-mail and the invited user's app show instead of Takt (0043, decision 1117). */
  brand_override: string | null;
}

/** A user's report preferences in a company (0043, decision 1115); no row means the defaults. */
export interface UserPreferencesTable {
  user_id: string;
  company_id: string;
  oee_horizon: string | null;
  utilization_horizon: string | null;
  /** JSON array of shift ids; null: no choice saved (every shift). */
  shift_ids: string | null;
  anonymize: Generated<number>;
  updated_at: number;
}

/** A password link (0015, decision 0880): single use, `used_at` set when spent. */
export interface PasswordResetsTable {
  token_hash: string;
  company_id: string;
  user_id: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/** The profile's shift notifications (0015): `shift_ids` a JSON array; empty means every shift. */
export interface ShiftNotificationsTable {
  user_id: string;
  company_id: string;
  notify: number;
  shift_ids: string;
  updated_at: number;
}

/** One-time sign-in codes (0022, decision 0935): one per user, only the code's sha256 kept. */
export interface LoginCodesTable {
  user_id: string;
  company_id: string;
  code_hash: string;
  created_at: number;
  expires_at: number;
}

/** The API and JS revisions in the MM-API-Version header (0019, decision 0922); one row, id 'current'. */
export interface SystemVersionsTable {
  id: string;
  api_revision: number;
  js_revision: number;
  updated_at: number | null;
}
