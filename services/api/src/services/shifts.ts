import {
  addDays,
  CHART_COLORS,
  epochMs,
  formatDay,
  parseDay,
  shiftLengthMinutes,
  shiftOccurrences,
  shiftOverlapMessage,
  shiftOverlaps,
  shopDateOf,
  startOfLocalDay,
} from '@takt/domain';
import type { CompanyClock, DayNumber, ShiftDefinition, ShiftVersionView, ShiftView } from '@takt/domain';
import type { CompanyScope } from '@takt/db';
import { ApiError, invalidInput, notFound } from '../http/errors';
import type { ShiftRecord, ShiftVersionRecord } from '../repositories/shifts';
import {
  companyClock,
  deleteShift,
  deleteShiftVersions,
  getShiftWithVersions,
  insertShift,
  insertShiftVersion,
  listShiftsWithVersions,
  renameShift,
  setShiftVersionTermination,
} from '../repositories/shifts';
import { calendarChanged } from '@takt/db/rollups';
import type { ServiceCtx } from './context';

// Shifts (reports-admin §3 Shift; live-operations §7 "Shifts: current shift"). Versions are applied by the
// domain calendar in the company's time zone; "today" is the company's shop date.

/** A shift occurrence (live-operations §3 Shift: id, name, start, end) and its shop date. */
export interface CurrentShift {
  id: string;
  name: string;
  start: number;
  end: number;
  shopDate: string;
}

const toVersionView = (v: ShiftVersionRecord): ShiftVersionView => ({
  startoffsetminutes: v.startoffsetminutes,
  endoffsetminutes: v.endoffsetminutes,
  byweekday: v.byweekday,
  is_termination_set: v.terminationdate != null,
  terminationdate: v.terminationdate,
  effectivedate: v.effectivedate,
});

function shiftView(
  s: { id: string; name: string; versions: ShiftVersionRecord[] },
  today: DayNumber,
): ShiftView | null {
  // Versions arrive sorted by effective date.
  const current = s.versions.filter((v) => parseDay(v.effectivedate) <= today).at(-1) ?? null;
  const latest = s.versions.at(-1) ?? null;
  const first = current ?? latest;
  if (!first) return null;
  return {
    id: s.id,
    name: s.name,
    terminated: current?.terminationdate != null && parseDay(current.terminationdate) <= today,
    current: current && toVersionView(current),
    latest: latest && toVersionView(latest),
    effectivedate: first.effectivedate,
  };
}

async function companyToday(ctx: ServiceCtx): Promise<{ clock: CompanyClock; today: DayNumber }> {
  const clock = await companyClock(ctx.scope);
  return { clock, today: shopDateOf(clock, epochMs(ctx.now)) };
}

/** Every shift with its current and latest versions, by name; terminated ones unless left out. */
export async function listShifts(
  ctx: ServiceCtx,
  opts: { includeTerminated?: boolean } = {},
): Promise<ShiftView[]> {
  const { today } = await companyToday(ctx);
  const shifts = await listShiftsWithVersions(ctx.scope);
  const views = shifts.flatMap((s) => shiftView(s, today) ?? []);
  return opts.includeTerminated === false ? views.filter((v) => !v.terminated) : views;
}

/** The shift occurrence covering instant t in the company's calendar, or null between shifts. */
export async function currentShiftAt(scope: CompanyScope, t: number): Promise<CurrentShift | null> {
  const [clock, shifts] = await Promise.all([companyClock(scope), listShiftsWithVersions(scope)]);
  const defs: ShiftDefinition[] = shifts.map((s) => ({ id: s.id, name: s.name, versions: s.versions }));
  // Wide enough for an occurrence that started up to two days earlier (offsets reach 48 h); where two
  // shifts overlap the calendar gives the time to the one that started first.
  const DAY = 86_400_000;
  const found = shiftOccurrences(clock, defs, epochMs(t - 3 * DAY), epochMs(t + 3 * DAY)).find(
    (o) => o.start <= t && t < o.end,
  );
  return found
    ? {
        id: found.shiftId,
        name: found.name,
        start: found.start,
        end: found.end,
        shopDate: formatDay(found.shopDate),
      }
    : null;
}

/** GET /api/shifts/current: the shift occurrence at the server's now. */
export async function currentShift(ctx: ServiceCtx): Promise<CurrentShift | null> {
  return currentShiftAt(ctx.scope, ctx.now);
}

