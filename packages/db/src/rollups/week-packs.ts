import { endianness } from 'node:os';
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { newSeries, SERIES_COLUMNS } from '@takt/domain';
import type { Database } from '../schema';
import { numberedPlaceholders } from '../batch-insert';
import { companyScope } from '../scope';
import type { CompanyScope } from '../scope';
import type { Ranges } from './cell-reads';
import { loadReasons } from './week-reasons';
import type { MachineReasons } from './week-reasons';
import { readWeeks } from './week-rows';
import type { MachineWeeks } from './week-rows';
import { sameTotals, totalsOf } from './week-stamp';
import type { Totals } from './week-stamp';

// Decision 1235 (migration 0073): each machine's week rows and their in-shift downtime by reason stored packed, one
// row a machine and span of PACK_SPAN_MS (rollup_week_packs), written by the week rows' writer in its transaction
// (days.ts writeRollupWeeks). A cold week index reads these few blobs as typed arrays instead of the ~16,000 rows
// and ~10,000 reason maps of a year of 100 machines that the database wrote as JSON text (decision 1233: most of a
// cold call). A pack is what readWeeks and loadReasons give for its rows; it is trusted only where it adds up: the
// packs' count, latest and sum of computed_at must equal the stamp's, else each machine's are compared with its rows'
// and the machines whose pack does not add up (a week row written behind the writer's back, rows older than the
// packs) are read from their rows as before.

/** The span of week row starts one pack holds (2^33 ms, ~99 days: ~14 weeks, a few kB a machine). */
export const PACK_SPAN_MS = 2 ** 33;
const VERSION = 1;
/** version, rows, reason rows, reason entries, names' JSON length: five 32-bit words. */
const HEADER_BYTES = 20;
/** The packs hold the platform's typed arrays as they are: little-endian only (elsewhere the rows are read). */
export const PACKS_POSSIBLE = endianness() === 'LE';

const align8 = (n: number) => Math.ceil(n / 8) * 8;

/**
 * A machine's week rows of one span packed: the header, the shift ids and reason keys as JSON, then the Float64
 * columns (the series' 13, computed_at, the reasons' start, planned, unplanned), then the Int32 ones (the series'
 * shift slot, the reasons' shift slot, first entry a row and its n + 1 bound, reason slot).
 */
export function encodePack(w: MachineWeeks, r: MachineReasons | undefined): Buffer {
  const n = w.series.length;
  const m = r?.start.length ?? 0;
  const e = r?.reason.length ?? 0;
  const names = Buffer.from(
    JSON.stringify({ s: w.series.shiftIds, r: r?.shiftIds ?? [], k: r?.reasonKeys ?? [] }),
  );
  const head = align8(HEADER_BYTES + names.length);
  const f64 = (SERIES_COLUMNS.length + 1) * n + m + 2 * e;
  const i32 = n + m + (m + 1) + e;
  const buffer = new ArrayBuffer(head + 8 * f64 + 4 * i32);
  new Uint32Array(buffer, 0, 5).set([VERSION, n, m, e, names.length]);
  new Uint8Array(buffer).set(names, HEADER_BYTES);
  let at = head;
  const f = (a: Float64Array) => {
    new Float64Array(buffer, at, a.length).set(a);
    at += 8 * a.length;
  };
  const i = (a: Int32Array | Uint32Array) => {
    new Int32Array(buffer, at, a.length).set(a);
    at += 4 * a.length;
  };
  for (const c of SERIES_COLUMNS) f(w.series[c]);
  f(w.computedAt);
  if (r) [r.start, r.planned, r.unplanned].forEach(f);
  i(w.series.shift);
  if (r) [r.shift, r.from, r.reason].forEach(i);
  else i(Uint32Array.of(0));
  return Buffer.from(buffer);
}

/** One decoded pack: its counts, names and its two sections (views of an aligned copy). */
interface Pack {
  n: number;
  m: number;
  e: number;
  shiftIds: string[];
  reasonShiftIds: string[];
  reasonKeys: string[];
  f64: Float64Array;
  i32: Int32Array;
}

