import type { Kysely, Selectable } from 'kysely';
import { manualAnchor, manualReviewAt, manualStates } from '@takt/domain';
import type { ManualCount, ManualRun, StateInterval } from '@takt/domain';
import type { Database } from '../schema';
import { markRollupsDirty } from './recompute';

// Decision 1073: a manual work center has no machine data source; its state intervals are derived from its job
// runs and Add Parts by the domain's manualStates and stored where ingest stores a monitored machine's, so every
// reader (rollups, timeline, downtime list and report, tiles) reads them alike. The rollup recompute derives
// them again from the first evidence a change touches (recompute.ts), and the rollup worker marks a machine
// whose open gap passed its limit (markManualStatesDue), so its ACTIVE turns INACTIVE without new evidence. Its
// live row (machine_live, which ingest keeps for a machine with a source) follows its current state.

/** A job run row as the manual rule reads it. */
export const toManualRun = (r: Selectable<Database['job_runs']>): ManualRun => ({
  id: r.id,
  jobId: r.job_id,
  start: Number(r.start_at),
  end: r.end_at == null ? null : Number(r.end_at),
  setupEnd: r.setup_end == null ? null : Number(r.setup_end),
  expectedCycleTime: r.expected_cycle_time,
  idealCycleTime: r.ideal_cycle_time,
  partCountMultiplier: r.part_count_multiplier,
});

/**
 * Whether the company's machine is a manual work center (no machine data source). Rows stored under its id by
 * another company (decision 1130) are another machine's, never a manual work center's.
 */
export async function isManualWorkCenter(
  db: Kysely<Database>,
  companyId: string,
  machineId: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('machines')
    .select('workcenter_type')
    .where('id', '=', machineId)
    .where('company_id', '=', companyId)
    .executeTakeFirst();
  return row?.workcenter_type === 'manual';
}

async function runsFrom(db: Kysely<Database>, machineId: string, from: number): Promise<ManualRun[]> {
  const rows = await db
    .selectFrom('job_runs')
    .selectAll()
    .where('machine_id', '=', machineId)
    .where((eb) => eb.or([eb('end_at', 'is', null), eb('end_at', '>=', from)]))
    .orderBy('start_at')
    .execute();
  return rows.map(toManualRun);
}

async function countsFrom(db: Kysely<Database>, machineId: string, from: number): Promise<ManualCount[]> {
  const rows = await db
    .selectFrom('part_adjustments')
    .select(['adjustment_time', 'count'])
    .where('machine_id', '=', machineId)
    .where('kind', '=', 'manual')
    .where('adjustment_time', '>=', from)
    .orderBy('adjustment_time')
    .execute();
  return rows.map((r) => ({ at: Number(r.adjustment_time), count: r.count }));
}

/**
 * Where to derive a manual work center's states again for a change at `t`: the latest evidence at or before
 * it, else its first evidence (its life starts later); null when it has none at all.
 */
async function anchorFor(db: Kysely<Database>, machineId: string, t: number): Promise<number | null> {
  const [lastCount, lastEnd, around] = await Promise.all([
    db
      .selectFrom('part_adjustments')
      .select((eb) => eb.fn.max<number>('adjustment_time').as('at'))
      .where('machine_id', '=', machineId)
      .where('kind', '=', 'manual')
      .where('adjustment_time', '<=', t)
      .executeTakeFirst(),
    db
      .selectFrom('job_runs')
      .select((eb) => eb.fn.max<number>('end_at').as('at'))
      .where('machine_id', '=', machineId)
      .where('end_at', '<=', t)
      .executeTakeFirst(),
    runsFrom(db, machineId, t),
  ]);
  const before = manualAnchor(
    around,
    [lastCount?.at, lastEnd?.at].filter((x) => x != null).map((at) => ({ at: Number(at), count: 0 })),
    t,
  );
  if (before !== null) return before;
  const [firstCount, firstRun] = await Promise.all([
    db
      .selectFrom('part_adjustments')
      .select((eb) => eb.fn.min<number>('adjustment_time').as('at'))
      .where('machine_id', '=', machineId)
      .where('kind', '=', 'manual')
      .executeTakeFirst(),
    db
      .selectFrom('job_runs')
      .select((eb) => eb.fn.min<number>('start_at').as('at'))
      .where('machine_id', '=', machineId)
      .executeTakeFirst(),
  ]);
  const firsts = [firstCount?.at, firstRun?.at].filter((x) => x != null).map(Number);
  return firsts.length > 0 ? Math.min(...firsts) : null;
}