/** reports-admin §5: a shift change takes effect from tomorrow to one month ahead. */
export const SHIFT_EFFECTIVE_MAX_DAYS = 31;

/** reports-admin §5 texts (and the refusals the spec leaves to us, decision 0704). */
export const SHIFT_TEXTS = {
  effectiveDate: 'The effective date must be from tomorrow to one month ahead.',
  terminationDate: 'The termination date must be from tomorrow to one month ahead.',
  effectiveRequired: 'Missing required field: Effective Date',
  empty: 'A shift cannot be empty',
  terminated: 'Undo the termination before editing the shift.',
  alreadyTerminated: 'The shift is already terminated.',
  notTerminated: 'The shift is not terminated.',
  notStarted: 'The shift has not started yet: delete its pending change instead.',
  noPending: 'The shift has no pending change.',
} as const;

/** reports-admin §9: a new shift lasts 8 hours. */
export const NEW_SHIFT_MINUTES = 480;
/** With no shift to follow, a new shift starts at 06:00 (decision 0704). */
export const FIRST_SHIFT_START_MINUTES = 360;

const badDate = (field: string, message: string) => invalidInput([{ field, code: 'out_of_range', message }]);

/** A date from tomorrow to one month ahead (reports-admin §4, §5), as a day number; 400 otherwise. */
export function changeDay(text: string, today: DayNumber, field: string, message: string): DayNumber {
  const day = parseDay(text);
  if (day <= today || day > addDays(today, SHIFT_EFFECTIVE_MAX_DAYS)) throw badDate(field, message);
  return day;
}

type StoredShift = ShiftRecord & { versions: ShiftVersionRecord[] };

async function loadShift(ctx: ServiceCtx, id: string): Promise<StoredShift> {
  const shift = await getShiftWithVersions(ctx.scope, id);
  if (!shift || shift.versions.length === 0) throw notFound('Shift');
  return shift;
}

async function viewOf(ctx: ServiceCtx, id: string, today: DayNumber): Promise<ShiftView> {
  const view = shiftView(await loadShift(ctx, id), today);
  if (!view) throw new Error('shift without versions');
  return view;
}

/**
 * Shift occurrences of shop date `day` start at or after its local midnight (offsets are minutes after it),
 * so a change from `day` on makes rollups stale from that instant; usually that is after now (nothing to do).
 */
const shiftsChangedFrom = (ctx: ServiceCtx, clock: CompanyClock, day: DayNumber) =>
  calendarChanged(ctx.scope, startOfLocalDay(clock.timezone, day), ctx.now);

const sameDays = (a: readonly number[], b: readonly number[]) =>
  [...new Set(a)].sort().join(',') === [...new Set(b)].sort().join(',');

export interface ShiftTimes {
  startoffsetminutes: number;
  endoffsetminutes: number;
  byweekday: number[];
}

/** GET /api/shifts/defaults: a new shift is 8 hours from the end of the company's last shift (§9). */
export async function newShiftDefaults(
  ctx: ServiceCtx,
): Promise<ShiftTimes & { name: string; effectivedate: string }> {
  const { today } = await companyToday(ctx);
  const running = (await listShiftsWithVersions(ctx.scope))
    .map((s) => s.versions.at(-1))
    .filter((v): v is ShiftVersionRecord => v != null && v.terminationdate == null);
  // The last shift is the one that starts latest in the day; the new one starts when it ends.
  const last = running.sort((a, b) => a.startoffsetminutes - b.startoffsetminutes).at(-1);
  const start = last
    ? (last.startoffsetminutes + shiftLengthMinutes(last)) % 1440
    : FIRST_SHIFT_START_MINUTES;
  return {
    name: '',
    startoffsetminutes: start,
    endoffsetminutes: (start + NEW_SHIFT_MINUTES) % 1440,
    byweekday: [0, 1, 2, 3, 4],
    effectivedate: formatDay(addDays(today, 1)),
  };
}

/** GET /api/shifts/color: a stable colour per shift (by name order, terminated included) for charts. */
export async function shiftColors(
  ctx: ServiceCtx,
): Promise<Array<{ id: string; name: string; color: string }>> {
  const shifts = await listShiftsWithVersions(ctx.scope);
  return shifts.map((s, i) => ({ id: s.id, name: s.name, color: CHART_COLORS[i % CHART_COLORS.length]! }));
}

/**
 * Refuses times that overlap another running shift's latest version unless the admin confirmed the overlap
 * (`allowOverlap`, decision 1050): 409 SHIFT_OVERLAP naming the overlap.
 */
