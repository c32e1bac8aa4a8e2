import type { Kysely } from 'kysely';
import type { Database } from '@takt/db';
import { CONNECTION_KEY, inboxIdsOf, rawFloor } from '@takt/db';
import { parseShdrLine } from '../sources/shdr/shdr';
import type { Observation as RawObservation } from '../sources/shdr/shdr';
import type { InboxLedger } from '../sources/gateway/inbox';
import { fedByInbox } from '../sources/source';
import type { Link } from './link';
import { MachinePipeline } from './pipeline';
import type { ObservationRow } from './store';
import { lastConnectionChange, loadObservationsSince, loadSetupEvents } from './store';
import { countStoredBetween, signalsBefore } from './rebuild-seed';
import { SETUP_TICK_MS } from './link-checks';

/**
 * A rebuild for late data reads at most this far back from it to find the state it starts from (memory: the
 * observations it reads; the setup events come from the job runs whatever their age, decision 1025).
 */
export const REBUILD_MAX_MS = 7 * 24 * 3_600_000;

/** Read stored observations back into the raw form (for re-deriving history after very late data). */
export function storedToRaw(row: {
  ts: number;
  key: string;
  value: string | null;
}): RawObservation | 'connected' | 'disconnected' | null {
  if (row.key === CONNECTION_KEY) return row.value === 'CONNECTED' ? 'connected' : 'disconnected';
  const cond = row.value && /^(NORMAL|WARNING|FAULT|UNAVAILABLE)\|/i.exec(row.value);
  if (cond && row.value) {
    const parsed = parseShdrLine(`|${row.key}|${row.value}`, row.ts, () => 'condition');
    if (parsed.type === 'data' && parsed.observations[0]) return { ...parsed.observations[0], ts: row.ts };
  }
  return { ts: row.ts, key: row.key, value: row.value, kind: 'value' };
}

/** Mutates the pipeline: feeds it stored observations (in time order), connection changes included. */
export function feedStored(
  pipeline: MachinePipeline,
  rows: ReadonlyArray<{ ts: number; key: string; value: string | null }>,
): void {
  for (const r of rows) {
    const raw = storedToRaw(r);
    if (raw === 'connected' || raw === 'disconnected')
      pipeline.setConnection(raw === 'connected' ? 'CONNECTED' : 'DISCONNECTED', r.ts, true);
    else if (raw) pipeline.pushRaw([raw], r.ts, true);
  }
}

/**
 * The setup events a rebuild derives from `from` on: those before it only say whether setup was on at `from` (a START
 * there when it was). Fed as they are, an event before the first observation fed (a job run's setup that ended hours
 * before a connection change that starts the re-derived run) would start the engine's history there, with no data
 * behind it: an UNAVAILABLE interval over stored history the write does not replace (found by the demo: every live
 * batch then failed on the state intervals' key).
 */
export function setupFrom<E extends { at: number; value: 'START' | 'END' }>(
  events: readonly E[],
  from: number,
): Array<{ at: number; value: 'START' | 'END' }> {
  let on = false;
  const after: Array<{ at: number; value: 'START' | 'END' }> = [];
  for (const e of [...events].sort((a, b) => a.at - b.at)) {
    if (e.at < from) on = e.value === 'START';
    else after.push({ at: e.at, value: e.value });
  }
  return on && after[0]?.at !== from ? [{ at: from, value: 'START' }, ...after] : after;
}

export interface RebuildInput {
  db: Kysely<Database>;
  /** The link whose pipeline asks for a rebuild (`rebuildFrom` set); its pipeline is replaced. */
  link: Link;
  /** Observations received and not yet stored, read once nothing awaits any more. */
  buffered: () => readonly ObservationRow[];
  /** The inbox lines the next batch deletes: a gateway rebuild adds the lines it read. */
  inbox: InboxLedger;
  now: () => number;
  log: (message: string) => void;
  /** Late observations refused for being older than the raw floor (decision 1132): counted on /metrics. */
  refused?: (count: number) => void;
}

/**
 * Late data older than the engine's memory: re-derive the machine from the start of the run holding it
 * (its latest connection change before the late data, at most REBUILD_MAX_MS back), from what is stored
 * plus what this batch is about to store (an adapter's late lines are still in the buffer; a gateway's
 * were stored by the push), then replace what was stored from the late data's time on.
 * Mutates `link.pipeline` (replaced) and `inbox` (marks the lines read as done).
 */
