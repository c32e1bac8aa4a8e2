import { expectedSetupMs, runSetupMode, startSetupTime } from '@takt/domain';
import type { StartInSetupMode } from '@takt/domain';
import { ApiError, t } from '@takt/ui';
import { ENDPOINTS } from '../../endpoints/endpoints';
import type { FloorSync } from '../../offline/floorSync';
import { cacheJobs } from '../../offline/refdata';

// The job picker's search (live-operations §2 Start Job, §5 Job search, §9): one search for the workcenter's
// Start Job overlay, the admins' job dispatch modal and the dashboard tiles' job picker.

// live-operations §9: "job search debounce 250 ms (500 ms in the start-job overlay)"; §5 says the same: "250 ms
// debounce on dashboards, 500 ms in the start-job overlay". Two places, two values, both named for their place.
export const JOB_SEARCH_DEBOUNCE_MS = 250;
export const START_JOB_SEARCH_DEBOUNCE_MS = 500;
/** live-operations §5, §9: admins' server-side search returns at most 10 operations. */
export const JOB_SEARCH_LIMIT = 10;
/** live-operations §2, §9: the Start Job overlay loads pages of 15 as the list scrolls. */
export const JOB_PAGE_SIZE = 15;
/** The most jobs of one machine a non-admin's picker loads to filter on the device (the API's page limit). */
const LOCAL_JOBS_MAX = 100;

export interface JobRow {
  id: string;
  name: string;
  /** Seconds; null: the job has no setup time, so it can only start in production. */
  setuptime: number | null;
  /**
   * The setup a start in setup is timed against (decision 1083): the run starts with setup time 0, so the
   * job's standard (this job machine's setup time); null when it has none.
   */
  expectedSetupMs: number | null;
  /** The job already has a JobMachine for this machine (live-operations §4 Job dispatch). */
  onMachine: boolean;
}

export interface JobPageRequest {
  filter: string;
  offset: number;
  limit: number;
}

export interface JobPage {
  rows: JobRow[];
  count: number;
  /** Served from this device's cache (offline). */
  cached: boolean;
}

type RawJob = Record<string, unknown>;

const jobMachinesOf = (job: RawJob) =>
  Array.isArray(job.job_machines) ? (job.job_machines as RawJob[]) : [];

const START_MODES: readonly StartInSetupMode[] = ['none', 'planned', 'unplanned'];

/** A job row from GET /api/jobs (or the cache), with the setup time of this machine's job machine if any. */
export function jobRowOf(job: RawJob, machineId: string): JobRow {
  const jm = jobMachinesOf(job).find((x) => x.machine_id === machineId);
  const raw = jm && 'setuptime' in jm ? jm.setuptime : job.setuptime;
  const setuptime = typeof raw === 'number' ? raw : null;
  // A start in setup takes the job machine's mode (a job not yet on the machine: unplanned, as the API's).
  const mode = START_MODES.find((m) => m === jm?.startInSetup) ?? (setuptime == null ? 'none' : 'unplanned');
  const setupMode = runSetupMode(true, mode);
  return {
    id: String(job.id),
    name: String(job.displayName ?? job.job_name ?? job.name ?? job.id),
    setuptime,
    expectedSetupMs:
      setuptime == null ? null : expectedSetupMs(setupMode, startSetupTime(setupMode), setuptime * 1000),
    onMachine: jm != null,
  };
}

/** live-operations §2 empty states, verbatim. `ranged`: the list is limited to a schedule range. */
export function emptyJobsText(filter: string, ranged = false): string {
  const searching = filter.trim() !== '';
  if (ranged) return searching ? t('startJob.emptyRangeSearch') : t('startJob.emptyRange');
  return searching ? t('startJob.emptySearch') : t('startJob.empty');
}

export interface JobSearchOptions {
  machineId: string;
  /** Every operation of the company (the admins' job dispatch modal, live-operations §2, §6), not the machine's. */
  allOperations: boolean;
  /** live-operations §5: the server searches (admins); otherwise the machine's jobs are filtered on the device. */
  serverSearch: boolean;
  /** Pages as the list scrolls (the Start Job overlay); otherwise one answer of at most `limit` rows. */
  paged: boolean;
}

/**
 * The job picker's page loader. Jobs of this machine that the server returns are saved on the device, so the
 * picker still lists them offline (a network failure falls back to them, filtered case-insensitively, §5).
 */
export function jobPageLoader(sync: FloorSync, o: JobSearchOptions) {
  let machineJobs: RawJob[] | null = null;
  const fetchJobs = (filter: string, limit: number, offset: number, signal: AbortSignal) =>
    sync.api.request<{ rows: RawJob[]; count: number }>(ENDPOINTS.jobs, {
      query: { machineId: o.allOperations ? null : o.machineId, filter, limit, offset },
      signal,
    });
  const answer = (rows: JobRow[], count: number, cached: boolean): JobPage => ({
    rows,
    count: o.paged ? count : rows.length,
    cached,
  });
  return async (r: JobPageRequest, signal: AbortSignal): Promise<JobPage> => {
    try {
      let found: RawJob[];
      let count: number;
      if (o.serverSearch) {
        const page = await fetchJobs(r.filter, r.limit, r.offset, signal);
        found = page.rows;
        count = page.count;
      } else {
        machineJobs ??= (await fetchJobs('', LOCAL_JOBS_MAX, 0, signal)).rows;
        const q = r.filter.trim().toLowerCase();
        const all = machineJobs.filter((j) => jobRowOf(j, o.machineId).name.toLowerCase().includes(q));
        found = all.slice(r.offset, r.offset + r.limit);
        count = all.length;
      }
      const rows = found.map((j) => jobRowOf(j, o.machineId));
      const mine = o.allOperations ? found.filter((_, i) => rows[i]!.onMachine) : found;
      void cacheJobs(sync.db, o.machineId, mine);
      return answer(rows, count, false);
    } catch (e) {
      if (!(e instanceof ApiError && e.isNetworkError)) throw e;
      const q = r.filter.trim().toLowerCase();
      const all = await sync.db.jobs
        .where('machineId')
        .equals(o.machineId)
        .filter((j) => j.search.includes(q))
        .sortBy('search');
      // Saved only for this machine, so each is on it.
      const rows = all
        .slice(r.offset, r.offset + r.limit)
        .map((j) => ({ ...jobRowOf(j.job, o.machineId), onMachine: true }));
      return answer(rows, all.length, true);
    }
  };
}

/** The start_job command's payload: the JSON body of the dispatch start call (live-operations §7 Job dispatch). */
export const startJobPayload = (
  machineId: string,
  jobId: string,
  setup: boolean,
  setupStageId: string | null,
) => ({
  id: machineId,
  jobId,
  setup,
  setupStageId: setup ? setupStageId : null,
});
