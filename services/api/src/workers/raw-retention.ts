import type { Kysely } from 'kysely';
import type { Database } from '@takt/db';
import { packObservations, packPrograms, runRawRetention } from '@takt/db';
import { everyInterval } from './interval';

// Raw retention (issue 30 point 3, decision 1132): every process runs a pass now and then; on PostgreSQL an advisory
// lock a slice lets one node work at a time (the others' passes stop at once), and a pass that stops anywhere is
// taken up by the next. Each slice is its own short transaction, so ingest's batches never wait on a whole pass.
// The same worker packs PostgreSQL's raw rows older than a few minutes (decision 1184) and its closed program
// intervals ended as long ago (decision 1196).

/** How often a pass runs: partitions are made days ahead, and a day's rows go within the day they pass the floor. */
export const RAW_RETENTION_INTERVAL_MS = 10 * 60_000;
/**
 * How often the packer runs (PostgreSQL, decision 1184): rows older than PACK_AGE_MS go into packs, so a machine's
 * rows stay rows for at most about the two together, and a pass packs about this long of every machine.
 */
export const PACK_INTERVAL_MS = 60_000;

export function startRawRetentionWorker(options: {
  db: Kysely<Database>;
  /** TAKT_RAW_RETENTION_DAYS; 0 keeps every raw observation (PostgreSQL still gets its day partitions made). */
  days: number;
  now: () => number;
  log: (message: string) => void;
  intervalMs?: number;
  packIntervalMs?: number;
}): { stop: () => Promise<void> } {
  const pass = async () => {
    const r = await runRawRetention(options.db, options.days, options.now());
    if (r.rowsRemoved > 0 || r.partitionsDropped > 0 || r.partitionsMade > 0)
      options.log(
        `[retention] raw observations before ${new Date(r.floor).toISOString()}: ${r.rowsRemoved} rows and ${r.partitionsDropped} day partitions removed, ${r.partitionsMade} partitions made${r.yielded ? ' (another node holds the lock)' : ''}`,
      );
  };
  const first = setTimeout(() => {
    pass().catch((err: Error) => options.log(`[retention] pass failed: ${err.message}`));
  }, 5_000);
  first.unref();
  const worker = everyInterval(pass, options.intervalMs ?? RAW_RETENTION_INTERVAL_MS, (err) =>
    options.log(`[retention] pass failed: ${err.message}`),
  );
  // Packing (a no-op on SQLite) shares retention's advisory lock, so the two never move the same rows at once.
  const packer = everyInterval(
    async () => {
      const r = await packObservations(options.db, options.now());
      if (r.yielded) options.log('[retention] packing stopped early: another node holds the lock');
      await packPrograms(options.db, options.now());
    },
    options.packIntervalMs ?? PACK_INTERVAL_MS,
    (err) => options.log(`[retention] packing failed: ${err.message}`),
  );
  return {
    stop: async () => {
      clearTimeout(first);
      await worker.stop();
      await packer.stop();
    },
  };
}
