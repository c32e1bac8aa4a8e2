// The replay CLI at recorded speed: lines paced out on the real clock, rows read back while the replay runs (a
// 1 s poll), so this file runs with the timed ones (vitest.config.ts); the full-speed replays are in
// replay-cli.test.ts.
import { describe, expect, it } from 'vitest';
import { aCompany, aMachine } from '../../../api/src/testing/builders';
import { DIALECTS } from '@takt/db/testing';
import { runReplay } from './replay-cli';
import { iso, replayFixture } from './replay-cli-fixture';

describe.each(DIALECTS)('replay into %s', (dialect) => {
  const fx = replayFixture(dialect);

  it('at recorded speed, stores what was replayed while the replay is still running', async () => {
    const t0 = Date.parse('2024-03-01T08:00:00Z');
    const file = fx.logFile(
      [0, 1, 2, 3, 4].map((i) => `${iso(t0 + i * 300)}|execution|${i % 2 ? 'ACTIVE' : 'READY'}`),
    );
    const company = await aCompany(fx.t.db);
    const machineId = await aMachine(fx.t.db, company, { name: 'Live' });
    let done = false;
    const replay = runReplay(fx.t.db, { file, machine: 'Live', speed: 'realtime', json: true }, Date.now, {
      flushEveryMs: 100,
    }).finally(() => (done = true));
    // Rows show up while lines are still being paced out (the whole log takes 1.2 s).
    await expect.poll(() => fx.storedCount(machineId), { timeout: 1000, interval: 20 }).toBeGreaterThan(0);
    expect(done).toBe(false);
    const r = await replay;
    expect(r).toMatchObject({ lines: 5, observations: 5, rejected: 0, machineId });
    expect(await fx.storedCount(machineId)).toBe(5);
  });
});
