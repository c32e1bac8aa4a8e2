// What the live-plant and dashboards tests share: watch the simulated adapters as a second SHDR client and the
// page's tiles four times a second, then check that every change of a machine that lasted 10 s showed on its tile
// within 10 s (live-operations: a tile follows its machine within 10 s: 5 s polling + ingest + render).
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { watchAdapter } from './harness';

/** The adapter's execution went ACTIVE (`active`) or out of it, at `at` (wall time, as the watcher heard it). */
export interface Change {
  machine: string;
  at: number;
  active: boolean;
}

const LASTS_MS = 10_000;

/**
 * The changes that lasted 10 s by `until`: the machine's next change came 10 s or more after it (or not before
 * `until`), and 10 s passed before `until`. Final once true: later changes cannot undo it.
 */
export function lastingChanges(changes: Change[], until: number): Change[] {
  return changes.filter((c) => {
    const next = changes.find((n) => n.machine === c.machine && n.at > c.at);
    return (next ? next.at : until) - c.at >= LASTS_MS && c.at + LASTS_MS <= until;
  });
}

/**
 * Watches `machines` (machine i's adapter on port `portBase + i`) and samples the tiles' data-status every
 * 250 ms, for `windowMs` at most; it stops sooner once `enough` changes have lasted 10 s, since nothing later
 * can change what those show (decision 1195). Then asserts at least `atLeast` lasting changes, each shown within
 * 10 s on its tile ('success' while ACTIVE).
 */
export async function expectTilesFollow(
  page: Page,
  machines: string[],
  portBase: number,
  opts: { windowMs: number; atLeast: number; enough: number },
): Promise<void> {
  const changes: Change[] = [];
  const activeNow = new Map<string, boolean>();
  const unwatch = machines.map((machine, i) =>
    watchAdapter(portBase + i, (line) => {
      const x = /\|execution\|([A-Z_]+)/.exec(line);
      if (!x) return;
      const active = x[1] === 'ACTIVE';
      if (activeNow.get(machine) !== active) {
        if (activeNow.has(machine)) changes.push({ machine, at: Date.now(), active });
        activeNow.set(machine, active);
      }
    }),
  );
  const seen: Array<{ at: number; status: Record<string, string> }> = [];
  const end = Date.now() + opts.windowMs;
  let until = end;
  for (;;) {
    const now = Date.now();
    if (now >= end || lastingChanges(changes, now).length >= opts.enough) {
      until = Math.min(now, end);
      break;
    }
    const status = await page.$$eval('article[data-status]', (els) =>
      Object.fromEntries(
        els.map((e) => [e.getAttribute('aria-label') ?? '', e.getAttribute('data-status') ?? '']),
      ),
    );
    seen.push({ at: Date.now(), status });
    await page.waitForTimeout(250);
  }
  unwatch.forEach((stop) => stop());

  const lasting = lastingChanges(changes, until);
  expect(lasting.length, `adapter changes seen: ${JSON.stringify(changes)}`).toBeGreaterThanOrEqual(
    opts.atLeast,
  );
  for (const c of lasting) {
    const shown = seen.find(
      (s) => s.at >= c.at && s.at <= c.at + LASTS_MS && (s.status[c.machine] === 'success') === c.active,
    );
    expect(shown, `${c.machine} went ${c.active ? 'ACTIVE' : 'out of cycle'} at ${c.at}`).toBeDefined();
  }
}
