import type { SetupStage } from '@takt/domain';
import { t } from '@takt/ui';
import { nameError } from './form';

// Setup stages (reports-admin §2 "ordered list, drag reorder, archive, restore; percentages total 100",
// §5 "Setup stage percentages total exactly 100", §7 "save takes setupStages"). The screen edits the list
// locally and saves it whole: stages left out of the save are archived by the API.

export interface StageRow {
  /** Stable across edits (React key, drag handle); the stage id when it is stored. */
  key: string;
  id?: string;
  name: string;
  /** As typed. */
  percentage: string;
}

export const rowOf = (s: SetupStage): StageRow => ({
  key: s.id,
  id: s.id,
  name: s.name,
  percentage: String(s.setupPercentage),
});

/** The list with the row at `from` moved to `to` (both clamped); the same list when nothing moves. */
export function moveRow<T>(rows: readonly T[], from: number, to: number): T[] {
  const target = Math.max(0, Math.min(rows.length - 1, to));
  if (from < 0 || from >= rows.length || from === target) return [...rows];
  const next = [...rows];
  const [row] = next.splice(from, 1);
  next.splice(target, 0, row!);
  return next;
}

/** The sum of the percentages that parse, rounded to hide float noise (33.3 + 33.3 + 33.4). */
export function totalPercentage(rows: readonly StageRow[]): number {
  const sum = rows.reduce(
    (s, r) => s + (Number.isFinite(Number(r.percentage)) ? Number(r.percentage) : 0),
    0,
  );
  return Math.round(sum * 1000) / 1000;
}

export function percentageError(text: string): string | null {
  if (text.trim() === '') return t('admin.stages.percentageRequired');
  const n = Number(text);
  if (!Number.isFinite(n) || n < 0 || n > 100) return t('admin.stages.percentageRange');
  return null;
}

export interface StageErrors {
  rows: Record<string, { name?: string; percentage?: string }>;
  total: string | null;
}

export function stageErrors(rows: readonly StageRow[]): StageErrors {
  const out: StageErrors = { rows: {}, total: null };
  for (const r of rows) {
    const name = nameError(r.name);
    const percentage = percentageError(r.percentage);
    if (name || percentage)
      out.rows[r.key] = { ...(name ? { name } : {}), ...(percentage ? { percentage } : {}) };
  }
  // An empty list is allowed (the API too): it archives every stage.
  if (rows.length > 0 && totalPercentage(rows) !== 100) out.total = t('admin.stages.totalError');
  return out;
}

export const hasStageErrors = (e: StageErrors): boolean => e.total !== null || Object.keys(e.rows).length > 0;

/** PUT /api/setup/stages: the rows in order, numbered from 0. */
export const stagesBody = (rows: readonly StageRow[]) => ({
  setupStages: rows.map((r, i) => ({
    ...(r.id ? { id: r.id } : {}),
    name: r.name.trim(),
    stageOrder: i,
    setupPercentage: Number(r.percentage),
  })),
});
