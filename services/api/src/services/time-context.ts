import { addDays, companyDayStart, epochMs, formatDay, parseDay, shopDateOf } from '@takt/domain';
import type { CompanyClock, DayNumber } from '@takt/domain';
import { ApiError } from '../http/errors';
import type { CompanyScope } from '@takt/db';
import type { LiveBus } from '../live/bus';
import { listMachines } from '../repositories/machines';
import { companyClock } from '../repositories/shifts';
import { saveTimeContexts } from '../repositories/time-context';
import { allRollupsChanged, calendarChanged } from '@takt/db/rollups';
import type { ServiceCtx } from './context';
import { changeDay } from './shifts';

// Start-of-day (time context) save and delete (live-operations §7; reports-admin §2 "Start-of-day (time
// context) change", §3 Company; decision 0703). The company holds the context in force and at most one
// pending change with its effective shop date.

export interface TimeContextView {
  currentTimeContext: { offset_millis: number };
  futureTimeContext: { offset_millis: number; effectivedate: string } | null;
}

export const TIME_CONTEXT_TEXTS = {
  effectiveDate: 'The effective date must be from tomorrow to one month ahead.',
  noPending: 'There is no pending start-of-day change.',
} as const;

/** The context in force today and the pending one; a change whose date has come counts as in force. */
function view(clock: CompanyClock, today: DayNumber): TimeContextView {
  const future = clock.futureTimeContext;
  const pending = future?.effectivedate != null && parseDay(future.effectivedate) > today ? future : null;
  const inForce = future?.effectivedate != null && !pending ? future : clock.currentTimeContext;
  return {
    currentTimeContext: { offset_millis: inForce?.offset_millis ?? 0 },
    futureTimeContext: pending
      ? { offset_millis: pending.offset_millis, effectivedate: pending.effectivedate! }
      : null,
  };
}

async function load(ctx: ServiceCtx) {
  const clock = await companyClock(ctx.scope);
  const today = shopDateOf(clock, epochMs(ctx.now));
  return { clock, today, view: view(clock, today) };
}

export async function getTimeContext(ctx: ServiceCtx): Promise<TimeContextView> {
  return (await load(ctx)).view;
}

/**
 * Store the new contexts and mark what they change. Day `day` starts at a new instant, which also moves the
 * end of the day before.
 */
async function store(
  ctx: ServiceCtx,
  before: CompanyClock,
  next: TimeContextView,
  day: DayNumber,
): Promise<TimeContextView> {
  await saveTimeContexts(ctx.scope, {
    currentOffsetMs: next.currentTimeContext.offset_millis,
    future: next.futureTimeContext && {
      offsetMs: next.futureTimeContext.offset_millis,
      effectivedate: next.futureTimeContext.effectivedate,
    },
  });
  const after: CompanyClock = {
    timezone: before.timezone,
    currentTimeContext: next.currentTimeContext,
    futureTimeContext: next.futureTimeContext,
  };
  // Stored rollups reach up to now only: a boundary still ahead changes none of them.
  if (Math.min(companyDayStart(before, day), companyDayStart(after, day)) < ctx.now) {
    // Recompute whole company days: from the start of the day whose end moved.
    const previous = addDays(day, -1);
    await calendarChanged(
      ctx.scope,
      Math.min(companyDayStart(before, previous), companyDayStart(after, previous)),
      ctx.now,
    );
  }
  // A change to a day already under way is in force at once: answer what GET answers from now on.
  return view(after, shopDateOf(after, epochMs(ctx.now)));
}

/** PUT /api/timecontext: schedule (or replace) the pending start-of-day change. */
export async function saveTimeContext(
  ctx: ServiceCtx,
  input: { offset_millis: number; effectivedate: string },
): Promise<TimeContextView> {
  const { clock, today, view: now } = await load(ctx);
  // Like a shift change (reports-admin §5): from tomorrow to one month ahead.
  const day = changeDay(input.effectivedate, today, 'effectivedate', TIME_CONTEXT_TEXTS.effectiveDate);
  const inForce = clock.futureTimeContext?.effectivedate != null && now.futureTimeContext == null;
  if (inForce && clock.futureTimeContext!.offset_millis !== (clock.currentTimeContext?.offset_millis ?? 0)) {
    // The company row holds two contexts. The previous change has taken effect, so it becomes the only past
    // context: days before it now follow its offset too, and every stored rollup is rebuilt (decision 0703).
    await allRollupsChanged(ctx.scope);
  }
  const replaced = now.futureTimeContext ? parseDay(now.futureTimeContext.effectivedate) : day;
  return store(
    ctx,
    clock,
    {
      currentTimeContext: now.currentTimeContext,
      futureTimeContext: { offset_millis: input.offset_millis, effectivedate: formatDay(day) },
    },
    replaced < day ? replaced : day,
  );
}

/** DELETE /api/timecontext: drop the pending start-of-day change (404 when there is none). */
export async function deleteTimeContext(ctx: ServiceCtx): Promise<TimeContextView> {
  const { clock, view: now } = await load(ctx);
  if (!now.futureTimeContext) throw new ApiError(404, 'NOT_FOUND', TIME_CONTEXT_TEXTS.noPending);
  return store(
    ctx,
    clock,
    { currentTimeContext: now.currentTimeContext, futureTimeContext: null },
    parseDay(now.futureTimeContext.effectivedate),
  );
}

/**
 * The company day's boundaries moved, so day windows and timelines on open live channels no longer build on
 * what they show: after the change committed, every machine's subscribers are told to reinit (live/channel.ts).
 * A lost event only costs a stale view until the next poll, so a bus failure does not fail the request.
 */
export async function reinitEveryMachine(scope: CompanyScope, bus: LiveBus): Promise<void> {
  const machines = await listMachines(scope);
  await bus
    .publish(machines.map((m) => ({ companyId: scope.companyId, machineId: m.id, topic: 'reinit' as const })))
    .catch(() => {});
}
