import { adoptServerInterval, epochMs } from '@takt/domain';
import type { EpochMs } from '@takt/domain';
import type { AppliedRange, Horizon } from '@takt/ui';
import { ApiError, arrayOf, object, optional, string, tr } from '@takt/ui';

// What the OEE and utilization reports share (reports-admin §2 "Utilization report: Same layout"): horizons,
// interval labels and drill-down, adopting the server's interval, the URL's drill-down and sortable lists.
// Pure: tested without a browser.

/** A report answer's machines whose figures in its range are still being recomputed (decision 1004). */
export type Recomputing = readonly { machineId: string; machineName: string }[];
/** The answers' `recomputing` field (optional: an older server does not send it). */
export const recomputingCheck = optional(arrayOf(object({ machineId: string, machineName: string })));

/**
 * Issue 27 point 8 (decision 1004): the notice a report shows while some of its machines' figures are being
 * recomputed (late data, an edited run), so nobody reads a half-updated number as final; null when settled.
 */
export function recomputingNotice(list: Recomputing | undefined): string | null {
  if (!list?.length) return null;
  return tr('reports.recomputing', { machines: list.map((m) => m.machineName).join(', ') });
}

/** The company's locale and time zone, which every report formats its dates and times in. */
export type LZ = { locale: string; timeZone: string };

/**
 * reports-admin §8: the text of a report request that failed. A request the server refused (4xx, e.g. a
 * machine of another company) says why; a failure of the server or the network says `fallback`.
 */
export function failureText(err: unknown, fallback: string): string {
  if (err instanceof ApiError && err.status >= 400 && err.status < 500 && err.message.trim())
    return err.message;
  return fallback;
}

/**
 * The horizons of a report that does not remember its last one (reports-admin §9 remembers the OEE and
 * utilization horizons only): the options useReportPage takes, `defaultHorizon` first, `horizons` offered.
 */
export const unsavedHorizons = (defaultHorizon: Horizon, horizons: readonly Horizon[]) =>
  ({ horizonPreference: null, defaultHorizon, horizons }) as const;

/** reports-admin §2: OEE and utilization horizons Hour, Day, Week, Month, Quarter. */
export const REPORT_HORIZONS: readonly Horizon[] = ['hour', 'day', 'week', 'month', 'quarter'];

/**
 * reports-admin §2 / domain adoptServerInterval: when the server answers with another interval or range
 * than asked, the page takes the server's (and writes it to the URL), or null when nothing differs.
 */
export function adoptedRange(
  asked: AppliedRange,
  answer: { interval: string; range: { start: number; end: number } },
): AppliedRange | null {
  const adopted = adoptServerInterval(asked, {
    interval: answer.interval as Horizon,
    start: epochMs(answer.range.start),
    end: epochMs(answer.range.end),
  });
  if (adopted.interval === asked.interval && adopted.start === asked.start && adopted.end === asked.end)
    return null;
  return {
    ...adopted,
    quicklink: adopted.start === asked.start && adopted.end === asked.end ? asked.quicklink : null,
  };
}

/** An interval's label on the company clock: hours by time, days by date, weeks by their Monday, months by name. */
export function intervalLabel(
  c: { start: number; shopDate: string },
  interval: Horizon,
  opts: { timeZone: string; locale?: string },
): string {
  const [y, m, d] = c.shopDate.split('-').map(Number) as [number, number, number];
  const day = new Date(Date.UTC(y, m - 1, d));
  const utc = (o: Intl.DateTimeFormatOptions) =>
    new Intl.DateTimeFormat(opts.locale, { ...o, timeZone: 'UTC' }).format(day);
  switch (interval) {
    case 'hour':
    case 'shift':
      return new Intl.DateTimeFormat(opts.locale, {
        month: 'short',
        day: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
        timeZone: opts.timeZone,
      }).format(c.start);
    case 'day':
      return utc({ month: 'short', day: 'numeric', weekday: 'short' });
    case 'week':
      return tr('utilization.weekOf', { date: utc({ month: 'short', day: 'numeric' }) });
    case 'month':
      return utc({ month: 'short', year: 'numeric' });
    case 'quarter':
      return `Q${Math.floor((m - 1) / 3) + 1} ${y}`;
  }
}

