import { describe, expect, it } from 'vitest';
import {
  DEFAULT_STATE,
  pickSort,
  queryOf,
  searchFromState,
  shownRange,
  sortBy,
  stateFromSearch,
} from './machines';

// reports-admin §2 "Internal machine list: 25 per page … default createdAt descending; filter and sort kept in
// URL", §7 getAllMachines, §9 "internal machine list page 25".

describe('the list state in the URL', () => {
  it('defaults to newest first, page 1, and writes nothing for the default', () => {
    const s = stateFromSearch(new URLSearchParams(''));
    expect(s).toEqual(DEFAULT_STATE);
    expect(searchFromState(s).toString()).toBe('');
    expect(queryOf(s)).toEqual({
      limit: 25,
      offset: 0,
      orderBy: 'createdAt',
      orderDirection: 'desc',
      filter: '',
    });
  });

  it('round-trips search, sort and page', () => {
    const s = { filter: 'haas', orderBy: 'company' as const, orderDirection: 'asc' as const, page: 3 };
    const text = searchFromState(s).toString();
    expect(text).toBe('filter=haas&orderBy=company&orderDirection=asc&page=3');
    expect(stateFromSearch(new URLSearchParams(text))).toEqual(s);
    expect(queryOf(s)).toMatchObject({ limit: 25, offset: 50, filter: 'haas' });
  });

  it('falls back to the default for values it does not know', () => {
    expect(stateFromSearch(new URLSearchParams('orderBy=colour&orderDirection=up&page=-2'))).toEqual(
      DEFAULT_STATE,
    );
  });
});

describe('sorting', () => {
  it('flips the same column and starts another in its natural direction, on page 1', () => {
    const s = { ...DEFAULT_STATE, page: 4 };
    expect(sortBy(s, 'createdAt')).toMatchObject({ orderBy: 'createdAt', orderDirection: 'asc', page: 1 });
    expect(sortBy(s, 'make')).toMatchObject({ orderBy: 'make', orderDirection: 'asc', page: 1 });
    expect(sortBy({ ...s, orderBy: 'make', orderDirection: 'asc' }, 'make').orderDirection).toBe('desc');
    expect(pickSort(s, 'decommissionedAt')).toMatchObject({ orderDirection: 'desc', page: 1 });
    expect(pickSort({ ...s, orderBy: 'name', orderDirection: 'asc' }, 'name').orderDirection).toBe('asc');
  });
});

describe('shownRange', () => {
  it.each([
    [1, 25, 27, { from: 1, to: 25, total: 27 }],
    [2, 2, 27, { from: 26, to: 27, total: 27 }],
    [1, 0, 0, { from: 0, to: 0, total: 0 }],
  ])('page %s with %s rows of %s', (page, shown, total, range) => {
    expect(shownRange(page, shown, total)).toEqual(range);
  });
});