function decodePack(stored: Uint8Array): Pack {
  // Typed views need 8-byte alignment: a driver's buffer is used as it is when it has it (a blob of a few kB gets its
  // own memory), else copied.
  let bytes = stored;
  if (bytes.byteOffset % 8 !== 0) (bytes = new Uint8Array(stored.length)).set(stored);
  const at = bytes.byteOffset;
  const [version, n, m, e, length] = new Uint32Array(bytes.buffer, at, 5) as unknown as number[];
  if (version !== VERSION) throw new Error(`rollup_week_packs: unknown version ${version}`);
  const names = JSON.parse(Buffer.from(bytes.buffer, at + HEADER_BYTES, length!).toString()) as {
    s: string[];
    r: string[];
    k: string[];
  };
  const head = at + align8(HEADER_BYTES + length!);
  const f64 = (SERIES_COLUMNS.length + 1) * n! + m! + 2 * e!;
  return {
    n: n!,
    m: m!,
    e: e!,
    shiftIds: names.s,
    reasonShiftIds: names.r,
    reasonKeys: names.k,
    f64: new Float64Array(bytes.buffer, head, f64),
    i32: new Int32Array(bytes.buffer, head + 8 * f64, n! + m! + (m! + 1) + e!),
  };
}

/** Copies `count` values of `from` from `f` into `into` at `at` (a loop: a few hundred small copies a load, where a
 * subarray each cost more than the copy); returns where `from`'s next values start. */
function copy(into: Float64Array, at: number, from: Float64Array, f: number, count: number): number {
  for (let k = 0; k < count; k++) into[at + k] = from[f + k]!;
  return f + count;
}

/**
 * Copies `count` slots of `from` from `f` into `into` at `at`, each renumbered through `slots` (-1 kept: outside
 * shift time); returns where `from`'s next values start.
 */
function copySlots(
  into: Int32Array,
  at: number,
  from: Int32Array,
  f: number,
  count: number,
  slots: Int32Array,
) {
  for (let k = 0; k < count; k++) into[at + k] = from[f + k]! < 0 ? -1 : slots[from[f + k]!]!;
  return f + count;
}

/** Slots of `ids` in `all` (numbered as they first come, as packSeriesRows and packReasons number them). */
function slotsIn(all: string[], index: Map<string, number>, ids: readonly string[]): Int32Array {
  const out = new Int32Array(ids.length);
  for (let k = 0; k < ids.length; k++) {
    let slot = index.get(ids[k]!);
    if (slot === undefined) index.set(ids[k]!, (slot = all.push(ids[k]!) - 1));
    out[k] = slot;
  }
  return out;
}

/** A machine's packs (by span, in time order) joined: its week rows and reasons as readWeeks and loadReasons give them. */
function joinPacks(packs: readonly Pack[]): { weeks: MachineWeeks; reasons: MachineReasons | null } {
  let [n, m, e] = [0, 0, 0];
  for (const p of packs) [n, m, e] = [n + p.n, m + p.m, e + p.e];
  const series = newSeries(n);
  const computedAt = new Float64Array(n);
  const [shiftIndex, reasonShiftIndex, keyIndex] = [new Map(), new Map(), new Map()] as Map<string, number>[];
  const reasons = {
    start: new Float64Array(m),
    shift: new Int32Array(m),
    shiftIds: [] as string[],
    from: new Uint32Array(m + 1),
    reason: new Int32Array(e),
    reasonKeys: [] as string[],
    planned: new Float64Array(e),
    unplanned: new Float64Array(e),
  };
  let [row, reasonRow, entry] = [0, 0, 0];
  for (const p of packs) {
    const { f64, i32 } = p;
    let f = 0;
    for (const c of SERIES_COLUMNS) f = copy(series[c], row, f64, f, p.n);
    f = copy(computedAt, row, f64, f, p.n);
    f = copy(reasons.start, reasonRow, f64, f, p.m);
    f = copy(reasons.planned, entry, f64, f, p.e);
    copy(reasons.unplanned, entry, f64, f, p.e);
    let i = copySlots(series.shift, row, i32, 0, p.n, slotsIn(series.shiftIds, shiftIndex!, p.shiftIds));
    const reasonShifts = slotsIn(reasons.shiftIds, reasonShiftIndex!, p.reasonShiftIds);
    i = copySlots(reasons.shift, reasonRow, i32, i, p.m, reasonShifts);
    for (let k = 0; k < p.m; k++) reasons.from[reasonRow + k] = entry + i32[i + k]!;
    i += p.m + 1;
    copySlots(reasons.reason, entry, i32, i, p.e, slotsIn(reasons.reasonKeys, keyIndex!, p.reasonKeys));
    [row, reasonRow, entry] = [row + p.n, reasonRow + p.m, entry + p.e];
  }
  reasons.from[m] = e;
  return { weeks: { series, computedAt }, reasons: m > 0 ? reasons : null };
}

