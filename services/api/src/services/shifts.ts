import { addDays, epochMs, formatDay, parseDay, shiftOccurrences, shopDateOf } from '@takt/domain';
import type { DayNumber, ShiftDefinition } from '@takt/domain';
import type { CompanyScope } from '../db/scope';
import { ApiError } from '../http/errors';
import type { ShiftVersionRecord } from '../repositories/shifts';
import {
  companyClock,
  insertShift,
  insertShiftVersion,
  listShiftsWithVersions,
} from '../repositories/shifts';
import type { ServiceCtx } from './context';

// Shifts (reports-admin §3 Shift; live-operations §7 "Shifts: current shift"). Versions are applied by the
// domain calendar in the company's time zone; "today" is the company's shop date.

/** reports-admin §3 Shift version as the API answers it. */
export interface ShiftVersionView {
  startoffsetminutes: number;
  endoffsetminutes: number;
  /** 0 = Monday … 6 = Sunday. */
  byweekday: number[];
  is_termination_set: boolean;
  terminationdate: string | null;
  effectivedate: string;
}

/** reports-admin §3 Shift: the version in force today and the latest one (a pending change when later). */
export interface ShiftView {
  id: string;
  name: string;
  terminated: boolean;
  current: ShiftVersionView | null;
  latest: ShiftVersionView | null;
  effectivedate: string;
}

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

/** Every shift with its current and latest versions, by name. */
export async function listShifts(ctx: ServiceCtx): Promise<ShiftView[]> {
  const clock = await companyClock(ctx.scope);
  const today = shopDateOf(clock, epochMs(ctx.now));
  const shifts = await listShiftsWithVersions(ctx.scope);
  return shifts.flatMap((s) => shiftView(s, today) ?? []);
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

export interface ShiftCreateInput {
  name: string;
  startoffsetminutes: number;
  endoffsetminutes: number;
  byweekday: number[];
  /** 'YYYY-MM-DD'; defaults to today's shop date. */
  effectivedate?: string;
}

/** reports-admin §5: a new shift takes effect between today and one month ahead. */
export const SHIFT_EFFECTIVE_MAX_DAYS = 31;

/** Create a shift with its first version. */
export async function createShift(ctx: ServiceCtx, input: ShiftCreateInput): Promise<ShiftView> {
  const clock = await companyClock(ctx.scope);
  const today = shopDateOf(clock, epochMs(ctx.now));
  const effective = input.effectivedate ? parseDay(input.effectivedate) : today;
  if (effective < today || effective > addDays(today, SHIFT_EFFECTIVE_MAX_DAYS)) {
    throw new ApiError(400, 'VALIDATION_ERROR', 'The effective date must be from today to one month ahead.', [
      {
        field: 'effectivedate',
        code: 'out_of_range',
        message: 'The effective date must be from today to one month ahead.',
      },
    ]);
  }
  const shiftId = await insertShift(ctx.scope, { name: input.name.trim(), createdAt: ctx.now });
  await insertShiftVersion(ctx.scope, {
    shiftId,
    startoffsetminutes: input.startoffsetminutes,
    endoffsetminutes: input.endoffsetminutes,
    byweekday: [...new Set(input.byweekday)],
    effectivedate: formatDay(effective),
    createdAt: ctx.now,
  });
  const created = (await listShiftsWithVersions(ctx.scope)).find((s) => s.id === shiftId);
  const view = created && shiftView(created, today);
  if (!view) throw new Error('shift vanished after insert');
  return view;
}
