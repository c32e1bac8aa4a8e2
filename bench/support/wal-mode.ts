// BENCH_WAL (decision 1229): who checkpoints a SQLite bench's WAL (bench/ingest-work.ts; bench/report-load.ts runs on
// the node's handles, bench/support/node-api.ts, so its checkpointer's: `passLines`).
//   sqlite (default): SQLite itself, inside the commit that passes 1,000 pages, as tests and CLIs do (and as the
//     node did before decision 1229);
//   worker: as the node does now: the bench's connection with wal_autocheckpoint 0 and journal_size_limit, and the
//     checkpointer thread (packages/db wal-checkpointer.ts) on the file;
//   off: nobody (wal_autocheckpoint 0, no thread): the WAL grows without end; only to see what a commit holds without
//     any checkpoint.
// The checkpointer is imported when asked for, so this file runs in a worktree from before it (BENCH_WAL unset).
import { statSync } from 'node:fs';
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type * as TaktDb from '@takt/db';
import type { CheckpointPass, Database, WalCheckpointer } from '@takt/db';

export type WalMode = 'sqlite' | 'worker' | 'off';

export interface BenchWal {
  mode: WalMode;
  /** The checkpointer's passes since the last call (worker), and the -wal file's size now. */
  lines(): string[];
  stop(): Promise<void>;
}

const walMode = (): WalMode => {
  const mode = process.env.BENCH_WAL ?? 'sqlite';
  if (mode !== 'sqlite' && mode !== 'worker' && mode !== 'off')
    throw new Error(`BENCH_WAL=${mode}: sqlite, worker or off`);
  return mode;
};

const walSize = (file: string) => {
  try {
    return statSync(`${file}-wal`).size;
  } catch {
    return 0;
  }
};
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

/** Sets the mode BENCH_WAL names on the bench's connection `db` to the SQLite `file`. */
export async function benchWal(db: Kysely<Database>, file: string): Promise<BenchWal> {
  const mode = walMode();
  const size = () => walSize(file);
  if (mode === 'sqlite')
    return {
      mode,
      lines: () => [`WAL: SQLite's own checkpoints; -wal ${mib(size())}`],
      stop: async () => {},
    };
  await sql`pragma wal_autocheckpoint = 0`.execute(db);
  if (mode === 'off')
    return { mode, lines: () => [`WAL: no checkpoint at all; -wal ${mib(size())}`], stop: async () => {} };
  const m = (await import('@takt/db')) as Partial<typeof TaktDb>;
  if (!m.startWalCheckpointer || m.WAL_BOUND_BYTES === undefined)
    throw new Error('BENCH_WAL=worker: this tree has no WAL checkpointer (decision 1229)');
  await sql`pragma ${sql.raw(`journal_size_limit = ${m.WAL_BOUND_BYTES}`)}`.execute(db);
  const checkpointer = m.startWalCheckpointer(file);
  return { mode, lines: passLines(checkpointer, file), stop: () => checkpointer.stop() };
}

/**
 * The passes of `checkpointer` (on the SQLite `file`) since the last call of the function returned, on one line with
 * the -wal file's size now.
 */
export function passLines(checkpointer: WalCheckpointer, file: string): () => string[] {
  let passes: CheckpointPass[] = [];
  checkpointer.onPass((p) => passes.push(p));
  return () => {
    const ps = passes;
    passes = [];
    const truncates = ps.filter((p) => p.mode === 'TRUNCATE');
    const max = (f: (p: CheckpointPass) => number) => Math.max(0, ...ps.map(f));
    return [
      `WAL: the checkpointer thread, ${ps.length} passes (${truncates.length} TRUNCATE, ${truncates.filter((p) => p.busy).length} gave up waiting), ` +
        `longest ${max((p) => p.ms).toFixed(0)} ms, -wal at most ${mib(max((p) => p.walBytesBefore))} before a pass; -wal ${mib(walSize(file))}`,
    ];
  };
}