/** What the week index takes from the packs: each machine's rows, their totals, and its reasons (in-shift rows only). */
export interface PackedWeeks {
  weeks: Map<string, MachineWeeks>;
  totals: Map<string, Totals>;
  reasons: Map<string, MachineReasons>;
}

/** The company's stored packs as they are (trusted or not), by machine. */
export async function storedWeekPacks(scope: CompanyScope): Promise<PackedWeeks> {
  const stored = numberedPlaceholders(scope.db)
    ? await copiedPacks(scope)
    : await scope.selectFrom('rollup_week_packs').select(['machine_id', 'span_start', 'pack']).execute();
  const byMachine = new Map<string, Array<{ at: number; pack: Pack }>>();
  for (const s of stored) {
    const list = byMachine.get(s.machine_id) ?? [];
    if (list.length === 0) byMachine.set(s.machine_id, list);
    list.push({ at: Number(s.span_start), pack: decodePack(s.pack) });
  }
  const out: PackedWeeks = { weeks: new Map(), totals: new Map(), reasons: new Map() };
  for (const [id, list] of byMachine) {
    const { weeks, reasons } = joinPacks(list.sort((a, b) => a.at - b.at).map((p) => p.pack));
    out.weeks.set(id, weeks);
    out.totals.set(id, totalsOf(weeks.computedAt));
    if (reasons) out.reasons.set(id, reasons);
  }
  return out;
}

/**
 * PostgreSQL: the company's packs as COPY's binary format sends them (copy.ts, decision 1240): the bytes as stored.
 * A select sends a bytea as text the server encodes and the client decodes (base64: most of the read's 29–47 ms of
 * server time at load 7, against 8–9 ms to detoast them). COPY takes no parameters: the company id is a literal.
 */
async function copiedPacks(
  scope: CompanyScope,
): Promise<Array<{ machine_id: string; span_start: number; pack: Uint8Array }>> {
  const { rows } = await sql<Array<Buffer | null>>`copy (select machine_id, span_start, pack
      from rollup_week_packs where company_id = ${sql.lit(scope.companyId)}) to stdout with (format binary)`.execute(
    scope.db,
  );
  return rows.map(([id, at, pack]) => ({
    machine_id: id!.toString('utf8'),
    span_start: Number(at!.readBigInt64BE(0)),
    pack: pack!,
  }));
}

/**
 * The company's week rows and reasons from its packs, where they add up (see above): a machine whose pack's count,
 * latest and sum of computed_at are not its rows' has its rows and reasons read instead. `read` counts what was
 * taken: rows and reason rows (as the rows' reads count them), and of those the rows taken from packs. `stored`: the
 * packs read already (storedWeekPacks), when they were.
 */
