import { addDays, epochMs, qualityCounts, startOfLocalDay, toWall } from '@takt/domain';
import type { PartAdjustmentFact, QualityCounts, TimeSpan } from '@takt/domain';
import { historyChanged, loadRollupSource } from '@takt/db/rollups';
import type { PartAdjustmentFields, StoredPartAdjustment } from '../repositories/part-adjustments';
import { jobRunSpanAt } from '../repositories/part-adjustments';
import type { ServiceCtx } from './context';
import type { Issue } from './issues';
import { invalid } from './issues';

// Good parts are never negative (METRICS.md §3; decision 0997). A reject, a correction, or taking back parts
// that would leave the good parts of their period below 0 is refused before it is stored. The period is the
// job run the time falls in (as the jobs report counts a run), or the company day without a run; its good
// parts are counted from the stored facts with the metric function the reports use (qualityCounts).

/** A part adjustment as the metrics see it, with its machine. */
export interface AdjustmentFactOf extends PartAdjustmentFact {
  machineId: string;
}

/** The period whose good parts a change at `at` must keep at 0 or more: its job run, else its company day. */
export async function goodPartsPeriod(ctx: ServiceCtx, machineId: string, at: number): Promise<TimeSpan> {
  const run = await jobRunSpanAt(ctx.scope, machineId, at);
  // An open run counts up to now; a time later today (allowed, reports-admin §5) is inside it too.
  if (run) return { start: run.start, end: run.end ?? Math.max(ctx.now, at + 1) };
  const tz = ctx.caller.company.timezone;
  const day = toWall(tz, epochMs(at)).day;
  return { start: startOfLocalDay(tz, day), end: startOfLocalDay(tz, addDays(day, 1)) };
}

const sameFact = (a: PartAdjustmentFact, b: PartAdjustmentFact) =>
  a.adjustmenttime === b.adjustmenttime &&
  a.count === b.count &&
  a.scrapcount === b.scrapcount &&
  a.rejectBehavior === b.rejectBehavior;

export interface GoodPartsChange {
  machineId: string;
  /** The time whose period is checked. */
  at: number;
  /** The row as it will be stored, if any. */
  add: AdjustmentFactOf | null;
  /** The row as it is stored now (an edit or a delete), if any; counts only when it is in the same period. */
  remove: AdjustmentFactOf | null;
}

/**
 * Throws 400 `heading` with the issue `problem` builds when the change leaves more parts rejected than the
 * period made (or makes an existing excess worse); a change that takes nothing away always passes.
 * `available` is the period's good parts without the row changed.
 */
export async function keepGoodParts(
  ctx: ServiceCtx,
  change: GoodPartsChange,
  heading: string,
  problem: (available: number, after: QualityCounts) => Issue,
): Promise<void> {
  // Marks the machine's rollups dirty first: the write does so anyway, and on PostgreSQL the upsert holds the
  // machine's rollup_dirty row until commit, so two rejects of one machine are counted one after the other
  // (SQLite has one writer at a time).
  await historyChanged(ctx.scope, change.machineId, change.at);
  const period = await goodPartsPeriod(ctx, change.machineId, change.at);
  // The machine comes from the company-scoped caller, so the bare database reads only the company's facts.
  const source = await loadRollupSource(ctx.scope, change.machineId, period, { now: ctx.now });
  const parts = (source.cycles ?? []).reduce((n, c) => n + c.parts, 0);
  const stored = [...(source.adjustments ?? [])];
  const before = qualityCounts(parts, stored);
  const { remove, add } = change;
  if (
    remove &&
    remove.machineId === change.machineId &&
    remove.adjustmenttime >= period.start &&
    remove.adjustmenttime < period.end
  ) {
    const i = stored.findIndex((f) => sameFact(f, remove));
    if (i >= 0) stored.splice(i, 1);
  }
  const without = qualityCounts(parts, stored);
  const after = add ? qualityCounts(parts, [...stored, add]) : without;
  if (after.shortfall > before.shortfall) throw invalid(heading, [problem(without.good, after)]);
}

/** "Only 3 good parts to reject from." (decision 0997). */
export const goodPartsLeftText = (available: number, verb: string): string =>
  available === 0
    ? `No good parts to ${verb}.`
    : `Only ${available} good ${available === 1 ? 'part' : 'parts'} to ${verb}.`;

// The part adjustment rows as facts, mapped as the rollup source maps them (scrap counts only on rejects).

const factOfFields = (f: Omit<PartAdjustmentFields, 'jobRunId'>): AdjustmentFactOf => ({
  machineId: f.machineId,
  adjustmenttime: epochMs(f.adjustmentTime),
  count: f.count,
  scrapcount: f.rejectBehavior ? f.scrapcount : 0,
  rejectBehavior: f.rejectBehavior,
  categoryId: f.typeId,
});

const factOfRow = (p: StoredPartAdjustment): AdjustmentFactOf => ({
  machineId: p.machine_id,
  adjustmenttime: epochMs(p.adjustmenttime),
  count: p.count,
  scrapcount: p.reject_behavior ? p.scrapcount : 0,
  rejectBehavior: p.reject_behavior,
  categoryId: p.category_id,
});

/**
 * A reject or correction about to be stored (`current`: the row it replaces on an edit) keeps the good parts
 * of its period, and of the period it leaves when an edit moves it: else 400 `heading` with "Only N good
 * parts to reject from." (rejects) or "Only N good parts to take away." (corrections).
 */
export async function checkAdjustmentKeepsGoodParts(
  ctx: ServiceCtx,
  next: Omit<PartAdjustmentFields, 'jobRunId'>,
  current: StoredPartAdjustment | null,
  heading: string,
): Promise<void> {
  const add = factOfFields(next);
  const remove = current ? factOfRow(current) : null;
  const problem = (available: number): Issue =>
    next.kind === 'reject'
      ? { field: 'scrapcount', code: 'too_big', message: goodPartsLeftText(available, 'reject from') }
      : { field: 'count', code: 'too_small', message: goodPartsLeftText(available, 'take away') };
  await keepGoodParts(
    ctx,
    { machineId: add.machineId, at: add.adjustmenttime, add, remove },
    heading,
    problem,
  );
  // An edit that moves the row to another machine or period takes it out of its old one.
  if (remove) {
    const old = await goodPartsPeriod(ctx, remove.machineId, remove.adjustmenttime);
    const stays =
      remove.machineId === add.machineId && add.adjustmenttime >= old.start && add.adjustmenttime < old.end;
    if (!stays) await checkRemovalKeepsGoodParts(ctx, current!, heading, 'adjustmenttime');
  }
}

/** Deleting a row (or undoing parts added by hand) keeps the good parts of its period: else 400 `heading`. */
export async function checkRemovalKeepsGoodParts(
  ctx: ServiceCtx,
  current: StoredPartAdjustment,
  heading: string,
  field: string,
): Promise<void> {
  const remove = factOfRow(current);
  await keepGoodParts(
    ctx,
    { machineId: remove.machineId, at: remove.adjustmenttime, add: null, remove },
    heading,
    (_available, after) => ({
      field,
      code: 'rejected_parts',
      message: `Without these parts, ${after.shortfall} more ${after.shortfall === 1 ? 'part is' : 'parts are'} rejected than made: change those rejects first.`,
    }),
  );
}
