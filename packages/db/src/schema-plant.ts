import type { Generated } from 'kysely';

// The plant as the office sets it up: machine groups and machines, shifts, jobs and their runs, labor,
// downtime reasons and annotations, part adjustments, operators and tablet sync commands.
// Part of the Kysely schema: schema.ts assembles the Database interface.

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

/** reports-admin §3 Machine group annotationTypes: the downtime reasons a group offers (migration 0014). */
export interface MachineGroupAnnotationTypesTable {
  company_id: string;
  group_id: string;
  annotation_type_id: string;
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
  /** An internal machine, for root users only (reports-admin §2 "Root Machine"). */
  root_machine: Generated<number>;
  // 0016 (machines admin Software and Utilization panels, adapter reset; decisions 0891, 0892)
  adapter_reset_at: number | null;
  utilization_warningpercent: number | null;
  utilization_failurepercent: number | null;
  dispatch_key: string | null;
  exclude_from_benchmarking: number | null;
  ping_monitor: number | null;
  // 0019: the internal machine list's Make, Model and Payer (decision 0923).
  make: string | null;
  model: string | null;
  payer: string | null;
  // 0042 (decisions 1111, 1112): 'YYYY-MM-DD' or NULL; epoch ms set by a root user, NULL = the first data.
  billing_date: Generated<string | null>;
  integrated_at: Generated<number | null>;
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
  /** 0018: part changeover time in ms (reports-admin §3 partchangeovertime); 0 when none. */
  part_changeover_ms: Generated<number>;
}

/** 0018: the shifts a job run is scheduled to run in (reports-admin §3 Job schedule group: shifts). */
export interface JobRunShiftsTable {
  company_id: string;
  job_run_id: string;
  shift_id: string;
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