export async function rebuild({ db, link, buffered, inbox, now, log, refused }: RebuildInput): Promise<void> {
  const old = link.pipeline;
  // The link's machine is its company's: another company's rows of the same id are another machine's (decision 1130).
  const { companyId, machineId } = link.source;
  // Raw observations before the floor may be gone (raw retention, decision 1132): late data before it is refused,
  // never derived from a history that is no longer whole; the re-derivation starts at the floor at the earliest.
  const floor = await rawFloor(db);
  const lateAt = () => Math.min(old.rebuildFrom!, old.pendingFrom ?? Infinity);
  const lateFrom = () => Math.max(floor, lateAt());
  const gateway = fedByInbox(link.source.kind);
  let from = lateFrom();
  // A push stores a line's observations and its inbox row in one transaction: the inbox rows seen before
  // the observations are read are all in what is read.
  let covered = gateway ? await inboxIdsOf(db, companyId, machineId) : undefined;
  // Where the run holding the late data starts (its latest connection change, at most REBUILD_MAX_MS back), and
  // the signals in force there, read from what is stored before it (decision 1025): never taken for nothing.
  const startOf = async (at: number) => {
    const runStart = Math.max(
      floor,
      (await lastConnectionChange(db, companyId, machineId, at, at - REBUILD_MAX_MS)) ?? at - REBUILD_MAX_MS,
    );
    return { runStart, seed: await signalsBefore(db, companyId, machineId, runStart, floor) };
  };
  // The job runs the tick hands (those reaching into the last day): the events of those before the re-derived history
  // are in its start state, and known (decision 1209). Read before the others: a run changed since comes with a mark.
  const day = (await loadSetupEvents(db, [machineId], now() - SETUP_TICK_MS)).get(machineId) ?? [];
  let { runStart, seed } = await startOf(from);
  let stored = await loadObservationsSince(db, companyId, machineId, runStart);
  // The setup events of every job run reaching into the re-derived time, read now (not what the old pipeline
  // remembers: a run entered or edited after the fact counts as if it had been there all along).
  let setup = await loadSetupEvents(db, [machineId], runStart);
  // Lines keep arriving (into the old pipeline) while we read: more late data may have come meanwhile.
  while (lateFrom() < from) {
    from = lateFrom();
    covered = gateway ? await inboxIdsOf(db, companyId, machineId) : undefined;
    ({ runStart, seed } = await startOf(from));
    stored = await loadObservationsSince(db, companyId, machineId, runStart);
    setup = await loadSetupEvents(db, [machineId], runStart);
  }
  // From here on nothing awaits, so every observation is in `stored`, in the buffer, or arrives later
  // into the new pipeline.
  const pending = buffered().filter((o) => o.machine_id === machineId);
  if (lateAt() < floor)
    await refuseBeforeFloor(db, link.source, pending, lateAt(), floor, gateway, log, refused);
  let start = runStart;
  for (const o of pending) if (o.key === CONNECTION_KEY && o.ts <= from && o.ts > start) start = o.ts;
  // A connection change received since starts the run afresh; so does this run's own connect when a batch already
  // stored it alone, before the machine's first data (a batch started by that line, decision 1204): what a rebuild
  // derives must not depend on where the batches fell.
  const afresh = start !== runStart || old.connectedAtBeforeFirstWrite(runStart);
  const rows = [...stored, ...pending].filter((o) => o.ts >= start);
  // Stable: equal times keep their stored, then arrival, order.
  rows.sort((a, b) => a.ts - b.ts);
  const fresh = new MachinePipeline(
    link.source.companyId,
    machineId,
    link.fields,
    link.source.cycleSource,
    link.source.kind,
    now(),
  );
  fresh.derivesStoredHistory();
  // The signals in force at the floor, unless the run starts afresh at a connection change (`afresh`).
  const fed = afresh ? rows : [...seed, ...rows];
  feedStored(fresh, fed);
  // The job runs reaching past runStart are all those in force at the signals seeded from before it: the setup is
  // known from the earliest row fed, so a seed does not make the worker read the job runs again from its time (after
  // the pipeline forgot an old run's start, that read would re-derive from it, decision 1065).
  // The re-derived history starts at what is fed: the seed and the run from runStart, or a run a connection change
  // starts afresh (`start`).
  const fedFrom = afresh ? start : Math.min(runStart, fed[0]?.ts ?? runStart);
  const events = setup.get(machineId) ?? [];
  fresh.setSetup(setupFrom(events, fedFrom), fedFrom);
  // Those before it, and the day's the tick hands, are in its start state: known, or the tick would hand them again as
  // news before its history and re-derive the whole day (decision 1209).
  fresh.knowSetup([...events, ...day].filter((e) => e.at < fedFrom));
  fresh.setConnection(link.transport.status, now());
  fresh.continueStoredHistory(start);
  // A new run starting afresh that has written nothing yet takes the previous run's records over at its first machine
  // data, as its own first write would have (decision 1065): closed there, not deleted (decision 1209).
  if (afresh && old.beforeFirstWrite) fresh.takesOverAt(Math.max(start, old.takeOverTime ?? start));
  fresh.replaceFrom(from);
  link.pipeline = fresh;
  if (covered) {
    // The inbox lines the rebuild read are in its history already (fed again, they would be late data once
    // more, and a backlog larger than one take would rebuild once per take): the batch that writes the
    // rebuilt records removes them, and until then a take skips them.
    const done = inbox.inboxDoneIds();
    for (const id of covered) if (!done.has(id)) inbox.markInboxDone(id, machineId);
  }
  log(
    `[ingest] ${link.source.machineName}: re-derived history from ${new Date(start).toISOString()} after late data at ${new Date(from).toISOString()}`,
  );
}

/**
 * Counts and logs the late observations before the raw floor (decision 1132): those of this batch, and for a gateway
 * (its pushes store before deriving) the stored ones from the late time to the floor. They are left out of the
 * re-derived history, and raw retention removes what was stored of them.
 */
async function refuseBeforeFloor(
  db: Kysely<Database>,
  { companyId, machineId }: { companyId: string; machineId: string },
  pending: readonly ObservationRow[],
  lateAt: number,
  floor: number,
  gateway: boolean,
  log: (message: string) => void,
  refused: ((count: number) => void) | undefined,
): Promise<void> {
  let count = pending.filter((o) => o.ts < floor).length;
  if (gateway) count += await countStoredBetween(db, companyId, machineId, lateAt, floor);
  if (count === 0) return;
  refused?.(count);
  log(
    `[ingest] ${machineId}: refused ${count} late observations from ${new Date(lateAt).toISOString()}, older than the raw retention floor ${new Date(floor).toISOString()} (TAKT_RAW_RETENTION_DAYS)`,
  );
}
