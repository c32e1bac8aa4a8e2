// What the replay CLI's test files share: per test, a fresh database of one dialect and a folder for log files,
// and the count of a machine's stored observations.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { freshDb } from '@takt/db/testing';
import type { TestDb } from '@takt/db/testing';

export const iso = (ms: number) => new Date(ms).toISOString();

export interface ReplayFixture {
  /** This test's database (set by beforeEach). */
  readonly t: TestDb;
  /** Writes `lines` to this test's log file and returns its path. */
  logFile(lines: string[]): string;
  /** The machine's stored observations. */
  storedCount(machineId: string): Promise<number>;
}

/** Registers the describe's beforeEach and afterEach; read `t` inside the tests. */
export function replayFixture(dialect: Parameters<typeof freshDb>[0]): ReplayFixture {
  let t: TestDb;
  let dir: string;
  beforeEach(async () => {
    t = await freshDb(dialect);
    dir = mkdtempSync(join(tmpdir(), 'takt-replay-'));
  });
  afterEach(async () => {
    await t.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    get t() {
      return t;
    },
    logFile(lines) {
      const file = join(dir, 'log.shdr');
      writeFileSync(file, lines.map((l) => `${l}\n`).join(''));
      return file;
    },
    storedCount: async (machineId) =>
      Number(
        (
          await t.db
            .selectFrom('observations')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('machine_id', '=', machineId)
            .executeTakeFirstOrThrow()
        ).n,
      ),
  };
}
