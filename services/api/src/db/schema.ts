import type { Generated } from 'kysely';

// The database as Kysely sees it. Every table carries company_id (tenancy, ARCHITECTURE.md).
// Times are epoch milliseconds in BIGINT columns; booleans are 0/1 integers so both dialects agree.

export interface CompaniesTable {
  id: string;
  name: string;
  timezone: string;
  locale: string;
  product_tier: 'serviceProvider' | 'utilization' | 'full';
  is_demo: number;
  created_at: number;
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
}

export interface SessionsTable {
  /** sha256 of the cookie token: a stolen database does not yield live sessions. */
  id: string;
  company_id: string;
  user_id: string;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
}

export interface MachineGroupsTable {
  id: string;
  company_id: string;
  name: string;
  erp_group_id: string | null;
  sort_order: number;
  created_at: number;
}

export interface MachineGroupMembersTable {
  company_id: string;
  group_id: string;
  machine_id: string;
}

export interface MachinesTable {
  id: string;
  company_id: string;
  name: string;
  workcenter_type: 'machine' | 'manual' | 'other';
  sort_order: number;
  /** Minutes a scheduled machine may be down before its tile turns danger (live-operations §4). */
  downtime_failure_delay: number;
  autostart_behavior: 'disabled' | 'mes' | 'key';
  adapter_id: string | null;
  decommissioned_at: number | null;
  created_at: number;
}

export interface AdaptersTable {
  id: string;
  company_id: string;
  name: string;
  notes: string | null;
  class: string;
  created_at: number;
}

export interface AdapterFieldsTable {
  id: string;
  company_id: string;
  adapter_id: string;
  /** The key as the adapter sends it (SHDR key / data item name). */
  name: string;
  data_item_type: string;
  data_item_subtype: string | null;
  component_name: string;
  component_type: string;
}

export interface MachineSourcesTable {
  id: string;
  company_id: string;
  machine_id: string;
  kind: 'shdr';
  host: string;
  port: number;
  enabled: number;
  stat_lines: number;
  stat_observations: number;
  stat_rejected: number;
  last_line_at: number | null;
  created_at: number;
}

export interface ObservationsTable {
  company_id: string;
  machine_id: string;
  ts: number;
  key: string;
  value: string | null;
}

export interface StateIntervalsTable {
  company_id: string;
  machine_id: string;
  start_at: number;
  end_at: number | null;
  state: string;
}

export interface MachineLiveTable {
  machine_id: string;
  company_id: string;
  state: string;
  state_since: number | null;
  connection: string;
  connection_since: number | null;
  last_heartbeat: number | null;
  execution: string | null;
  execution_since: number | null;
  availability: string | null;
  controller_mode: string | null;
  program: string | null;
  part_count: number | null;
  spindle_speed: number | null;
  fault_since: number | null;
  fault_message: string | null;
  in_setup: number;
  updated_at: number;
}

export interface Database {
  companies: CompaniesTable;
  users: UsersTable;
  sessions: SessionsTable;
  machine_groups: MachineGroupsTable;
  machine_group_members: MachineGroupMembersTable;
  machines: MachinesTable;
  adapters: AdaptersTable;
  adapter_fields: AdapterFieldsTable;
  machine_sources: MachineSourcesTable;
  observations: ObservationsTable;
  state_intervals: StateIntervalsTable;
  machine_live: MachineLiveTable;
}

/** Tables whose rows belong to one company: every one of them (the scope helper relies on it). */
export type CompanyTable = Exclude<keyof Database, 'companies'>;

// Generated is re-exported for migrations that add auto columns later.
export type { Generated };