async function checkOverlaps(
  ctx: ServiceCtx,
  candidate: ShiftTimes & { id?: string; name: string },
  allowOverlap: boolean | undefined,
): Promise<void> {
  if (allowOverlap) return;
  const others = (await listShiftsWithVersions(ctx.scope)).flatMap((s) => {
    const v = s.versions.at(-1);
    return v && v.terminationdate == null && s.id !== candidate.id ? [{ ...v, id: s.id, name: s.name }] : [];
  });
  const overlaps = shiftOverlaps(candidate, others);
  if (overlaps.length > 0) {
    const message = `${shiftOverlapMessage(overlaps)} Send allowOverlap: true to keep the overlap.`;
    throw new ApiError(409, 'SHIFT_OVERLAP', message, [
      { field: 'startoffsetminutes', code: 'overlap', message },
    ]);
  }
}

export interface ShiftCreateInput extends Partial<ShiftTimes> {
  name: string;
  /** Save even though the times overlap another shift (decision 1050). */
  allowOverlap?: boolean | undefined;
  /** 'YYYY-MM-DD'; defaults to tomorrow (reports-admin §4: effective from a date at least tomorrow). */
  effectivedate?: string;
}

/** POST /api/shifts: a shift with its first version; missing times take the defaults. */
export async function createShift(ctx: ServiceCtx, input: ShiftCreateInput): Promise<ShiftView> {
  const { clock, today } = await companyToday(ctx);
  const defaults = await newShiftDefaults(ctx);
  const effective = changeDay(
    input.effectivedate ?? defaults.effectivedate,
    today,
    'effectivedate',
    SHIFT_TEXTS.effectiveDate,
  );
  const times = {
    startoffsetminutes: input.startoffsetminutes ?? defaults.startoffsetminutes,
    endoffsetminutes: input.endoffsetminutes ?? defaults.endoffsetminutes,
    byweekday: input.byweekday ?? defaults.byweekday,
  };
  if (times.startoffsetminutes === times.endoffsetminutes)
    throw badDate('endoffsetminutes', SHIFT_TEXTS.empty);
  await checkOverlaps(ctx, { name: input.name.trim(), ...times }, input.allowOverlap);
  const shiftId = await insertShift(ctx.scope, { name: input.name.trim(), createdAt: ctx.now });
  await insertShiftVersion(ctx.scope, {
    shiftId,
    ...times,
    byweekday: [...new Set(times.byweekday)],
    effectivedate: formatDay(effective),
    createdAt: ctx.now,
  });
  await shiftsChangedFrom(ctx, clock, effective);
  return viewOf(ctx, shiftId, today);
}

export interface ShiftUpdateInput extends Partial<ShiftTimes> {
  name?: string;
  allowOverlap?: boolean | undefined;
  effectivedate?: string;
}

/**
 * PUT /api/shifts/:id (reports-admin §4 "edited as a new pending version"): a new name applies at once;
 * new times or days need an effective date and replace any pending version.
 */
export async function updateShift(ctx: ServiceCtx, id: string, input: ShiftUpdateInput): Promise<ShiftView> {
  const { clock, today } = await companyToday(ctx);
  const shift = await loadShift(ctx, id);
  const latest = shift.versions.at(-1)!;
  if (latest.terminationdate != null) throw new ApiError(409, 'SHIFT_TERMINATED', SHIFT_TEXTS.terminated);
  const times = {
    startoffsetminutes: input.startoffsetminutes ?? latest.startoffsetminutes,
    endoffsetminutes: input.endoffsetminutes ?? latest.endoffsetminutes,
    byweekday: [...new Set(input.byweekday ?? latest.byweekday)],
  };
  if (times.startoffsetminutes === times.endoffsetminutes)
    throw badDate('endoffsetminutes', SHIFT_TEXTS.empty);
  const changed =
    times.startoffsetminutes !== latest.startoffsetminutes ||
    times.endoffsetminutes !== latest.endoffsetminutes ||
    !sameDays(times.byweekday, latest.byweekday);
  // reports-admin §5: the effective date is required when times or days change.
  if (changed && !input.effectivedate) throw badDate('effectivedate', SHIFT_TEXTS.effectiveRequired);
  const effective = changed
    ? changeDay(input.effectivedate!, today, 'effectivedate', SHIFT_TEXTS.effectiveDate)
    : null;
  if (changed) await checkOverlaps(ctx, { id, name: shift.name, ...times }, input.allowOverlap);
  if (input.name !== undefined && input.name.trim() !== shift.name)
    await renameShift(ctx.scope, id, input.name.trim());
  if (effective != null) {
    // One pending version at a time: the new one replaces whatever had not started yet.
    const pending = shift.versions.filter((v) => parseDay(v.effectivedate) > today);
    await deleteShiftVersions(
      ctx.scope,
      pending.map((v) => v.id),
    );
    await insertShiftVersion(ctx.scope, {
      shiftId: id,
      ...times,
      effectivedate: formatDay(effective),
      createdAt: ctx.now,
    });
    const from = Math.min(effective, ...pending.map((v) => parseDay(v.effectivedate)));
    await shiftsChangedFrom(ctx, clock, from as DayNumber);
  }
  return viewOf(ctx, id, today);
}

