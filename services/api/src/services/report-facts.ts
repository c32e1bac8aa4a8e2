import { bucketAt, buildRollups, epochMs, rollupBuckets } from '@takt/domain';
import type { CompanyCalendar, Rollup } from '@takt/domain';
import { loadRollupSources } from '@takt/db/rollups';
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
 * The machines' rollup rows over `span` built from the stored facts (the rollupBuckets grid clipped to the
 * span), as the recompute builds them. Up to a machine-day in all (the minutes since the marks of live
 * ingest) is one load for all the machines; more (a mark days old, cache=false, today on day rows) is loaded
 * and built a machine (and at most 31 days) at a time (each slice ending on a bucket edge, so the rows are the
 * same), handing the event loop back between them so sockets and /healthz keep running while it works: the
 * SQLite driver is synchronous, so one load of every machine's month was one block of seconds (decision 1067).
 */
export async function buildFromFacts(
  ctx: ServiceCtx,
  calendar: CompanyCalendar,
  ids: readonly string[],
  span: Range,
): Promise<Map<string, Rollup[]>> {
  const out = new Map<string, Rollup[]>();
  const build = async (of: readonly string[], from: number, to: number) => {
    const s = { start: epochMs(from), end: epochMs(to) };
    // Machine ids come from reportMachines (the caller's company), so the bare db sees only its rows.
    // Annotations are judged at now (METRICS.md §5), as the stored rows and the edges are.
    const sources = await loadRollupSources(ctx.scope, of, s, { now: ctx.now });
    const buckets = rollupBuckets(calendar, s);
    for (const id of of) {
      const built = out.get(id);
      if (built) built.push(...buildRollups(sources.get(id)!, buckets));
      else out.set(id, buildRollups(sources.get(id)!, buckets));
    }
  };
  if ((span.end - span.start) * ids.length <= ONE_LOAD_MS) {
    await build(ids, span.start, span.end);
    return out;
  }
  let first = true;
  for (const id of ids)
    for (let from = span.start; from < span.end;) {
      let to = from + BUILD_SLICE_MS;
      to = to >= span.end ? span.end : Math.max(bucketAt(calendar, to).start, from + 1);
      if (!first) await new Promise<void>((resolve) => setImmediate(resolve));
      first = false;
      await build([id], from, to);
      from = to;
    }
  return out;
}
