// The API of another checkout (a worktree of an older commit, its node_modules hard-linked) on the same database as
// this tree's harness, for benches that compare old and new answers (BENCH_OLD=dir): its own modules, so its own
// week index and cache, and its own handle opened by its own kysely (a dialect check such as `adapter instanceof
// PostgresAdapter` fails on a handle of this tree's kysely, decision 1185).
import type { ApiHarness } from '../../services/api/src/testing/app';

type OldModules = {
  apiHarnessOn: (t: ApiHarness['t'], start: number) => ApiHarness;
  useSharedAnswers: (db: object, on: boolean) => void;
  useWeekIndex: (db: object, on: boolean) => void;
  openDb: (url: string) => { db: ApiHarness['t']['db']; close: () => Promise<void> };
};

/** The old checkout's harness at `now` on `h`'s database, its shared answers switch and how to close its handle. */
export async function oldApiOn(dir: string, h: ApiHarness, now: number) {
  const old = {
    ...(await import(`${dir}/services/api/src/testing/app.ts`)),
    ...(await import(`${dir}/services/api/src/services/report-shared.ts`)),
    ...(await import(`${dir}/packages/db/src/connect.ts`)),
    ...(await import(`${dir}/packages/db/src/rollups/week-index.ts`)),
  } as OldModules;
  const handle = { ...h.t, ...old.openDb(h.t.url), cleanup: async () => undefined };
  return {
    h: old.apiHarnessOn(handle, now),
    useSharedAnswers: (on: boolean) => old.useSharedAnswers(handle.db, on),
    /** Empties the old checkout's week index (on: false) or turns it on again (its own module, its own index). */
    useWeekIndex: (on: boolean) => old.useWeekIndex(handle.db, on),
    close: handle.close,
  };
}
