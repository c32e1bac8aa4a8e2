import {
  API_VERSION_HEADER,
  NEW_VERSION_RELOAD_MS,
  PAGE_RELOAD_MS,
  RING_MAX_DEGREES,
  TOAST_AUTO_CLOSE_MS,
} from '@takt/ui';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { JOB_ACTION_DEBOUNCE_MS } from './lib/debounce';
import {
  JOB_PAGE_SIZE,
  JOB_SEARCH_DEBOUNCE_MS,
  JOB_SEARCH_LIMIT,
  START_JOB_SEARCH_DEBOUNCE_MS,
} from './components/jobPicker/jobs';
import { SUBMIT_DEBOUNCE_MS } from './lib/submit';
import { RECONNECT_DEBOUNCE_MS, RECONNECTED_CLOSE_MS } from './connection/liveConnectionMachine';
import { BACKOFF_MAX_MS, BACKOFF_MIN_MS } from './offline/backoff';
import { REDIRECT_DELAY_MS, TICK_MS } from './tablet/registration';
import { UNDERLAY_AUTO_CLOSE_MS } from './workcenter/machines/underlayMachine';

// The floor's share of live-operations §1, §4 and §9 in one table: each constant where the code keeps it.
describe('floor constants (live-operations §9)', () => {
  it.each([
    ['page reload every 24 h', PAGE_RELOAD_MS, 86_400_000],
    ['new-version reload countdown 30 s', NEW_VERSION_RELOAD_MS, 30_000],
    ['toast auto-close 3000 ms', TOAST_AUTO_CLOSE_MS, 3000],
    ['reconnect delay from 4 s', BACKOFF_MIN_MS, 4000],
    ['reconnect delay up to 60 s', BACKOFF_MAX_MS, 60_000],
    ['reconnect click debounce 1000 ms', RECONNECT_DEBOUNCE_MS, 1000],
    ['offline toast closes 2 s after reconnect', RECONNECTED_CLOSE_MS, 2000],
    ['dashboard job-action debounce 200 ms', JOB_ACTION_DEBOUNCE_MS, 200],
    ['submit debounce 200 ms', SUBMIT_DEBOUNCE_MS, 200],
    ['job search debounce 250 ms', JOB_SEARCH_DEBOUNCE_MS, 250],
    ['start-job overlay search debounce 500 ms', START_JOB_SEARCH_DEBOUNCE_MS, 500],
    ['job search limit 10', JOB_SEARCH_LIMIT, 10],
    ['job page size 15', JOB_PAGE_SIZE, 15],
    ['downtime underlay auto-close 5000 ms', UNDERLAY_AUTO_CLOSE_MS, 5000],
    ['tablet code countdown tick 100 ms', TICK_MS, 100],
    ['tablet redirect 3 s after activation', REDIRECT_DELAY_MS, 3000],
    ['ring caps at 405 degrees', RING_MAX_DEGREES, 405],
  ])('%s', (_name, value, expected) => {
    expect(value).toBe(expected);
  });

  it('watches the MM-API-Version header', () => {
    expect(API_VERSION_HEADER).toBe('MM-API-Version');
  });
});

// live-operations §2: "Mobile layout under 736 px width" — every width query of the floor's styles uses it.
describe('the 736 px breakpoint', () => {
  // floor.css only imports its parts (styles/); these are the ones with width queries.
  const sheets = [
    './styles/live-dashboards.css',
    './styles/workcenter.css',
    './styles/actions.css',
    './dashboards/dashboards.css',
    './workcenter/card/card.css',
  ];
  it.each(sheets)('%s', (sheet) => {
    const css = readFileSync(new URL(sheet, import.meta.url), 'utf8');
    const widths = [...css.matchAll(/@media[^{]*\((max|min)-width:\s*([\d.]+)px\)/g)].map(
      (m) => `${m[1]} ${m[2]}`,
    );
    expect(widths.length).toBeGreaterThan(0);
    for (const w of widths) expect(['max 735.98', 'min 736']).toContain(w);
  });
});
