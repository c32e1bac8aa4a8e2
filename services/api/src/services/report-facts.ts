import { bucketAt, buildRollups, epochMs, rollupBuckets } from '@takt/domain';
import type { CompanyCalendar, Rollup } from '@takt/domain';
import { isPostgres, loadMonitoredFrom, loadRollupSources } from '@takt/db/rollups';
import { heldAtInstant } from '../repositories/config-cache';
import type { ServiceCtx } from './context';

// Report rows built from the stored facts (decision 1067), for reportRollups (services/reports.ts): the
// machines or the parts of their range their stored rows do not hold.

/** A time range, epoch ms. */
interface Range {
  start: number;
  end: number;
}

/** The items grouped by a key, in first-seen order. */
export function groupBy<T, K>(items: readonly T[], key: (item: T) => K): Map<K, T[]> {
  const out = new Map<K, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}

/** Up to this much machine-time of facts, all the machines are loaded and built at once (decision 1067). */
const ONE_LOAD_MS = 86_400_000;
/**
 * The longest span of one machine's facts loaded and built at once otherwise: a report's month (31 days, the
 * longest range of most reports) in one load per machine; week slices cost PostgreSQL 1.5–3.5× in round trips.
 */
const BUILD_SLICE_MS = 31 * 86_400_000;
/**
 * Machine-time of facts one load reads on PostgreSQL, in BUILD_SLICE_MS: four machines' month (decision 1197). Its
 * driver answers without holding the event loop, so only the memory of the facts bounds a load there, and each load
 * is about seven statements that wait for a pooled client behind the other managers' (decision 1192). The build
 * still hands the loop back between machines.
 */
const PG_SLICES_A_LOAD = 4;
/**
 * How long a build holds the event loop before it hands it back (decision 1237): between machines or slices, only once
 * it has held the loop this long since it last did. A turn given between every machine (decision 1067) cost a call
 * built over 100 machines 100 turns of the loop: under 20 managers' calls each turn waits for all the others' work,
 * so such a call (this week or month by day, whose last bucket, today, is built from the facts) took seconds to tens
 * of seconds while its own work was a few hundred ms.
 */
export const BUILD_HOLD_MS = 20;
/** The hold of builds not given one: BUILD_HOLD_MS, or a bench's (useBuildHold). */
let holdOfBuilds = BUILD_HOLD_MS;

/** For benches, which compare holds in one run (decision 1239): the hold of the builds that follow (ms). */
export function useBuildHold(ms: number = BUILD_HOLD_MS): void {
  holdOfBuilds = ms;
}

/**
 * Where each machine's monitored life starts (loadMonitoredFrom), read once a call: the same for every range and
 * slice the call builds or splits, so its loads take it from here instead of one statement each (decision 1197).
 * Kept with the call's context (a request's), and with its report instant (decision 1256: the calls computed at it
 * under its data version, which moves with every first or earlier fact of a machine, its rollup mark's), so the
 * next call at another instant reads it again.
 */
const lifeOfCall = new WeakMap<ServiceCtx, Map<string, Promise<number | undefined>>>();

/** The machines' monitored-from times, each machine's read once in the call `ctx` answers (and at its instant). */
export async function monitoredFromOnce(
  ctx: ServiceCtx,
  ids: readonly string[],
): Promise<Map<string, number>> {
  let seen = lifeOfCall.get(ctx);
  if (!seen)
    lifeOfCall.set(
      ctx,
      (seen = heldAtInstant(
        ctx.scope,
        ctx.now,
        'life',
        () => new Map<string, Promise<number | undefined>>(),
      )),
    );
  const missing = ids.filter((id) => !seen.has(id));
  if (missing.length > 0) {
    // Machine ids come from reportMachines (the caller's company), so the bare db sees only its rows.
    const read = loadMonitoredFrom(ctx.scope.db, missing);
    read.catch(() => undefined); // awaited below; a failure before then is not unhandled
    const held = seen;
    for (const id of missing) {
      const at = read.then((m) => m.get(id));
      held.set(id, at);
      // A failed read is this call's (its callers'): the next call reads again.
      at.catch(() => held.get(id) === at && held.delete(id));
    }
  }
  const out = new Map<string, number>();
  for (const id of ids) {
    const at = await seen.get(id)!;
    if (at !== undefined) out.set(id, at);
  }
  return out;
}

