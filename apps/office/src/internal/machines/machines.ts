import type { InternalMachineQuery, InternalMachineSort } from '@takt/domain';
import { INTERNAL_MACHINE_PAGE, INTERNAL_MACHINE_SORTS } from '@takt/domain';

// The internal machine list's state, kept in the URL so a view can be bookmarked and reloaded (reports-admin §2
// "Internal machine list: 25 per page, search, sort by …; default createdAt descending; filter and sort kept
// in URL"): ?filter=&orderBy=&orderDirection=&page=, defaults left out.

export interface MachineListState {
  filter: string;
  orderBy: InternalMachineSort;
  orderDirection: 'asc' | 'desc';
  /** 1-based. */
  page: number;
}

export const DEFAULT_STATE: MachineListState = {
  filter: '',
  orderBy: 'createdAt',
  orderDirection: 'desc',
  page: 1,
};

/** Dates sort newest first when picked; the rest A to Z. */
const FIRST_DIRECTION: Partial<Record<InternalMachineSort, 'asc' | 'desc'>> = {
  createdAt: 'desc',
  decommissionedAt: 'desc',
  rootMachine: 'desc',
};

const isSort = (v: string | null): v is InternalMachineSort =>
  v !== null && (INTERNAL_MACHINE_SORTS as readonly string[]).includes(v);

/** Reads the URL; anything unknown falls back to the default, so an old or hand-edited link still opens. */
export function stateFromSearch(search: URLSearchParams): MachineListState {
  const orderBy = search.get('orderBy');
  const dir = search.get('orderDirection');
  const page = Number(search.get('page'));
  return {
    filter: (search.get('filter') ?? '').slice(0, 200),
    orderBy: isSort(orderBy) ? orderBy : DEFAULT_STATE.orderBy,
    orderDirection: dir === 'asc' || dir === 'desc' ? dir : DEFAULT_STATE.orderDirection,
    page: Number.isInteger(page) && page >= 1 ? page : 1,
  };
}

export function searchFromState(s: MachineListState): URLSearchParams {
  const out = new URLSearchParams();
  if (s.filter.trim()) out.set('filter', s.filter);
  if (s.orderBy !== DEFAULT_STATE.orderBy || s.orderDirection !== DEFAULT_STATE.orderDirection) {
    out.set('orderBy', s.orderBy);
    out.set('orderDirection', s.orderDirection);
  }
  if (s.page > 1) out.set('page', String(s.page));
  return out;
}

/** reports-admin §7 getAllMachines (limit, offset, orderBy, orderDirection, filter). */
export const queryOf = (s: MachineListState): InternalMachineQuery => ({
  limit: INTERNAL_MACHINE_PAGE,
  offset: (s.page - 1) * INTERNAL_MACHINE_PAGE,
  orderBy: s.orderBy,
  orderDirection: s.orderDirection,
  filter: s.filter.trim(),
});

/** A sort picked from the list: its natural direction; back to page 1. */
export const pickSort = (s: MachineListState, key: InternalMachineSort): MachineListState => ({
  ...s,
  orderBy: key,
  orderDirection: FIRST_DIRECTION[key] ?? 'asc',
  page: 1,
});

/** A column heading clicked: the same column flips, another starts in its natural direction; back to page 1. */
export function sortBy(s: MachineListState, key: InternalMachineSort): MachineListState {
  const orderDirection =
    s.orderBy === key ? (s.orderDirection === 'asc' ? 'desc' : 'asc') : (FIRST_DIRECTION[key] ?? 'asc');
  return { ...s, orderBy: key, orderDirection, page: 1 };
}

export const pageCount = (total: number): number => Math.max(1, Math.ceil(total / INTERNAL_MACHINE_PAGE));

/** "26–27 of 27": the rows shown, 1-based. */
export function shownRange(
  page: number,
  shown: number,
  total: number,
): { from: number; to: number; total: number } {
  const from = shown === 0 ? 0 : (page - 1) * INTERNAL_MACHINE_PAGE + 1;
  return { from, to: shown === 0 ? 0 : from + shown - 1, total };
}
