import { formatElapsed, tileView } from '@takt/domain';
import type { DashboardMachine, EpochMs, TileStatus } from '@takt/domain';
import { formatSortableDateTime, t, toCsv } from '@takt/ui';

// The office "Machines" overview: rows, sorting and CSV, kept pure so they are tested without a browser.

export interface MachineRow {
  id: string;
  name: string;
  groups: string;
  status: TileStatus;
  statusText: string;
  statusSince: number | null;
  program: string | null;
  partCount: number | null;
  lastHeartbeat: number | null;
}

export const COLUMNS = [
  'name',
  'groups',
  'status',
  'timeInState',
  'program',
  'partCount',
  'lastHeartbeat',
] as const;
export type ColumnKey = (typeof COLUMNS)[number];
export type SortDirection = 'ascending' | 'descending';
export interface Sort {
  key: ColumnKey;
  direction: SortDirection;
}

export const COLUMN_LABEL: Record<ColumnKey, string> = {
  name: t('field.name'),
  groups: t('field.groups'),
  status: t('field.status'),
  timeInState: t('field.timeInState'),
  program: t('field.program'),
  // The controller's own counter (cycles since its last reset), named so: it is not good parts and never
  // meets the tablet's or the reports' figures (decision 1021).
  partCount: t('machines.col.controllerCount'),
  lastHeartbeat: t('field.lastHeartbeat'),
};

/** What a column's figure is, where its name alone could mislead (the header's title). */
export const COLUMN_TITLE: Partial<Record<ColumnKey, string>> = {
  partCount: t('machines.col.controllerCountTitle'),
};

/** Ascending status order puts what needs attention first. */
export const STATUS_ORDER: readonly TileStatus[] = [
  'fault',
  'danger',
  'warning',
  'setup',
  'success',
  'inactive',
  'unavailable',
];

export function machineRows(
  machines: readonly DashboardMachine[],
  groups: readonly { id: string; name: string }[],
  now: number,
): MachineRow[] {
  const groupName = new Map(groups.map((g) => [g.id, g.name]));
  return machines.map((m) => {
    const view = tileView(m, 'utilization', now as EpochMs);
    return {
      id: m.id,
      name: m.name,
      groups: m.groupIds.map((id) => groupName.get(id) ?? id).join(', '),
      status: view.status,
      statusText: view.description,
      statusSince: m.statusSince,
      program: m.program,
      partCount: m.partCount,
      lastHeartbeat: m.lastHeartbeat,
    };
  });
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

type SortValue = string | number | null;

function sortValue(row: MachineRow, key: ColumnKey): SortValue {
  switch (key) {
    case 'name':
      return row.name;
    case 'groups':
      return row.groups || null;
    case 'status':
      return STATUS_ORDER.indexOf(row.status);
    case 'timeInState':
      // Longer in state sorts later: an earlier statusSince is a longer time.
      return row.statusSince == null ? null : -row.statusSince;
    case 'program':
      return row.program;
    case 'partCount':
      return row.partCount;
    case 'lastHeartbeat':
      return row.lastHeartbeat;
  }
}

function compareValues(a: SortValue, b: SortValue): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return collator.compare(String(a), String(b));
}

/** Stable sort; empty values always last, whatever the direction; ties by name. */
export function sortRows(rows: readonly MachineRow[], sort: Sort): MachineRow[] {
  const dir = sort.direction === 'ascending' ? 1 : -1;
  return [...rows].sort((x, y) => {
    const a = sortValue(x, sort.key);
    const b = sortValue(y, sort.key);
    if (a == null || b == null) {
      if (a != null) return -1;
      if (b != null) return 1;
    } else {
      const c = compareValues(a, b);
      if (c !== 0) return c * dir;
    }
    return collator.compare(x.name, y.name);
  });
}

export function nextSort(current: Sort, key: ColumnKey): Sort {
  if (current.key !== key) return { key, direction: 'ascending' };
  return { key, direction: current.direction === 'ascending' ? 'descending' : 'ascending' };
}

/** The table as shown (same rows, same order) as CSV; times in the company's zone. */
export function machinesCsv(rows: readonly MachineRow[], now: number, timeZone?: string): string {
  return toCsv(
    COLUMNS.map((c) => COLUMN_LABEL[c]),
    rows.map((r) => [
      r.name,
      r.groups,
      r.statusText,
      r.statusSince == null ? '' : formatElapsed(r.statusSince, now),
      r.program,
      r.partCount,
      formatSortableDateTime(r.lastHeartbeat, timeZone),
    ]),
  );
}
