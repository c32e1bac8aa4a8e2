import { companyFlagsSchema } from '@takt/domain';
import type { CompanyClock, CompanyFlags, Shift } from '@takt/domain';
import {
  ApiError,
  localeZone,
  parseDashboardResponse,
  readRangeParams,
  selectableShifts,
  shiftsParam,
  tr,
  useDebounced,
  useSession,
  useUserToken,
  writeRangeParams,
} from '@takt/ui';
import type { AppliedRange, Horizon, ShiftOption } from '@takt/ui';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { api } from '../api';
import { useMinuteNow } from '../company-clock';
import { visibleLists } from '../oee/report';
import type { ListKind, OeeSelection } from '../oee/report';
import { usePreferences } from './preferences';
import { adoptedRange, drillInterval, drillTo, readDrillDown, REPORT_HORIZONS } from './shared';

// The state the OEE and utilization reports share: the applied range in the URL with the last horizon
// remembered per company (reports-admin §9; on the server, decision 1115), and the group names for the title
// and the filter.

export function useReportRange({
  clock,
  offsetMs,
  horizonPreference,
  defaultHorizon,
  horizons = REPORT_HORIZONS,
}: {
  clock: CompanyClock;
  offsetMs: number;
  /** Where the last horizon is remembered (reports-admin §9 names OEE and utilization only); null: nowhere. */
  horizonPreference: 'oeeHorizon' | 'utilizationHorizon' | null;
  defaultHorizon: Horizon;
  /** The horizons the report offers (the URL's interval must be one of them). */
  horizons?: readonly Horizon[];
}) {
  const now = useMinuteNow(offsetMs);
  const [query, setQuery] = useSearchParams();
  const search = query.toString();
  const { report, update } = usePreferences();
  const storedHorizon = horizonPreference ? report[horizonPreference] : undefined;
  const defaultInterval = storedHorizon && horizons.includes(storedHorizon) ? storedHorizon : defaultHorizon;
  const applied = useMemo(
    () =>
      readRangeParams(new URLSearchParams(search), clock, now, {
        interval: defaultInterval,
        allowed: horizons,
      }),
    [search, clock, now, defaultInterval, horizons],
  );

  const setParams = useCallback(
    (change: (q: URLSearchParams) => URLSearchParams, replace = false) =>
      setQuery((q) => change(new URLSearchParams(q)), { replace }),
    [setQuery],
  );
  const apply = useCallback(
    (r: AppliedRange) => {
      if (horizonPreference) void update({ [horizonPreference]: r.interval });
      setParams((q) => writeRangeParams(q, r));
    },
    [horizonPreference, update, setParams],
  );
  return { now, query, search, applied, apply, setParams };
}

/**
 * Everything a report page reads from its URL and session: the applied range (useReportRange), the company's
 * locale and zone, the drill-down, and opening a group or machine.
 */
export function useReportPage(options: Parameters<typeof useReportRange>[0]) {
  const { me } = useSession();
  const range = useReportRange(options);
  const { setParams } = range;
  const { group, machine } = readDrillDown(range.query);
  const openDrill = useCallback(
    (param: 'group' | 'machine', id: string | null) => {
      setParams((q) => drillTo(q, param, id));
      // A drill-down is a new report: start reading it from its title.
      globalThis.scrollTo?.({ top: 0 });
    },
    [setParams],
  );
  return { ...range, clock: options.clock, lz: localeZone(me), group, machine, openDrill };
}
export type ReportPageState = ReturnType<typeof useReportPage>;

/**
 * The server may answer another interval or range than asked: adopt it, in the URL too. `answer` is the
 * answer to the range now applied (null while it loads).
 */
export function useAdoptedRange(
  answer: { interval: string; range: { start: number; end: number } } | null,
  applied: AppliedRange,
  setParams: (change: (q: URLSearchParams) => URLSearchParams, replace?: boolean) => void,
): void {
  useEffect(() => {
    if (!answer) return;
    const adopted = adoptedRange(applied, answer);
    if (adopted) setParams((q) => writeRangeParams(q, adopted), true);
  }, [answer, applied, setParams]);
}

export interface Named {
  id: string;
  name: string;
}

/** A machine as the reports name it, with its work center type (manual work centers report differently). */
export interface NamedMachine extends Named {
  manual: boolean;
}

/**
 * Machine groups and machines from GET /api/dashboard, for titles and the group filter; empty until they
 * arrive or when the call fails.
 */
