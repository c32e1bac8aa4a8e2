import type { DowntimeMs } from '@takt/domain';
import { sql } from 'kysely';
import { numberedPlaceholders } from '../batch-insert';
import type { Ranges } from './cell-reads';
import type { CompanyScope } from '../scope';
import { firstAtOrAfterIn } from './week-rows';

// The week index's reads of reasons, packed, and their sums by ranges (week-index.ts, decisions 1157, 1166, 1217, 1232).

/** An in-shift week row's downtime by reason as the database gives it (decision 1166): its start, shift, map. */
type ReasonRow = readonly [start: number, shiftId: string, byReason: Readonly<Record<string, DowntimeMs>>];

/**
 * A machine's in-shift week rows' downtime by reason, packed in typed arrays (decision 1232): row i starts at
 * `start[i]` in shift `shiftIds[shift[i]]`, its reasons are entries `from[i]` to `from[i + 1]` of `reason` (an
 * index into `reasonKeys`), `planned` and `unplanned`. Rows by start. A year of 100 machines was ~50,000 kept
 * objects (a tuple, a map and a pair a reason per row), which the collector copied at every cold load and the
 * sums walked with Object.entries; packed it is a few arrays a machine.
 */
export interface MachineReasons {
  readonly start: Float64Array;
  readonly shift: Int32Array;
  readonly shiftIds: readonly string[];
  readonly from: Uint32Array;
  readonly reason: Int32Array;
  readonly reasonKeys: readonly string[];
  readonly planned: Float64Array;
  readonly unplanned: Float64Array;
}

/** The memory a machine's packed reasons hold (what the week index counts against its bound). */
export const reasonBytes = (r: MachineReasons): number =>
  r.start.byteLength +
  r.shift.byteLength +
  r.from.byteLength +
  r.reason.byteLength +
  r.planned.byteLength +
  r.unplanned.byteLength +
  64 * (r.shiftIds.length + r.reasonKeys.length);

/** A machine's reason rows (sorted by start) packed (see MachineReasons). */
export function packReasons(rows: readonly ReasonRow[]): MachineReasons {
  const n = rows.length;
  const shiftIds: string[] = [];
  const reasonKeys: string[] = [];
  const shiftSlot = new Map<string, number>();
  const reasonSlot = new Map<string, number>();
  let entries = 0;
  for (const r of rows) for (const _ in r[2]) entries++;
  const start = new Float64Array(n);
  const shift = new Int32Array(n);
  const from = new Uint32Array(n + 1);
  const reason = new Int32Array(entries);
  const planned = new Float64Array(entries);
  const unplanned = new Float64Array(entries);
  let k = 0;
  for (let i = 0; i < n; i++) {
    const [at, shiftId, byReason] = rows[i]!;
    start[i] = at;
    let slot = shiftSlot.get(shiftId);
    if (slot === undefined) shiftSlot.set(shiftId, (slot = shiftIds.push(shiftId) - 1));
    shift[i] = slot;
    from[i] = k;
    for (const key in byReason) {
      let r = reasonSlot.get(key);
      if (r === undefined) reasonSlot.set(key, (r = reasonKeys.push(key) - 1));
      const v = byReason[key]!;
      reason[k] = r;
      planned[k] = v.plannedMs;
      unplanned[k] = v.unplannedMs;
      k++;
    }
  }
  from[n] = k;
  return { start, shift, shiftIds, from, reason, reasonKeys, planned, unplanned };
}

/**
 * Mutates `out`: adds the downtime by reason of the machine's rows starting in `ranges`, in the selected shifts
 * (null: every in-shift row), as addDowntimeByReasonInto adds each row's map (a reason seen in a selected row gets
 * its entry even when zero). Whole milliseconds: summed per machine first, the same sums.
 */
export function addReasonsInto(
  out: Record<string, DowntimeMs>,
  r: MachineReasons,
  ranges: Ranges,
  shiftIds: ReadonlySet<string> | null,
): void {
  const shiftOn = r.shiftIds.map((id) => !shiftIds || shiftIds.has(id));
  const sums = new Float64Array(r.reasonKeys.length * 2);
  const seen = new Uint8Array(r.reasonKeys.length);
  for (const range of ranges) {
    const end = firstAtOrAfterIn(r.start, range.end);
    for (let i = firstAtOrAfterIn(r.start, range.start); i < end; i++) {
      if (!shiftOn[r.shift[i]!]) continue;
      for (let k = r.from[i]!; k < r.from[i + 1]!; k++) {
        const slot = r.reason[k]!;
        seen[slot] = 1;
        sums[2 * slot] = sums[2 * slot]! + r.planned[k]!;
        sums[2 * slot + 1] = sums[2 * slot + 1]! + r.unplanned[k]!;
      }
    }
  }
  for (let slot = 0; slot < seen.length; slot++) {
    if (!seen[slot]) continue;
    const d = (out[r.reasonKeys[slot]!] ??= { plannedMs: 0, unplannedMs: 0 });
    d.plannedMs += sums[2 * slot]!;
    d.unplannedMs += sums[2 * slot + 1]!;
  }
}

/**
 * The company's (or those machines', starting in `ranges` when given) in-shift week rows' downtime by reason, by
 * machine, packed (decision 1232): one JSON array per machine built by the database (decision 1217), as seriesRows
 * reads the rows, instead of a driver row and a parse per week row (~10,000 for a year of 100 machines). `since`: as
 * readWeeks' (a machine's rows starting before its value left out).
 */
export async function loadReasons(
  scope: CompanyScope,
  machineIds: string[] | undefined,
  read: { reasons: number } | undefined,
  ranges?: Ranges,
  since?: (machineId: string) => number,
): Promise<Map<string, MachineReasons>> {
  const rows = numberedPlaceholders(scope.db)
    ? sql<string>`json_agg(json_build_array(start_at, shift_id, reasons::json -> 'downtimeByReason'))::text`
    : sql<string>`json_group_array(json_array(start_at, shift_id, reasons -> '$.downtimeByReason'))`;
  let q = scope
    .selectFrom('rollup_weeks')
    .select(['machine_id', rows.as('rows')])
    .where('shift_id', 'is not', null)
    .groupBy('machine_id');
  if (machineIds) q = q.where('machine_id', 'in', machineIds);
  if (ranges)
    q = q.where((eb) =>
      eb.or(ranges.map((r) => eb.and([eb('start_at', '>=', r.start), eb('start_at', '<', r.end)]))),
    );
  const parts = await q.execute();
  const byMachine = new Map<string, MachineReasons>();
  for (const p of parts) {
    let list = JSON.parse(p.rows) as ReasonRow[];
    if (since) {
      const from = since(p.machine_id);
      list = list.filter((r) => r[0] >= from);
      if (list.length === 0) continue;
    }
    list.sort((a, b) => a[0] - b[0]);
    byMachine.set(p.machine_id, packReasons(list));
    if (read) read.reasons += list.length;
  }
  return byMachine;
}
