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
// Decision 1242: a machine's packs hold its rows that start before its open week (the company week of its latest row),
// and the pack of its latest span says where that week starts (its open bound); the rows from there on are read as
// rows with the packs. So a recompute that changes only the open week's rows (the rollup worker's, all day long)
// writes no pack: each rewrite of a pack left a dead row version and its TOAST chunks on PostgreSQL.

/** The span of week row starts one pack holds (2^33 ms, ~99 days: ~14 weeks, a few kB a machine). */
export const PACK_SPAN_MS = 2 ** 33;
const VERSION = 2;
/**
 * version, rows, reason rows, reason entries, names' JSON length (five 32-bit words), a pad, then the open bound (a
 * Float64 at OPEN_AT: decision 1242). Version 1 had no bound and 20 bytes (its pack holds every row of its span).
 */
const HEADER_BYTES = 32;
const OPEN_AT = 24;
const V1_HEADER_BYTES = 20;
/** An upper bound of the week row starts (a range's end in SQL, where Infinity is no bigint). */
const NO_END = Number.MAX_SAFE_INTEGER;
/** The packs hold the platform's typed arrays as they are: little-endian only (elsewhere the rows are read). */
export const PACKS_POSSIBLE = endianness() === 'LE';

const align8 = (n: number) => Math.ceil(n / 8) * 8;

/**
 * A machine's week rows of one span packed: the header, the shift ids and reason keys as JSON, then the Float64
 * columns (the series' 13, computed_at, the reasons' start, planned, unplanned), then the Int32 ones (the series'
 * shift slot, the reasons' shift slot, first entry a row and its n + 1 bound, reason slot). `open`: the machine's open
 * bound when written (its rows from there on are in no pack).
 */