export function useMachineNames(): { groups: Named[]; machines: NamedMachine[] } {
  const [names, setNames] = useState<{ groups: Named[]; machines: NamedMachine[] }>({
    groups: [],
    machines: [],
  });
  useEffect(() => {
    const controller = new AbortController();
    api
      .request('/api/dashboard', { signal: controller.signal, parse: parseDashboardResponse })
      .then((d) =>
        setNames({
          groups: d.groups,
          machines: d.machines.map((m) => ({
            id: m.id,
            name: m.name,
            manual: m.workcenterType === 'manual',
          })),
        }),
      )
      .catch(() => {
        // The names only label the title and the filter; the report works without them.
      });
    return () => controller.abort();
  }, []);
  return names;
}

/** One machine's name and work center type (null until known). */
export function useMachine(machineId: string): NamedMachine | null {
  return useMachineNames().machines.find((m) => m.id === machineId) ?? null;
}

/** The company's flags (GET /api/company/flags) once per page; null until they arrive or when the call fails. */
export function useCompanyFlags(): CompanyFlags | null {
  const [flags, setFlags] = useState<CompanyFlags | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    api
      .request('/api/company/flags', { signal: controller.signal, parse: (v) => companyFlagsSchema.parse(v) })
      .then(setFlags)
      .catch(() => {
        // Every flag's default is off: a page without them shows the plain behaviour.
      });
    return () => controller.abort();
  }, []);
  return flags;
}

/** Machine groups (id, name) from GET /api/dashboard. */
export const useMachineGroups = (): Named[] => useMachineNames().groups;

/**
 * The shift filter's options (GET /api/shifts, terminated shifts excluded) and the selection, remembered per
 * company (reports-admin §9 "Stored preferences per company: … selected shifts").
 */
export function useShiftSelection(): {
  /** null until GET /api/shifts answers (empty after a failure). */
  options: ShiftOption[] | null;
  selected: string[];
  setSelected: (ids: string[]) => void;
  /** The shift ids a report call filters to: null until the options are known, empty for no filter. */
  filter: string[] | null;
} {
  const { report, update } = usePreferences();
  const [options, setOptions] = useState<ShiftOption[] | null>(null);
  // Without a stored choice every shift is ticked (no filter), which is what the boxes then show.
  const stored = report.shifts ?? null;
  useEffect(() => {
    const controller = new AbortController();
    api
      .request<Shift[]>('/api/shifts', { signal: controller.signal })
      .then((shifts) => setOptions(selectableShifts(shifts)))
      .catch(() => {
        // Without the shift list the report runs unfiltered; the filter says there are no shifts.
        if (!controller.signal.aborted) setOptions([]);
      });
    return () => controller.abort();
  }, []);
  const selected = useMemo(() => stored ?? (options ?? []).map((o) => o.id), [stored, options]);
  const setSelected = useCallback((ids: string[]) => void update({ shifts: ids }), [update]);
  const filter = useMemo(
    () => (options ? (shiftsParam(options, selected)?.split(',') ?? []) : null),
    [options, selected],
  );
  return { options, selected, setSelected, filter };
}

/**
 * The shift filter of a report whose calls take no shift (reports-admin §7: the reject and cycles calls): no
 * options, so the filter is not offered.
 */
export const NO_SHIFTS: Pick<ReturnType<typeof useShiftSelection>, 'options' | 'selected' | 'setSelected'> = {
  options: null,
  selected: [],
  setSelected: () => undefined,
};

/** One call of a report page: what to ask, and how to read the answer. */
export interface ReportCall<T> {
  path: string;
  method?: 'GET' | 'POST';
  query?: Record<string, string | number>;
  body?: unknown;
  parse: (value: unknown) => T;
  /** The text of a failure (reports-admin §8 differs by report); by default the OEE and utilization one. */
  errorText?: (err: unknown) => string;
}

/**
 * The GET call of a report read for one selection: `path` with the selection's `query`, the answer checked
 * by `parse`, a failure said by `errorText` (by default the OEE and utilization text).
 */
export const reportGet =
  <S, T>(
    path: string,
    query: (s: S) => Record<string, string | number>,
    parse: (value: unknown) => T,
    errorText?: (err: unknown) => string,
  ) =>
  (s: S): ReportCall<T> => ({ path, query: query(s), parse, ...(errorText ? { errorText } : {}) });