/**
 * Derives a manual work center's states again for a change at `from`, up to `now`, and stores them in place of
 * the stored ones from the anchor on (the last one open). Returns the anchor (the rollups must be recomputed
 * from there), or null when the machine has no evidence (its stored states, if any, are removed).
 */
export async function rederiveManualStates(
  db: Kysely<Database>,
  input: { companyId: string; machineId: string; from: number; now: number },
): Promise<number | null> {
  const { companyId, machineId, now } = input;
  const anchor = await anchorFor(db, machineId, Math.min(input.from, now));
  if (anchor === null || anchor >= now) {
    // Only its company's states: another company's rows of the same id are another machine's (decision 1130).
    await db
      .deleteFrom('state_intervals')
      .where('company_id', '=', companyId)
      .where('machine_id', '=', machineId)
      .execute();
    await db
      .deleteFrom('machine_live')
      .where('company_id', '=', companyId)
      .where('machine_id', '=', machineId)
      .execute();
    return null;
  }
  const [runs, counts] = await Promise.all([
    runsFrom(db, machineId, anchor),
    countsFrom(db, machineId, anchor),
  ]);
  const states = manualStates(runs, counts, anchor, now);
  await db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom('state_intervals')
      .where('company_id', '=', companyId)
      .where('machine_id', '=', machineId)
      .where('start_at', '>=', anchor)
      .execute();
    await trx
      .updateTable('state_intervals')
      .set({ end_at: anchor })
      .where('company_id', '=', companyId)
      .where('machine_id', '=', machineId)
      .where('start_at', '<', anchor)
      .where((eb) => eb.or([eb('end_at', 'is', null), eb('end_at', '>', anchor)]))
      .execute();
    const rows = states.map((s) => ({
      company_id: companyId,
      machine_id: machineId,
      start_at: Number(s.start),
      end_at: s.open ? null : Number(s.end),
      state: s.state,
      reason: null,
    }));
    for (let i = 0; i < rows.length; i += 200)
      await trx
        .insertInto('state_intervals')
        .values(rows.slice(i, i + 200))
        .execute();
    const current = states[states.length - 1];
    if (current) await writeManualLive(trx, companyId, machineId, current);
  });
  return anchor;
}

/**
 * The live row of a manual work center, as ingest keeps one for a machine with a source: its current state and
 * since when, with a link that is up and no heartbeat (it has no link to lose, so it never reads Disconnected).
 * The tile, the card, the notifications and the live channel read it as they read any machine's.
 */
async function writeManualLive(
  db: Kysely<Database>,
  companyId: string,
  machineId: string,
  current: StateInterval,
): Promise<void> {
  const since = Number(current.start);
  const row = {
    state: current.state,
    state_since: since,
    connection: 'CONNECTED',
    connection_since: null,
    last_heartbeat: null,
    execution: current.state === 'ACTIVE' ? 'ACTIVE' : 'READY',
    execution_since: since,
    availability: null,
    controller_mode: null,
    program: null,
    part_count: null,
    spindle_speed: null,
    fault_since: null,
    fault_message: null,
    in_setup: current.state === 'SETUP' ? 1 : 0,
    updated_at: since,
  };
  await db
    .insertInto('machine_live')
    .values({ machine_id: machineId, company_id: companyId, ...row })
    .onConflict((oc) => oc.columns(['machine_id', 'company_id']).doUpdateSet(row))
    .execute();
}

/**
 * The manual work centers whose stored open ACTIVE interval outlived its limit at `now` (an operator stopped
 * adding parts): marked for the rollup worker from that interval's start, whose recompute derives the gap
 * INACTIVE. Returns how many were marked.
 */
export async function markManualStatesDue(db: Kysely<Database>, now: number): Promise<number> {
  const machines = await db
    .selectFrom('machines')
    .select(['id', 'company_id'])
    .where('workcenter_type', '=', 'manual')
    .execute();
  let marked = 0;
  for (const m of machines) {
    // The latest interval, one step down the primary key (machine_id, start_at).
    const last = await db
      .selectFrom('state_intervals')
      .select(['start_at', 'end_at', 'state'])
      .where('company_id', '=', m.company_id)
      .where('machine_id', '=', m.id)
      .orderBy('start_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (!last || last.end_at != null || last.state !== 'ACTIVE') continue;
    const since = Number(last.start_at);
    const [runs, counts] = await Promise.all([runsFrom(db, m.id, since), countsFrom(db, m.id, since)]);
    if (manualReviewAt(runs, counts, now) !== null) continue;
    await markRollupsDirty(db, { companyId: m.company_id, machineId: m.id, from: since, now });
    marked++;
  }
  return marked;
}
