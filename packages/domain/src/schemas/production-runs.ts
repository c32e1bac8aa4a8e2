import type { StartInSetupMode } from '../metrics/production';

// reports-admin §3 Job schedule group (job run) as GET /api/productionruns answers it and PUT
// /api/productionruns/{id} takes it (decision 0850): one shape for the API and the office editor.

/** A job run's setup and cycle figures, alike in every answer that shows a run (reports-admin §3, §4). */
export interface JobRunFigures {
  /** reports-admin §4: none has no setup time (null); planned and unplanned count from 0. */
  setuptime: number | null;
  /** When production started: null while still in setup; without setup, the start. */
  setupend: number | null;
  cycletime: number;
  idealcycletime: number;
  partcount_multiplier: number;
  actualParts: number;
}

/** A job run as the production runs list and the editor read it. */
export interface ProductionRun extends JobRunFigures {
  id: string;
  job_id: string;
  job_name: string;
  machine_id: string;
  machine_name: string;
  startdate: number;
  /** Null: never ends (still running). */
  enddate: number | null;
  /** reports-admin §4 start-in-setup. */
  startInSetup: StartInSetupMode;
  /** reports-admin §3 partchangeovertime (ms); 0 when none (decision 0910). */
  partchangeovertime: number;
  /** reports-admin §3 shifts: the ids of the shifts the run is scheduled in (decision 0910). */
  shifts: string[];
  /** reports-admin §3 laborActivities of the run's labor activity set, by start (decision 0940). */
  laborActivities: RunLaborActivity[];
  /**
   * The parts the run made (METRICS.md §3 total, rejected, good), inside the listed range (the whole run up to
   * now for one run), as the job report counts the run: the same numbers on every screen (decision 1020).
   * `actualParts` above is the parts-per-cycle standard of a manyparts run, not parts made.
   */
  parts: RunParts;
}

/** METRICS.md §3 parts of a run: total = counted + Σ adjustment count, rejected, good = total − rejected. */
export interface RunParts {
  total: number;
  rejected: number;
  good: number;
}

/** reports-admin §3 Labor activity: a setup stage's time (setup true) or production (setup false, no stage). */
export interface RunLaborActivity {
  startAt: number;
  /** Null: still going on. */
  endAt: number | null;
  setupStageId: string | null;
  setup: boolean;
}

/** A setup stage's planned time in the schedule form with setup-stage labor activities (decision 0940). */
export interface ScheduleStageActivity {
  setupStageId: string;
  startAt: number;
  /** Null: the run is still in this stage (only the last). */
  endAt: number | null;
}

/**
 * POST /api/productionruns (the schedule form, reports-admin §2 Schedule): every field of the run with its
 * shifts, part changeover time and, for a planned setup, the expected setup time in ms (§4: none null,
 * unplanned 0). PUT takes the same; the production-run editor leaves the last three out and keeps them.
 */
export interface ScheduleRunSave extends Omit<ProductionRunSave, 'partchangeovertime' | 'shifts'> {
  partchangeovertime?: number;
  shifts?: string[];
  setuptime?: number | null;
  /**
   * The second schedule form (decision 0940): the setup stages in order from the start; the server saves them
   * and production after them as the run's labor activities. Absent: the saved ones are kept.
   */
  laborActivities?: ScheduleStageActivity[];
}

/** PUT /api/productionruns/{id}: every field of the run the editor sets. */
export type ProductionRunSave = Omit<
  ProductionRun,
  | 'id'
  | 'job_name'
  | 'machine_name'
  | 'setuptime'
  | 'partchangeovertime'
  | 'shifts'
  | 'laborActivities'
  | 'parts'
>;