export type CallState<T> =
  | { kind: 'idle' }
  | { kind: 'loading'; previous: T | null }
  | { kind: 'error'; message: string }
  | { kind: 'ready'; data: T };

/**
 * Answers shared by the parts of one page that ask the same thing (a chart and a list, say), for one settled
 * selection (`scope`): a new selection starts a new cache, so nothing older than the current view is reused.
 */
export interface CallCache {
  scope: string;
  calls: Map<string, Promise<unknown>>;
}
export const newCallCache = (scope: string): CallCache => ({ scope, calls: new Map() });

/**
 * The answer to `call` (null = not needed). Identical calls share one request through `cache`; while a new
 * call runs, the previous answer stays available so the page does not jump.
 */
export function useReportCall<T>(call: ReportCall<T> | null, cache: CallCache): CallState<T> {
  const key = call
    ? JSON.stringify([call.method ?? 'GET', call.path, call.query ?? null, call.body ?? null])
    : '';
  const [state, setState] = useState<{ key: string; state: CallState<T> }>({
    key: '',
    state: { kind: 'idle' },
  });
  const latest = useRef(call);
  useEffect(() => {
    latest.current = call;
  });
  useEffect(() => {
    const c = latest.current;
    if (!c || !key) return;
    let live = true;
    setState((s) => ({
      key,
      state: {
        kind: 'loading',
        previous:
          s.state.kind === 'ready' ? s.state.data : s.state.kind === 'loading' ? s.state.previous : null,
      },
    }));
    let pending = cache.calls.get(key);
    if (!pending) {
      pending = api.request(c.path, {
        method: c.method ?? 'GET',
        ...(c.query ? { query: c.query } : {}),
        ...(c.body !== undefined ? { body: c.body } : {}),
        parse: c.parse,
      });
      // A failed call is asked again next time rather than remembered.
      pending.catch(() => cache.calls.delete(key));
      cache.calls.set(key, pending);
    }
    pending
      .then((data) => {
        if (live) setState({ key, state: { kind: 'ready', data: data as T } });
      })
      .catch((err: unknown) => {
        if (!live) return;
        // reports-admin §8: report load failure text; a validation answer says what is wrong.
        const errorText = latest.current?.errorText;
        const message = errorText
          ? errorText(err)
          : err instanceof ApiError && err.status === 400
            ? err.message
            : tr('reports.requestError');
        setState({ key, state: { kind: 'error', message } });
      });
    return () => {
      live = false;
    };
  }, [key, cache]);
  if (!key) return { kind: 'idle' };
  if (state.key !== key) {
    const s = state.state;
    return {
      kind: 'loading',
      previous: s.kind === 'ready' ? s.data : s.kind === 'loading' ? s.previous : null,
    };
  }
  return state.state;
}

/** The data of a call: the answer, or the previous one while a new answer loads. */
export const dataOf = <T>(s: CallState<T>): T | null =>
  s.kind === 'ready' ? s.data : s.kind === 'loading' ? s.previous : null;

/**
 * The main call of a report page for its selection (null: not known yet, the shifts still loading).
 * reports-admin §9: re-queries wait 500 ms after the last change (shift and kind toggles, picks in a row).
 * One cache per settled selection: the parts of the page that ask the same thing share one answer.
 */
export function useSettledCall<S, T>(selection: S | null, call: (s: S) => ReportCall<T>) {
  const key = JSON.stringify(selection);
  const settled = useDebounced(selection, key);
  const settledKey = JSON.stringify(settled);
  const cache = useMemo(() => newCallCache(settledKey), [settledKey]);
  const state = useReportCall(settled ? call(settled) : null, cache);
  return {
    settled,
    cache,
    call: state,
    answer: dataOf(state),
    /** For the report frame: loading until the answer is the one for the selection on screen. */
    status: {
      loading: !(state.kind === 'ready' && key === settledKey),
      error: state.kind === 'error' ? state.message : null,
    },
  };
}

/**
 * The OEE and utilization reports (reports-admin §2 "Utilization report: Same layout"): the range and the
 * drill-down from the URL, the shift filter remembered per company (§9, decision 0801), the main call for
 * that selection, and the interval or range the server answered adopted into the URL.
 */
export function useShiftFilteredReport<
  T extends { interval: Horizon; range: { start: number; end: number } },