/** Drilling into an interval: its own range, one horizon finer (a day bar opens its hours). */
export function drillInterval(c: { start: number; end: number }, interval: Horizon): AppliedRange {
  const finer: Record<Horizon, Horizon> = {
    quarter: 'month',
    month: 'week',
    week: 'day',
    day: 'hour',
    shift: 'hour',
    hour: 'hour',
  };
  return { interval: finer[interval], start: c.start as EpochMs, end: c.end as EpochMs, quicklink: null };
}

// ---- Drill-down in the URL (reports-admin §2: the reports read group, machine, interval, start, end, quicklink)

export interface DrillDown {
  group: string | null;
  machine: string | null;
}

export const readDrillDown = (q: URLSearchParams): DrillDown => ({
  group: q.get('group') || null,
  machine: q.get('machine') || null,
});

/**
 * Whom a report's title names: the machine drilled into (by the dashboard's names, else as the answer names
 * it), else the group, else `all`; '…' until a name is known.
 */
export function reportSubject(
  names: {
    groups: readonly { id: string; name: string }[];
    machines: readonly { id: string; name: string }[];
  },
  d: DrillDown,
  all: string,
  answered: string | undefined,
): string {
  if (d.machine) return names.machines.find((m) => m.id === d.machine)?.name ?? answered ?? '…';
  if (d.group) return names.groups.find((g) => g.id === d.group)?.name ?? '…';
  return all;
}

/** Opens a group (leaving any machine) or a machine (keeping the group it was opened from); dates stay. */
export function drillTo(q: URLSearchParams, param: 'group' | 'machine', id: string | null): URLSearchParams {
  const next = new URLSearchParams(q);
  if (param === 'group') next.delete('machine');
  if (id) next.set(param, id);
  else next.delete(param);
  return next;
}

/** reports-admin §2: "A back link clears the drill-down and keeps dates." */
export function returnToAll(q: URLSearchParams): URLSearchParams {
  const next = new URLSearchParams(q);
  next.delete('group');
  next.delete('machine');
  return next;
}

// ---- Sortable lists (reports-admin §2 "List table: sortable")

export type SortDirection = 'ascending' | 'descending';
export interface Sort<K extends string> {
  key: K;
  direction: SortDirection;
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/**
 * Rows sorted by name, or by a value where rows without one sort last in both directions; ties by name.
 * `value` is not called for the 'name' key.
 */
export function sortRows<R, K extends string>(
  rows: readonly R[],
  sort: Sort<K | 'name'>,
  nameOf: (r: R) => string,
  value: (r: R, key: K) => number | null | undefined,
): R[] {
  const dir = sort.direction === 'ascending' ? 1 : -1;
  return [...rows].sort((a, b) => {
    if (sort.key === 'name') return collator.compare(nameOf(a), nameOf(b)) * dir;
    const key = sort.key as K;
    const x = value(a, key) ?? null;
    const y = value(b, key) ?? null;
    if (x == null || y == null) {
      if (x != null) return -1;
      if (y != null) return 1;
    } else if (x !== y) return (x - y) * dir;
    return collator.compare(nameOf(a), nameOf(b));
  });
}

/** A click on a column: names start A→Z, figures start highest first; a second click flips. */
export function nextSort<K extends string>(current: Sort<K>, key: K): Sort<K> {
  if (current.key !== key) return { key, direction: key === 'name' ? 'ascending' : 'descending' };
  return { key, direction: current.direction === 'ascending' ? 'descending' : 'ascending' };
}

/**
 * A time in a report's list or tooltip, on the company clock, without the year the range already names: short
 * enough for a phone. `weekday` and `seconds` where the list needs them (cycles to the second).
 */
export function listTimeFormat(
  lz: LZ,
  o: { weekday?: boolean; seconds?: boolean } = {},
): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat(lz.locale, {
    ...(o.weekday ? { weekday: 'short' as const } : {}),
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    ...(o.seconds ? { second: '2-digit' as const } : {}),
    timeZone: lz.timeZone,
  });
}
