import type { StartInSetupMode } from '../metrics/production';

// reports-admin §3 Job schedule group (job run) as GET /api/productionruns answers it and PUT
// /api/productionruns/{id} takes it (decision 0850): one shape for the API and the office editor.

/** A job run as the production runs list and the editor read it. */
export interface ProductionRun {
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
  /** reports-admin §4: none has no setup time (null); planned and unplanned count from 0. */
  setuptime: number | null;
  /** Null with a setup: still in setup. Without setup, the start. */
  setupend: number | null;
  cycletime: number;
  idealcycletime: number;
  partcount_multiplier: number;
  actualParts: number;
  /** reports-admin §3 partchangeovertime (ms); 0 when none (decision 0910). */
  partchangeovertime: number;
  /** reports-admin §3 shifts: the ids of the shifts the run is scheduled in (decision 0910). */
  shifts: string[];
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
}

/** PUT /api/productionruns/{id}: every field of the run the editor sets. */
export type ProductionRunSave = Omit<
  ProductionRun,
  'id' | 'job_name' | 'machine_name' | 'setuptime' | 'partchangeovertime' | 'shifts'
>;
