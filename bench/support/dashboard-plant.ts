// The plant of bench/dashboard-answer.ts: the soak's demo plant (ensureDemoCompany: its groups, adapter, sources,
// shifts, jobs and reasons) with `machines` machines, each with a live row, a day of states, raw rows, cycles and 60
// job runs of history; a third of them running a job, a third with a stopped one; the machines in downtime half of
// them categorized; the rollup worker's rows as it leaves them (BENCH_ROLLUPS=0: none).
import { sql } from 'kysely';
import { CONNECTION_KEY, companyScope } from '@takt/db';
import { recomputeRollups } from '@takt/db/rollups';
import type { CompanyScope } from '@takt/db';
import { DEMO_LOGINS, ensureDemoCompany } from '@takt/api';
import { demoAdapterFields } from '@takt/ingest';
import type { ApiHarness } from '../../services/api/src/testing/app';

/** The answers' now: 2025-11-22 02:26 in Chicago, the third shift's window began at 22:00. */
export const NOW = 1_763_800_000_000;
const MIN = 60_000;
const HOUR = 60 * MIN;
const admin = DEMO_LOGINS.find((l) => l.role === 'admin')!;
const ROLLUPS = process.env.BENCH_ROLLUPS !== '0';
const ROLLUPS_AGO = 2000;