/**
 * PUT /api/shifts/:id/terminate `{ terminationdate? }` (default tomorrow): the shift stops running on that
 * date; versions that would only have started then are dropped.
 */
export async function terminateShift(
  ctx: ServiceCtx,
  id: string,
  input: { terminationdate?: string | undefined },
): Promise<ShiftView> {
  const { clock, today } = await companyToday(ctx);
  const shift = await loadShift(ctx, id);
  if (shift.versions.at(-1)!.terminationdate != null)
    throw new ApiError(409, 'SHIFT_TERMINATED', SHIFT_TEXTS.alreadyTerminated);
  const end = changeDay(
    input.terminationdate ?? formatDay(addDays(today, 1)),
    today,
    'terminationdate',
    SHIFT_TEXTS.terminationDate,
  );
  const dropped = shift.versions.filter((v) => parseDay(v.effectivedate) >= end);
  const kept = shift.versions.filter((v) => parseDay(v.effectivedate) < end);
  const last = kept.at(-1);
  if (!last) throw new ApiError(409, 'SHIFT_NOT_STARTED', SHIFT_TEXTS.notStarted);
  await deleteShiftVersions(
    ctx.scope,
    dropped.map((v) => v.id),
  );
  await setShiftVersionTermination(ctx.scope, last.id, formatDay(end));
  await shiftsChangedFrom(ctx, clock, end);
  return viewOf(ctx, id, today);
}

/**
 * PUT /api/shifts/:id/restore (undoTermination). A termination still ahead is simply cleared; one already
 * in effect is not rewritten (that would change the past): the shift runs again from tomorrow as a new
 * version with the same times.
 */
export async function restoreShift(ctx: ServiceCtx, id: string): Promise<ShiftView> {
  const { clock, today } = await companyToday(ctx);
  const shift = await loadShift(ctx, id);
  const last = shift.versions.at(-1)!;
  if (last.terminationdate == null)
    throw new ApiError(409, 'SHIFT_NOT_TERMINATED', SHIFT_TEXTS.notTerminated);
  const end = parseDay(last.terminationdate);
  if (end > today) {
    await setShiftVersionTermination(ctx.scope, last.id, null);
    await shiftsChangedFrom(ctx, clock, end);
  } else {
    const tomorrow = addDays(today, 1);
    await insertShiftVersion(ctx.scope, {
      shiftId: id,
      startoffsetminutes: last.startoffsetminutes,
      endoffsetminutes: last.endoffsetminutes,
      byweekday: last.byweekday,
      effectivedate: formatDay(tomorrow),
      createdAt: ctx.now,
    });
    await shiftsChangedFrom(ctx, clock, tomorrow);
  }
  return viewOf(ctx, id, today);
}

/**
 * DELETE /api/shifts/:id/pending: drop the versions that have not started yet. A shift that only ever had a
 * pending version is deleted altogether (answer null).
 */
export async function deletePendingShiftChange(ctx: ServiceCtx, id: string): Promise<ShiftView | null> {
  const { clock, today } = await companyToday(ctx);
  const shift = await loadShift(ctx, id);
  const pending = shift.versions.filter((v) => parseDay(v.effectivedate) > today);
  if (pending.length === 0) throw new ApiError(404, 'NOT_FOUND', SHIFT_TEXTS.noPending);
  if (pending.length === shift.versions.length) await deleteShift(ctx.scope, id);
  else
    await deleteShiftVersions(
      ctx.scope,
      pending.map((v) => v.id),
    );
  await shiftsChangedFrom(ctx, clock, parseDay(pending[0]!.effectivedate));
  return pending.length === shift.versions.length ? null : viewOf(ctx, id, today);
}
