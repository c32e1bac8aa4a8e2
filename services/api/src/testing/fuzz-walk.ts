import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '@takt/db/testing';
import { useTabletAckTimeout } from '../live/tablet-auth';
import { apiHarness } from './app';
import type { ApiHarness } from './app';
import { aFuzzCaller, fuzz, fuzzTargets } from './fuzz-routes';

// The fuzz over every route (fuzz-routes.ts) as a test: a few generated cases per route, dealt over several
// files by route (`part` of `parts`) so the runner takes them in parallel (decision 0870). bench/fuzz-routes.ts
// runs the same generator over 100,000 cases and more.

/** Cases per route in the test run; the seed is new every run and printed with any failure to replay it. */
const RUNS = 8;

export function describeFuzzWalk(part: number, parts: number): void {
  describe.each(DIALECTS)(`fuzzed requests (part ${part + 1} of ${parts}) on %s`, (dialect) => {
    let h: ApiHarness;
    beforeEach(async () => {
      h = await apiHarness(dialect);
      // No socket answers the pushes to tablets here: their routes answer as for unreachable tablets, at once.
      useTabletAckTimeout(20);
    });
    afterEach(async () => {
      useTabletAckTimeout(undefined);
      await h.close();
    });

    it('never answer 5xx, refuse bodies not labelled JSON with 415, and the server answers /healthz after', async () => {
      const caller = await aFuzzCaller(h);
      const targets = fuzzTargets(h.app, caller.shop)
        .sort((a, b) => `${a.path} ${a.method}`.localeCompare(`${b.path} ${b.method}`))
        .filter((_, i) => i % parts === part);
      const seed = Date.now() ^ (part * 7919);
      const { failures, cases } = await fuzz(h, caller, targets, RUNS, seed);
      expect(cases).toBe(targets.length * RUNS);
      expect(failures, `fast-check seed ${seed}`).toEqual([]);
      expect((await h.app.request('/healthz')).status).toBe(200);
    }, 120_000);
  });
}