/**
 * The machines' rollup rows over `span` built from the stored facts (the rollupBuckets grid clipped to the
 * span), as the recompute builds them. Up to a machine-day in all (the minutes since the marks of live
 * ingest) is one load for all the machines; more (a mark days old, cache=false, today on day rows) is loaded
 * and built in slices of at most 31 machine-days: a machine's month at a time, or as many machines at once as
 * its slice of a shorter span fits in that (decision 1197: 10 machines of a 3-day span in one load, not 10 loads;
 * each slice ending on a bucket edge, so the rows are the same), handing the event loop back between them once it
 * held it `holdMs` (decision 1237) so sockets and /healthz keep running while it works: the SQLite driver is
 * synchronous, so one load of every machine's month was one block of seconds (decision 1067). On PostgreSQL a load holds four times that machine-time
 * (PG_SLICES_A_LOAD), its machines built one by one. Every load takes the machines' monitored life from one read a
 * call (monitoredFromOnce). Decision 1256: the calls computed at the same report instant share one build of the same
 * machines and span (the tail since the rows' marks of today, this week and this month, each asked as OEE, utilization
 * and production, is one build a second); its rows are shared, never to be changed.
 */
export function buildFromFacts(
  ctx: ServiceCtx,
  calendar: CompanyCalendar,
  ids: readonly string[],
  span: Range,
  holdMs = holdOfBuilds,
): Promise<ReadonlyMap<string, readonly Rollup[]>> {
  return heldAtInstant(ctx.scope, ctx.now, `build|${span.start}|${span.end}|${ids.join(',')}`, () =>
    buildOnce(ctx, calendar, ids, span, holdMs),
  );
}

async function buildOnce(
  ctx: ServiceCtx,
  calendar: CompanyCalendar,
  ids: readonly string[],
  span: Range,
  holdMs: number,
): Promise<Map<string, Rollup[]>> {
  const out = new Map<string, Rollup[]>();
  const life = await monitoredFromOnce(ctx, ids);
  // The loop is handed back once the build has held it `holdMs` since it began or last handed it back.
  let since = performance.now();
  const yieldLoop = async () => {
    if (performance.now() - since < holdMs) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    since = performance.now();
  };
  const build = async (of: readonly string[], from: number, to: number, sliced: boolean) => {
    const s = { start: epochMs(from), end: epochMs(to) };
    // Machine ids come from reportMachines (the caller's company), so the bare db sees only its rows.
    // Annotations are judged at now (METRICS.md §5), as the stored rows and the edges are.
    const sources = await loadRollupSources(ctx.scope, of, s, { now: ctx.now, life });
    const buckets = rollupBuckets(calendar, s);
    for (const [k, id] of of.entries()) {
      // Each machine's build apart from the next (its load with the first: as one machine's load and build were).
      if (sliced && k > 0) await yieldLoop();
      const built = out.get(id);
      if (built) built.push(...buildRollups(sources.get(id)!, buckets));
      else out.set(id, buildRollups(sources.get(id)!, buckets));
    }
  };
  if ((span.end - span.start) * ids.length <= ONE_LOAD_MS) {
    await build(ids, span.start, span.end, false);
    return out;
  }
  // Machines a load: as many as the span's slice (at most BUILD_SLICE_MS) fits in the machine-time of a load.
  const loadMs = BUILD_SLICE_MS * (isPostgres(ctx.scope.db) ? PG_SLICES_A_LOAD : 1);
  const perLoad = Math.max(1, Math.floor(loadMs / Math.min(span.end - span.start, BUILD_SLICE_MS)));
  for (let i = 0; i < ids.length; i += perLoad) {
    const group = ids.slice(i, i + perLoad);
    for (let from = span.start; from < span.end;) {
      let to = from + BUILD_SLICE_MS;
      to = to >= span.end ? span.end : Math.max(bucketAt(calendar, to).start, from + 1);
      await yieldLoop();
      await build(group, from, to, true);
      from = to;
    }
  }
  return out;
}
