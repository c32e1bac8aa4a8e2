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
  cycle_source: Generated<'part_count' | 'execution'>;
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
  reason: string | null;
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

export interface ShiftsTable {
  id: string;
  company_id: string;
  name: string;
  created_at: number;
}

export interface ShiftVersionsTable {
  id: string;
  company_id: string;
  shift_id: string;
  startoffsetminutes: number;
  endoffsetminutes: number;
  /** 0=Monday..6=Sunday, comma separated */
  byweekday: string;
  effectivedate: string;
  terminationdate: string | null;
  created_at: number;
}

export interface JobsTable {
  id: string;
  company_id: string;
  name: string;
  erp_job_id: string | null;
  expected_cycle_time: number;
  ideal_cycle_time: number;
  part_count_multiplier: number;
  actual_parts: number;
  setuptime: number | null;
  quantity: number | null;
  hidden: number;
  created_at: number;
}

export type PartBehavior = 'one' | 'manyparts' | 'manycycles';
export type StartInSetup = 'none' | 'planned' | 'unplanned';

export interface JobMachinesTable {
  id: string;
  company_id: string;
  job_id: string;
  machine_id: string;
  name: string;
  expected_cycle_time: number;
  ideal_cycle_time: number;
  part_count_multiplier: number;
  actual_parts: number;
  reported_parts: number | null;
  required_cycles: number | null;
  setuptime: number | null;
  part_behavior: PartBehavior;
  start_in_setup: StartInSetup;
  schedule_ends: number | null;
  created_at: number;
}

export interface SetupStagesTable {
  id: string;
  company_id: string;
  name: string;
  stage_order: number;
  setup_percentage: number;
  archived_at: number | null;
}

export interface JobRunsTable {
  id: string;
  company_id: string;
  machine_id: string;
  job_id: string;
  job_machine_id: string | null;
  start_at: number;
  end_at: number | null;
  setup_mode: StartInSetup;
  setup_end: number | null;
  expected_cycle_time: number;
  ideal_cycle_time: number;
  part_count_multiplier: number;
  actual_parts: number;
  reported_parts: number | null;
  required_cycles: number | null;
  part_behavior: PartBehavior;
  expected_setup_ms: number | null;
  setup_note: string | null;
  created_at: number;
}

export interface LaborActivitiesTable {
  id: string;
  company_id: string;
  job_run_id: string;
  start_at: number;
  end_at: number | null;
  setup_stage_id: string | null;
  setup: number;
}

export type PlannedBehavior = 'operator' | 'planned' | 'unplanned' | 'plannedWithLimit';

export interface AnnotationTypesTable {
  id: string;
  company_id: string;
  name: string;
  planned_behavior: PlannedBehavior;
  planned_limit_ms: number | null;
  color: string;
  hidden: number;
  created_at: number;
}

export interface AnnotationsTable {
  id: string;
  company_id: string;
  machine_id: string;
  annotation_type_id: string | null;
  start_at: number;
  end_at: number | null;
  message: string | null;
  planned: number | null;
  setup: number;
  active_setup: number;
  created_by: string | null;
  created_at: number;
  updated_at: number;
}

export interface PartAdjustmentTypesTable {
  id: string;
  company_id: string;
  name: string;
  color: string;
  scrap: number;
  reject_behavior: 'operator' | 'scrap' | 'nonconform';
  hidden: number;
  created_at: number;
}

export interface PartAdjustmentsTable {
  id: string;
  company_id: string;
  machine_id: string;
  adjustment_time: number;
  type_id: string | null;
  scrapcount: number;
  count: number;
  message: string | null;
  reject_behavior: 'scrap' | 'nonconform' | null;
  deduct_from_good_parts: number;
  job_run_id: string | null;
  kind: 'setup' | 'correction' | 'reject' | 'manual';
  created_by: string | null;
  created_at: number;
}

export interface OperatorsTable {
  id: string;
  company_id: string;
  name: string;
  erp_id: string | null;
  archived_at: number | null;
  created_at: number;
}

export interface OperatorRunsTable {
  id: string;
  company_id: string;
  machine_id: string;
  operator_id: string;
  start_at: number;
  end_at: number | null;
}

export interface SyncCommandsTable {
  id: string;
  company_id: string;
  machine_id: string | null;
  type: string;
  occurred_at: number;
  received_at: number;
  status: 'applied' | 'rejected';
  result: string | null;
  caller: string | null;
}

export interface CyclesTable {
  company_id: string;
  machine_id: string;
  start_at: number;
  end_at: number;
  duration: number;
  count: number;
  source: string;
  setup: number;
}

export interface ProgramIntervalsTable {
  company_id: string;
  machine_id: string;
  sub: number;
  start_at: number;
  end_at: number | null;
  name: string;
}

export interface FaultsTable {
  company_id: string;
  machine_id: string;
  item: string;
  start_at: number;
  end_at: number | null;
  value: string;
  nativecode: string | null;
  type: string | null;
}

export interface FlagSpansTable {
  company_id: string;
  machine_id: string;
  kind: 'spindle' | 'incut';
  start_at: number;
  end_at: number | null;
}

export interface RollupsTable {
  company_id: string;
  machine_id: string;
  start_at: number;
  end_at: number;
  shift_id: string | null;
  measures: string;
  computed_at: number;
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
  shifts: ShiftsTable;
  shift_versions: ShiftVersionsTable;
  jobs: JobsTable;
  job_machines: JobMachinesTable;
  setup_stages: SetupStagesTable;
  job_runs: JobRunsTable;
  labor_activities: LaborActivitiesTable;
  annotation_types: AnnotationTypesTable;
  annotations: AnnotationsTable;
  part_adjustment_types: PartAdjustmentTypesTable;
  part_adjustments: PartAdjustmentsTable;
  operators: OperatorsTable;
  operator_runs: OperatorRunsTable;
  sync_commands: SyncCommandsTable;
  cycles: CyclesTable;
  program_intervals: ProgramIntervalsTable;
  faults: FaultsTable;
  flag_spans: FlagSpansTable;
  rollups: RollupsTable;
}

/** Tables whose rows belong to one company: every one of them (the scope helper relies on it). */
export type CompanyTable = Exclude<keyof Database, 'companies'>;

// Generated is re-exported for migrations that add auto columns later.
export type { Generated };
