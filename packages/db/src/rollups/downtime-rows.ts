import { companyDayRange, companyWeekRange, decodeDowntimeFigures, epochMs, shopDateOf } from '@takt/domain';
import type { CompanyClock, DowntimeFigures } from '@takt/domain';
import type { CompanyScope } from '../scope';
import { keptWithStamp } from './edge-rows';

// Decision 1188: the downtime report's figures kept with the rollup rows (migration 0067), read for a range of whole
// hours: its whole company weeks from the week rows, its other whole days from the day rows, the rest from the hourly
// rows (services/api report-downtime-stored.ts answers the report's interior from them). Decision 1254: each table's
// part of a range is read and decoded once while the company's week rows stamp holds (edge-rows.ts keptWithStamp), so
// the ranges that share a part (today's hours in every range reaching now) and a live range asked again read none.

type Table = 'rollups' | 'rollup_days' | 'rollup_weeks';

/**
 * Each machine's stored figures over [range.start, range.end) (both whole hours of the company, the rows computed up
 * to its end), in time order, of the rows in `shifts` (null: every row; a set may hold null, time outside shifts).
 * A machine with a row stored without figures (before migration 0067 and its recompute) gets null. `range` may be
 * each machine's own (decision 1198: the machines whose rows hold to different hours): at most one query a table
 * whatever the number of machines, the parts of each distinct range in it read as one statement, and kept decoded
 * while the company's week rows stamp holds (decision 1254). The figures are shared between callers: never change them.
 */
export async function loadDowntimeFigureRows(
  scope: CompanyScope,
  clock: CompanyClock,
  machineIds: readonly string[],
  range: { start: number; end: number } | ReadonlyMap<string, { start: number; end: number }>,
  shifts: ReadonlySet<string | null> | null,
): Promise<Map<string, DowntimeFigures[] | null>> {
  const out = new Map<string, DowntimeFigures[] | null>(machineIds.map((id) => [id, []]));
  const rangeOf = (id: string) => ('start' in range ? range : range.get(id)!);
  // The machines of each distinct range, and each table's parts of those ranges.
  const byRange = new Map<string, { range: { start: number; end: number }; ids: string[] }>();
  for (const id of machineIds) {
    const r = rangeOf(id);
    if (!(r.start < r.end)) continue;
    const key = `${r.start}:${r.end}`;
    const group = byRange.get(key);
    if (group) group.ids.push(id);
    else byRange.set(key, { range: r, ids: [id] });
  }
  const terms = new Map<Table, Array<[string[], number, number]>>();
  for (const { range: r, ids } of byRange.values())
    for (const [table, from, to] of tableSpans(clock, r))
      if (from < to) terms.set(table, [...(terms.get(table) ?? []), [ids, from, to]]);
  // Each part its own index range of the table's (machine_id, company_id, start_at) key, the parts one statement,
  // kept decoded under the parts' ranges and machines.
  const parts = await Promise.all(
    [...terms].map(([table, list]) =>
      keptWithStamp(
        scope,
        ['downtime', table, ...list.flatMap(([ids, from, to]) => [`${from}:${to}:${ids.length}`, ...ids])],
        bytesOf,
        () => readParts(scope, table, list),
      ),
    ),
  );
  const rows = parts
    .flat()
    .filter((r) => shifts === null || shifts.has(r.shift))
    .sort((a, b) => a.start - b.start);
  for (const r of rows) {
    const mine = out.get(r.machine);
    if (mine === null || mine === undefined) continue;
    if (r.figures === null) out.set(r.machine, null);
    else mine.push(r.figures);
  }
  return out;
}

/** One stored row's figures, decoded (shared between callers when kept: never changed). */
interface FigureRow {
  machine: string;
  start: number;
  shift: string | null;
  figures: DowntimeFigures | null;
  /** Its stored text's length (what keeping it is counted by). */
  size: number;
}

/** What a kept part is taken to hold in memory: a row's objects and its decoded figures (about twice its text). */
const bytesOf = (rows: readonly FigureRow[]) => rows.reduce((n, r) => n + 200 + 2 * r.size, 0);

/** One table's rows of each part's machines over its [from, to), their figures decoded. */
async function readParts(
  scope: CompanyScope,
  table: Table,
  [first, ...rest]: ReadonlyArray<[string[], number, number]>,
): Promise<FigureRow[]> {
  const read = (table: Table, [ids, from, to]: [string[], number, number]) =>
    scope
      .selectFrom(table)
      .select(['machine_id', 'start_at', 'shift_id', 'downtime'])
      .where('machine_id', 'in', ids)
      .where('start_at', '>=', from)
      .where('start_at', '<', to);
  const rows = await rest.reduce((q, part) => q.unionAll(read(table, part)), read(table, first!)).execute();
  return rows.map((r) => ({
    machine: r.machine_id,
    start: Number(r.start_at),
    shift: r.shift_id,
    figures: decodeDowntimeFigures(r.downtime),
    size: r.downtime?.length ?? 0,
  }));
}

/** A range of whole hours as its whole weeks (week rows), its other whole days (day rows) and the rest (hourly). */
function tableSpans(
  clock: CompanyClock,
  range: { start: number; end: number },
): Array<[Table, number, number]> {
  const day = (t: number) => companyDayRange(clock, shopDateOf(clock, epochMs(t)));
  const days = {
    start: day(range.start).start === range.start ? range.start : (day(range.start).end as number),
    end: day(range.end).start as number,
  };
  const week = (t: number) => companyWeekRange(clock, t);
  const weeks = {
    start: week(days.start).start === days.start ? days.start : (week(days.start).end as number),
    end: week(days.end).start as number,
  };
  const whole = days.start < days.end;
  const weekly = whole && weeks.start < weeks.end;
  return whole
    ? [
        ['rollups', range.start, days.start],
        ['rollups', days.end, range.end],
        ...(weekly
          ? ([
              ['rollup_days', days.start, weeks.start],
              ['rollup_days', weeks.end, days.end],
              ['rollup_weeks', weeks.start, weeks.end],
            ] as Array<[Table, number, number]>)
          : ([['rollup_days', days.start, days.end]] as Array<[Table, number, number]>)),
      ]
    : [['rollups', range.start, range.end]];
}