export async function packedWeeks(
  scope: CompanyScope,
  stamp: Totals,
  read?: { rows: number; reasons: number; packed: number },
  stored?: Promise<PackedWeeks | undefined>,
): Promise<PackedWeeks> {
  // Read before or alongside the stamp (week-index.ts) or now: either way taken only where it adds up (below). The
  // maps copied: a read alongside a stamp may serve two loads (their machines' values are never changed).
  const got = (await stored) ?? (await storedWeekPacks(scope));
  const out: PackedWeeks = {
    weeks: new Map(got.weeks),
    totals: new Map(got.totals),
    reasons: new Map(got.reasons),
  };
  const all: Totals = { n: 0, latest: Number.NEGATIVE_INFINITY, sum: 0n };
  for (const t of out.totals.values()) {
    all.n += t.n;
    all.sum += t.sum;
    all.latest = Math.max(all.latest, t.latest);
  }
  const stale: string[] = [];
  if (!sameTotals(all, stamp)) {
    const { rows } = await sql<{ machine_id: string; n: number | string; at: unknown; s: string }>`select
        machine_id, count(*) as n, max(computed_at) as at, cast(sum(computed_at) as text) as s from rollup_weeks
        where company_id = ${scope.companyId} group by machine_id`.execute(scope.db);
    const unmatched = new Set(out.weeks.keys());
    for (const r of rows) {
      const t = out.totals.get(r.machine_id);
      const sum = /^\d+$/.test(r.s) ? BigInt(r.s) : -1n;
      if (t && sameTotals(t, { n: Number(r.n), latest: Number(r.at), sum })) unmatched.delete(r.machine_id);
      else stale.push(r.machine_id);
    }
    // Packs of machines without rows (deleted behind the writer's back) and those that do not add up: not taken.
    for (const id of [...unmatched, ...stale])
      for (const m of [out.weeks, out.totals, out.reasons]) m.delete(id);
  }
  if (read)
    for (const [id, w] of out.weeks) {
      read.rows += w.series.length;
      read.packed += w.series.length;
      read.reasons += out.reasons.get(id)?.start.length ?? 0;
    }
  if (stale.length > 0) {
    const [weeks, reasons] = await Promise.all([readWeeks(scope, stale), loadReasons(scope, stale, read)]);
    for (const [id, w] of weeks) {
      out.weeks.set(id, w);
      out.totals.set(id, totalsOf(w.computedAt));
      if (read) read.rows += w.series.length;
    }
    for (const [id, r] of reasons) out.reasons.set(id, r);
  }
  return out;
}

/**
 * Mutates: the packs of the machine's week rows starting in [start, end) written again from those rows (read back in
 * the writer's transaction, after its writes: what readWeeks and loadReasons give), each span's pack replaced, or
 * deleted when the span holds no row. Call in the transaction that writes the week rows (days.ts writeRollupWeeks).
 */
export async function writeWeekPacks(
  trx: Kysely<Database>,
  of: { companyId: string; machineId: string },
  span: { start: number; end: number },
): Promise<void> {
  if (!PACKS_POSSIBLE) return;
  const scope = companyScope(trx, of.companyId);
  const ids = [of.machineId];
  for (let at = Math.floor(span.start / PACK_SPAN_MS) * PACK_SPAN_MS; at < span.end; at += PACK_SPAN_MS) {
    const ranges: Ranges = [{ start: at, end: at + PACK_SPAN_MS }];
    const weeks = (await readWeeks(scope, ids, ranges)).get(of.machineId);
    if (!weeks) {
      await scope
        .deleteFrom('rollup_week_packs')
        .where('machine_id', '=', of.machineId)
        .where('span_start', '=', at)
        .execute();
      continue;
    }
    const pack = encodePack(weeks, (await loadReasons(scope, ids, undefined, ranges)).get(of.machineId));
    await scope
      .insertInto('rollup_week_packs', { machine_id: of.machineId, span_start: at, pack })
      .onConflict((oc) => oc.columns(['company_id', 'machine_id', 'span_start']).doUpdateSet({ pack }))
      .execute();
  }
}
