// The database's side of bench/ingest-work.ts (PostgreSQL): the CPU of its server processes, the row churn of the
// tables ingest rewrites, the live generation's bumps and its trigger functions' time.
import { readFileSync } from 'node:fs';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Database } from '@takt/db';

/** CPU ms (user + system) a process has used, from /proc (clock ticks of 1/100 s); null once it is gone. */
function cpuMsOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/**
 * PostgreSQL on this host: samples every second the CPU of the server processes working for the bench's database
 * (its connections and any autovacuum worker on it). `take()` returns the CPU ms since the last take; a process
 * first seen between two takes counts from zero (it started meanwhile).
 */
export function databaseCpu(db: Kysely<Database>): { take: () => number; stop: () => void } {
  const base = new Map<number, number>();
  const last = new Map<number, number>();
  let gone = 0;
  const sample = async () => {
    const { rows } = await sql<{ pid: number }>`SELECT pid FROM pg_stat_activity
      WHERE datname = current_database()`.execute(db);
    const seen = new Set(rows.map((r) => Number(r.pid)));
    for (const pid of seen) {
      const ms = cpuMsOf(pid);
      if (ms === null) continue;
      if (!base.has(pid)) base.set(pid, 0);
      last.set(pid, ms);
    }
    // A process that ended: what it used since its base is kept.
    for (const [pid, ms] of last)
      if (!seen.has(pid) && cpuMsOf(pid) === null) {
        gone += ms - (base.get(pid) ?? 0);
        last.delete(pid);
        base.delete(pid);
      }
  };
  const timer = setInterval(() => void sample().catch(() => {}), 1000);
  return {
    take: () => {
      let ms = gone;
      gone = 0;
      for (const [pid, now] of last) {
        ms += now - (base.get(pid) ?? 0);
        base.set(pid, now);
      }
      return ms;
    },
    stop: () => clearInterval(timer),
  };
}

/** PostgreSQL: updates, HOT updates and dead row versions of the tables ingest rewrites (pg_stat_user_tables). */
export async function rowChurn(
  db: Kysely<Database>,
): Promise<Map<string, { upd: number; hot: number; dead: number }>> {
  const { rows } = await sql<{ relname: string; upd: string; hot: string; dead: string }>`
    SELECT relname, n_tup_upd AS upd, n_tup_hot_upd AS hot, n_dead_tup AS dead FROM pg_stat_user_tables
    WHERE relname IN ('machine_live', 'machine_sources')`.execute(db);
  return new Map(
    rows.map((r) => [r.relname, { upd: Number(r.upd), hot: Number(r.hot), dead: Number(r.dead) }]),
  );
}

/** The sum of every company's live generations (migration 0071). */
export const generations = async (db: Kysely<Database>): Promise<number> =>
  Number(
    (await sql<{ g: number | null }>`select sum(generation) as g from live_generations`.execute(db)).rows[0]
      ?.g ?? 0,
  );

/** PostgreSQL: calls and time (ms) of the live generation's trigger functions so far (track_functions = pl). */
export const triggerTime = async (db: Kysely<Database>): Promise<{ calls: number; ms: number }> => {
  const { rows } = await sql<{ calls: number | null; ms: number | null }>`
    select sum(calls) as calls, sum(total_time) as ms from pg_stat_user_functions
    where funcname like 'live_generation_bump%'`.execute(db);
  return { calls: Number(rows[0]?.calls ?? 0), ms: Number(rows[0]?.ms ?? 0) };
};