/** Rows in slices, so PostgreSQL's parameter limit is never reached. */
async function insertAll<T>(rows: readonly T[], each: number, put: (slice: T[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += each) await put(rows.slice(i, i + each));
}

type State = 'ACTIVE' | 'INACTIVE' | 'FAULT' | 'UNAVAILABLE';
/** Machine i's state now: 60 % running, the rest idle, faulted or without data. */
const stateNow = (i: number): State =>
  i % 20 < 12 ? 'ACTIVE' : i % 20 < 16 ? 'INACTIVE' : i % 20 < 19 ? 'FAULT' : 'UNAVAILABLE';

/** A day of states: ACTIVE and a downtime in turn, 10–25 min each, the last one open in the state of now. */
function dayOfStates(i: number): Array<{ start: number; end: number | null; state: State }> {
  const out: Array<{ start: number; end: number | null; state: State }> = [];
  let t = NOW - 24 * HOUR;
  for (let j = 0; ; j++) {
    const end = t + (10 + ((i * 7 + j * 13) % 16)) * MIN;
    const state: State =
      end >= NOW ? stateNow(i) : j % 2 === 0 ? 'ACTIVE' : (i + j) % 3 ? 'INACTIVE' : 'FAULT';
    const last = out[out.length - 1];
    if (last && last.state === state) last.end = end >= NOW ? null : end;
    else out.push({ start: t, end: end >= NOW ? null : end, state });
    if (end >= NOW) return out;
    t = end;
  }
}

/** The soak's plant with its live data (see the head of the file). */
export async function aPlant(
  h: ApiHarness,
  machines: number,
): Promise<{ scope: CompanyScope; cookie: string }> {
  const db = h.t.db;
  const plant = await ensureDemoCompany(db, {
    portBase: 40_000,
    seed: 1,
    machines,
    adapterFields: demoAdapterFields(),
    now: NOW - 30 * 24 * HOUR,
  });
  const { company_id } = await db
    .selectFrom('machines')
    .select('company_id')
    .where('id', '=', plant[0]!.machineId)
    .executeTakeFirstOrThrow();
  const scope = companyScope(db, company_id);
  const [jobs, reasons] = await Promise.all([
    scope.selectFrom('jobs').select(['id', 'expected_cycle_time']).execute(),
    scope.selectFrom('annotation_types').select('id').execute(),
  ]);
  const ids = plant.map((p) => p.machineId);
  const states = ids.map((_, i) => dayOfStates(i));
  await insertAll(
    ids.flatMap((id, i) =>
      states[i]!.map((s) => ({ machine_id: id, start_at: s.start, end_at: s.end, state: s.state })),
    ),
    2000,
    (rows) => scope.insertInto('state_intervals', rows).execute(),
  );
  await insertAll(
    ids.map((id, i) => {
      const now = states[i]!.at(-1)!;
      return {
        machine_id: id,
        state: now.state,
        state_since: now.start,
        connection: now.state === 'UNAVAILABLE' ? 'DISCONNECTED' : 'CONNECTED',
        connection_since: NOW - 24 * HOUR,
        last_heartbeat: NOW - 1000,
        execution: now.state === 'ACTIVE' ? 'ACTIVE' : now.state === 'FAULT' ? 'INTERRUPTED' : 'READY',
        execution_since: now.start,
        availability: now.state === 'UNAVAILABLE' ? 'UNAVAILABLE' : 'AVAILABLE',
        controller_mode: 'AUTOMATIC',
        program: `O${1000 + i}`,
        part_count: 100 + i,
        spindle_speed: now.state === 'ACTIVE' ? 1200 : 0,
        fault_since: now.state === 'FAULT' ? now.start : null,
        fault_message: now.state === 'FAULT' ? 'Spindle overload' : null,
        in_setup: 0,
        updated_at: NOW - 500,
      };
    }),
    500,
    (rows) => scope.insertInto('machine_live', rows).execute(),
  );
  // Raw rows as ingest stores them: the link log and two data items, so every machine has reported.
  await insertAll(
    ids.flatMap((id) =>
      [
        [NOW - 24 * HOUR, CONNECTION_KEY, 'CONNECTED'],
        [NOW - 24 * HOUR + 1000, 'execution', 'ACTIVE'],
        [NOW - 1000, 'part_count', '100'],
      ].map(([ts, key, value]) => ({
        company_id: scope.companyId,
        machine_id: id,
        ts: ts as number,
        key: key as string,
        value: value as string,
      })),
    ),
    2000,
    (rows) => db.insertInto('observations').values(rows).execute(),
  );
  // A part every 2 min while ACTIVE over the last 8 hours.
  await insertAll(
    ids.flatMap((id, i) =>
      states[i]!.filter((s) => s.state === 'ACTIVE' && (s.end ?? NOW) > NOW - 8 * HOUR).flatMap((s) => {
        const from = Math.max(s.start, NOW - 8 * HOUR);
        const n = Math.floor(((s.end ?? NOW) - from) / (2 * MIN));
        return Array.from({ length: n }, (_, k) => ({
          machine_id: id,
          start_at: from + k * 2 * MIN,
          end_at: from + (k + 1) * 2 * MIN,
          duration: 2 * MIN,
          count: 1,
          source: 'part_count',
          setup: 0,
        }));
      }),
    ),
    2000,
    (rows) => scope.insertInto('cycles', rows).execute(),
  );
  // A third run a job since 1–6 hours ago; a third stopped one an hour ago (the tile's paused job).
  const runs = ids.flatMap((id, i) => {
    if (i % 3 === 2) return [];
    const job = jobs[i % jobs.length]!;
    const start = NOW - (1 + (i % 6)) * HOUR;
    return [
      {
        id: crypto.randomUUID(),
        machine_id: id,
        job_id: job.id,
        job_machine_id: null,
        start_at: i % 3 === 0 ? start : start - 5 * HOUR,
        end_at: i % 3 === 0 ? null : NOW - HOUR,
        setup_mode: 'none' as const,
        setup_end: start,
        expected_cycle_time: job.expected_cycle_time,
        ideal_cycle_time: job.expected_cycle_time,
        part_count_multiplier: 1,
        actual_parts: 1,
        reported_parts: null,
        required_cycles: null,
        part_behavior: 'one' as const,
        expected_setup_ms: null,
        setup_note: null,
        created_at: start,
      },
    ];
  });
  // And a history: two 8-hour runs a day over the 30 days before (a plant's job runs grow with its age).
  const history = ids.flatMap((id, i) =>
    Array.from({ length: 60 }, (_, k) => {
      const start = NOW - 31 * 24 * HOUR + k * 12 * HOUR;
      return {
        ...runs[0]!,
        id: crypto.randomUUID(),
        machine_id: id,
        job_id: jobs[(i + k) % jobs.length]!.id,
        start_at: start,
        setup_end: start,
        end_at: start + 8 * HOUR,
        created_at: start,
      };
    }),
  );
  await insertAll([...history, ...runs], 500, (rows) => scope.insertInto('job_runs', rows).execute());
  // Half of the downtimes of the day categorized, the current one included.
  await insertAll(
    ids.flatMap((id, i) =>
      states[i]!.filter((s, j) => s.state !== 'ACTIVE' && (i + j) % 2 === 0).map((s, j) => ({
        id: crypto.randomUUID(),
        machine_id: id,
        annotation_type_id: reasons[(i + j) % reasons.length]!.id,
        start_at: s.start,
        end_at: null,
        message: null,
        planned: null,
        setup: 0,
        active_setup: 0,
        created_by: null,
        created_at: s.start,
        updated_at: s.start,
      })),
    ),
    1000,
    (rows) => scope.insertInto('annotations', rows).execute(),
  );
  // Decision 1155: the rollup worker's rows as it leaves them, computed ROLLUPS_AGO before the answers' now, so a
  // goal reads its stored hours and a fresh tail (BENCH_ROLLUPS=0: none stored, every goal from the facts).
  if (ROLLUPS)
    for (const id of ids)
      await recomputeRollups(db, {
        companyId: company_id,
        machineId: id,
        from: NOW - 36 * HOUR,
        to: NOW - ROLLUPS_AGO,
        now: NOW - ROLLUPS_AGO,
      });
  if (h.t.dialect === 'postgres') await sql`analyze`.execute(db);
  return { scope, cookie: await h.login(admin.email, admin.password) };
}