>(options: Parameters<typeof useReportPage>[0], call: (s: OeeSelection) => ReportCall<T>) {
  const report = useReportPage(options);
  const { applied, setParams, group, machine } = report;
  const shiftFilter = useShiftSelection();
  const shifts = shiftFilter.filter;
  const selection: OeeSelection | null = useMemo(
    () => (shifts ? { range: applied, group, machine, shifts } : null),
    [applied, group, machine, shifts],
  );
  const main = useSettledCall(selection, call);
  useAdoptedRange(main.status.loading ? null : main.answer, applied, setParams);
  const { answer, settled } = main;
  // What the results read: the settled selection (not the one being picked), and the drill-downs (UI.md:
  // every chart element drills down to what is behind it; an interval opens its own range, one finer).
  const results =
    answer && settled
      ? {
          selection: settled,
          cache: main.cache,
          lz: report.lz,
          onDrillInterval: (c: { start: number; end: number }) =>
            report.apply(drillInterval(c, answer.interval)),
          onDrill: report.openDrill,
        }
      : null;
  return { ...main, results, frame: { report, shifts: shiftFilter, ...main.status } };
}

/** One list of the OEE and utilization reports, as useReportLists gives it. */
export interface ReportListProps<P> {
  kind: ListKind;
  figures: CallState<P>;
  overTime: P | null;
  /** The settled selection: a matrix by shift asks for the same. */
  selection: OeeSelection;
  cache: CallCache;
  token: string | null;
  /** What a row opens; nothing for a shift. */
  onDrill: ((id: string) => void) | null;
}

/**
 * The Shifts, Machine Groups and Machines lists of the OEE and utilization reports (reports-admin §2) that
 * show (shifts with data, groups unless drilled in), each with its figures and over-time figures, the user
 * token for its CSV (§7), and what a row opens: a group or a machine, nothing for a shift.
 */
export function useReportLists<P extends { items: readonly unknown[] }>(
  selection: OeeSelection,
  cache: CallCache,
  listCall: (s: OeeSelection, kind: ListKind, overTime: boolean) => ReportCall<P>,
  onDrill: (param: 'group' | 'machine', id: string) => void,
): ReportListProps<P>[] {
  const token = useUserToken(api);
  const drilledOut = Boolean(selection.group || selection.machine);
  const lists = {
    shift: useReportCall(listCall(selection, 'shift', false), cache),
    machineGroup: useReportCall(drilledOut ? null : listCall(selection, 'machineGroup', false), cache),
    machine: useReportCall(listCall(selection, 'machine', false), cache),
  };
  const overTime = {
    shift: useReportCall(listCall(selection, 'shift', true), cache),
    machineGroup: useReportCall(drilledOut ? null : listCall(selection, 'machineGroup', true), cache),
    machine: useReportCall(listCall(selection, 'machine', true), cache),
  };
  const hasData = (k: ListKind) => (dataOf(lists[k])?.items.length ?? 0) > 0;
  return visibleLists(selection, {
    shift: hasData('shift'),
    machineGroup: hasData('machineGroup'),
    machine: true,
  }).map((kind) => ({
    kind,
    figures: lists[kind],
    overTime: dataOf(overTime[kind]),
    selection,
    cache,
    token,
    onDrill: kind === 'shift' ? null : (id: string) => onDrill(kind === 'machine' ? 'machine' : 'group', id),
  }));
}

/**
 * A report with a company page and a one-machine page (reports-admin §2 /machine/{id}/…): the machine of the
 * one-machine page is in the path, not in the query the OEE and utilization use (and has no group).
 */
export function useReportOfPathMachine(options: Parameters<typeof useReportRange>[0]) {
  const { id: machineId = null } = useParams();
  const page = useReportPage(options);
  const report: ReportPageState = machineId ? { ...page, machine: machineId, group: null } : page;
  return { report, machineId };
}

/**
 * A one-machine report (reports-admin §2 /machine/{id}/…): the machine from the path, the range from the URL
 * (no group; the machine is not a drill-down to return from), the plant's names and the machine's name.
 */
export function useMachineReport(options: Parameters<typeof useReportRange>[0]) {
  const { id: machineId = '' } = useParams();
  const page = useReportPage(options);
  const names = useMachineNames();
  const report: ReportPageState = { ...page, machine: machineId, group: null };
  /** The machine's name; `answered` (from a report answer) until the plant's names arrive. */
  const machineName = (answered?: string): string =>
    names.machines.find((m) => m.id === machineId)?.name ?? answered ?? '…';
  return { report, machineId, names, machineName };
}
