// The rollups of machine time and what marks them (or a job run's setup) for recomputation.
// Part of the Kysely schema: schema.ts assembles the Database interface.

export interface RollupsTable {
  company_id: string;
  machine_id: string;
  start_at: number;
  end_at: number;
  shift_id: string | null;
  measures: string;
  computed_at: number;
  /** 0067 (decision 1188): the downtime report's figures (domain encodeDowntimeFigures); null: stored before. */
  downtime?: string | null;
}

/** Decision 0804: the rollups of one machine × company day × shift (null: outside shift time), summed. */
export interface RollupDaysTable {
  company_id: string;
  machine_id: string;
  /** The day's first bucket of this shift (or outside shift time) … */
  start_at: number;
  /** … and the end of its last. */
  end_at: number;
  shift_id: string | null;
  duration_ms: number;
  active_ms: number;
  setup_ms: number;
  inactive_ms: number;
  fault_ms: number;
  unavailable_ms: number;
  spindle_ms: number;
  in_cut_ms: number;
  planned_downtime_ms: number;
  unplanned_downtime_ms: number;
  cycles: number;
  ideal_ms: number;
  /** 0029: ACTIVE time of runs with an ideal cycle time (decision 1002). */
  standard_run_ms: number;
  expected_ms: number;
  parts: number;
  adjustment_count: number;
  rejected: number;
  min_expected_part_time: number | null;
  /** JSON {downtimeByReason, rejectsByType}. */
  reasons: string;
  computed_at: number;
  /** 0067 (decision 1188): the downtime report's figures summed from the hourly rows'; null: stored before. */
  downtime?: string | null;
}

/** Decision 0804: rollup_days summed per machine × company week (ISO) × shift; the same columns. */
export type RollupWeeksTable = RollupDaysTable;

/**
 * 0073 (decision 1235): a machine's week rows starting in [span_start, span_start + 2^33 ms) and their in-shift
 * downtime by reason, packed (rollups/week-packs.ts), written with the week rows.
 */
export interface RollupWeekPacksTable {
  company_id: string;
  machine_id: string;
  span_start: number;
  pack: Buffer;
}

export interface RollupDirtyTable {
  machine_id: string;
  company_id: string;
  from_at: number;
  marked_at: number;
  /** 0023: a worker took the mark until then (PostgreSQL; null when free). */
  claimed_until: number | null;
  /** 0028: the earliest start merged in since the worker last advanced the mark (decision 0980). */
  renewed_from: number | null;
}

/** 0032: a machine's job-run setup changed from `from_at` on; ingest re-derives it (decision 1025). */
export interface SetupDirtyTable {
  machine_id: string;
  company_id: string;
  from_at: number;
  marked_at: number;
}