export function encodePack(w: MachineWeeks, r: MachineReasons | undefined, open: number): Buffer {
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
  new Float64Array(buffer, OPEN_AT, 1)[0] = open;
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

/** One decoded pack: its counts, names, open bound and its two sections (views of an aligned copy). */
interface Pack {
  /** The machine's open bound when it was written; a version 1 pack's: Infinity (it holds every row of its span). */
  open: number;
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
  if (version !== VERSION && version !== 1) throw new Error(`rollup_week_packs: unknown version ${version}`);
  const headBytes = version === 1 ? V1_HEADER_BYTES : HEADER_BYTES;
  const names = JSON.parse(Buffer.from(bytes.buffer, at + headBytes, length!).toString()) as {
    s: string[];
    r: string[];
    k: string[];
  };
  const head = at + align8(headBytes + length!);
  const f64 = (SERIES_COLUMNS.length + 1) * n! + m! + 2 * e!;
  return {
    open: version === 1 ? Number.POSITIVE_INFINITY : new Float64Array(bytes.buffer, at + OPEN_AT, 1)[0]!,
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

/**
 * What the week index takes from the packs: each machine's rows, their totals, and its reasons (in-shift rows only);
 * `packed`: how many of a machine's rows came from its packs (the rest: its open weeks' rows, read as rows).
 */
export interface PackedWeeks {
  weeks: Map<string, MachineWeeks>;
  totals: Map<string, Totals>;
  reasons: Map<string, MachineReasons>;
  packed: Map<string, number>;
}

/**
 * A machine's open bound from the pack of its latest span: its rows starting from there are in no pack. A version 1
 * pack held every row of its span: the span's end.
 */
const boundOf = (spanStart: number, open: number) =>
  Number.isFinite(open) ? open : spanStart + PACK_SPAN_MS;

/**
 * The company's stored packs as they are (trusted or not), by machine, each with the rows of its open weeks read
 * after them (decision 1242; a machine without packs: all its rows).
 */
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
  const bounds = new Map<string, number>();
  for (const [id, list] of byMachine) {
    list.sort((a, b) => a.at - b.at);
    const last = list[list.length - 1]!;
    bounds.set(id, boundOf(last.at, last.pack.open));
  }
  const open = await openRows(scope, bounds);
  const out: PackedWeeks = { weeks: new Map(), totals: new Map(), reasons: new Map(), packed: new Map() };
  for (const id of new Set([...byMachine.keys(), ...open.keys()])) {
    const packs = (byMachine.get(id) ?? []).map((p) => p.pack);
    out.packed.set(
      id,
      packs.reduce((n, p) => n + p.n, 0),
    );
    const { weeks, reasons } = joinPacks([...packs, ...(open.get(id) ?? [])]);
    out.weeks.set(id, weeks);
    out.totals.set(id, totalsOf(weeks.computedAt));
    if (reasons) out.reasons.set(id, reasons);
  }
  return out;
}

/**
 * Decision 1242: the rows in no pack, by machine, each read as a pack (in time order) to join with its packs: a
 * machine's rows from its bound on (`bounds`); with no pack at all, every row. Live machines share one bound (the
 * company week now): one read of their rows from there on (by machine: the (machine_id, start_at) index), and one of
 * the machines behind it (an idle or retired machine's open week) between theirs and it, each machine's rows before
 * its bound dropped. A machine with rows and no pack (written behind the writer's back: the writer gives a machine's
 * first rows an empty pack holding its bound) is not read here: its totals are not the stamp's (packedWeeks).
 */
async function openRows(scope: CompanyScope, bounds: Map<string, number>): Promise<Map<string, Pack[]>> {
  let top = Number.NEGATIVE_INFINITY;
  for (const b of bounds.values()) top = Math.max(top, b);
  const behind = [...bounds].filter(([, b]) => b < top);
  const reads: Array<{ ids: string[] | null; ranges: Ranges | null }> = [
    bounds.size > 0
      ? {
          ids: [...bounds].filter(([, b]) => b === top).map(([id]) => id),
          ranges: [{ start: top, end: NO_END }],
        }
      : { ids: null, ranges: null },
  ];
  if (behind.length > 0)
    reads.unshift({
      ids: behind.map(([id]) => id),
      ranges: [{ start: Math.min(...behind.map(([, b]) => b)), end: top }],
    });
  const since = (id: string) => bounds.get(id) ?? Number.NEGATIVE_INFINITY;
  const read = await Promise.all(
    reads.map(({ ids, ranges }) =>
      Promise.all([
        readWeeks(scope, ids, ranges, since),
        loadReasons(scope, ids ?? undefined, undefined, ranges ?? undefined, since),
      ]),
    ),
  );
  const out = new Map<string, Pack[]>();
  for (const [weeks, reasons] of read)
    for (const [id, w] of weeks) {
      const list = out.get(id) ?? [];
      if (list.length === 0) out.set(id, list);
      list.push(decodePack(encodePack(w, reasons.get(id), Number.POSITIVE_INFINITY)));
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
    packed: got.packed,
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
      read.packed += out.packed.get(id) ?? 0;
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

const spanOf = (t: number) => Math.floor(t / PACK_SPAN_MS) * PACK_SPAN_MS;

/**
 * Mutates: the machine's packs brought up to its week rows after the writer wrote those of the weeks `touched` (in
 * its transaction, after its writes; the rows read back: what readWeeks and loadReasons give), decision 1242: its
 * packs hold each of its rows that starts before its open week, `openWeekOf` its latest row's start (the company week
 * that holds it; the start itself when no clock is at hand), and the pack of its latest span holds that bound (even
 * with no row). Nothing is written while its open week stays and the rows touched are in it: the rollup worker's
 * recomputes of today. When rows before it changed, the packs of their spans are written again; when the open week
 * moves (a new week's first rows), so are those of the spans between the two bounds, and a pack of a later span goes.
 * Each span's pack replaced, or deleted when it holds no row. How many packs were written.
 */
export async function writeWeekPacks(
  trx: Kysely<Database>,
  of: { companyId: string; machineId: string },
  touched: { start: number; end: number },
  openWeekOf: (latest: number) => number = (latest) => latest,
): Promise<number> {
  if (!PACKS_POSSIBLE) return 0;
  const scope = companyScope(trx, of.companyId);
  const ids = [of.machineId];
  const packs = () => scope.deleteFrom('rollup_week_packs').where('machine_id', '=', of.machineId);
  // The bound of the latest span's pack: only its header (on PostgreSQL a slice of the detoasted value).
  const head = numberedPlaceholders(trx)
    ? sql<Uint8Array>`substring(pack from 1 for ${sql.lit(HEADER_BYTES)})`
    : sql<Uint8Array>`substr(pack, 1, ${sql.lit(HEADER_BYTES)})`;
  const latest = await scope
    .selectFrom('rollup_week_packs')
    .select(['span_start', head.as('head')])
    .where('machine_id', '=', of.machineId)
    .orderBy('span_start', 'desc')
    .limit(1)
    .executeTakeFirst();
  const was = latest && boundOf(Number(latest.span_start), headerOpen(latest.head));
  const rows = await scope
    .selectFrom('rollup_weeks')
    .select((eb) => [eb.fn.min('start_at').as('first'), eb.fn.max('start_at').as('last')])
    .where('machine_id', '=', of.machineId)
    .executeTakeFirstOrThrow();
  if (rows.last === null) {
    if (latest) await packs().execute();
    return 0;
  }
  const open = openWeekOf(Number(rows.last));
  if (open === was && touched.start >= open) return 0;
  // Packed rows that may have changed start at `from`: the rows touched, those between the old and new bounds, all of
  // a machine without packs.
  const from =
    was === undefined ? Number(rows.first) : Math.min(touched.start, open, open === was ? open : was);
  const last = open === was ? spanOf(Math.min(touched.end, open) - 1) : spanOf(open);
  let written = 0;
  for (let at = spanOf(from); at <= last; at += PACK_SPAN_MS) {
    const ranges: Ranges = [{ start: at, end: Math.min(at + PACK_SPAN_MS, open) }];
    const weeks = at < open ? (await readWeeks(scope, ids, ranges)).get(of.machineId) : undefined;
    if (!weeks && at !== spanOf(open)) {
      await packs().where('span_start', '=', at).execute();
      continue;
    }
    const reasons = weeks && (await loadReasons(scope, ids, undefined, ranges)).get(of.machineId);
    const pack = encodePack(
      weeks ?? { series: newSeries(0), computedAt: new Float64Array(0) },
      reasons,
      open,
    );
    await scope
      .insertInto('rollup_week_packs', { machine_id: of.machineId, span_start: at, pack })
      .onConflict((oc) => oc.columns(['company_id', 'machine_id', 'span_start']).doUpdateSet({ pack }))
      .execute();
    written++;
  }
  if (open !== was) await packs().where('span_start', '>', spanOf(open)).execute();
  return written;
}

/** The open bound in a pack's first bytes (Infinity: a version 1 pack, holding every row of its span). */
function headerOpen(head: Uint8Array): number {
  const b = Buffer.from(head.buffer, head.byteOffset, head.byteLength);
  return b.readUInt32LE(0) === 1 ? Number.POSITIVE_INFINITY : b.readDoubleLE(OPEN_AT);
}
