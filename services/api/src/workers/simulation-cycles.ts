import type { Kysely } from 'kysely';
import { companyScope } from '@takt/db';
import type { Database } from '@takt/db';
import type { IngestRules } from '../ingest-rules';
import { claimCycleStep, dueCycleSteps } from '../repositories/simulation';
import { cycleStep } from '../services/simulation';
import { everyInterval } from './interval';

/** How often the API process looks for automatic cycle steps due (decision 1100). */
export const CYCLE_ROUND_MS = 1000;

/**
 * One round: every automatic cycle step due by `now` is sent, each in its own transaction that first claims it
 * (its time and phase unchanged since read), so several API processes send each step once. Returns how many
 * steps were looked at.
 */
export async function runDueCycleSteps(
  db: Kysely<Database>,
  ingest: IngestRules,
  now: number,
): Promise<number> {
  const due = await dueCycleSteps(db, now);
  for (const row of due) {
    await db.transaction().execute(async (trx) => {
      const scope = companyScope(trx, row.company_id);
      await cycleStep(scope, { ingest }, row, now, (next) => claimCycleStep(scope, row, next));
    });
  }
  return due.length;
}

/** The test screen's automatic cycles, run by every API process (main.ts); stop() waits for the round under way. */
export function startSimulationCycles(deps: {
  db: Kysely<Database>;
  ingest: IngestRules;
  now: () => number;
  log: (message: string) => void;
}) {
  return everyInterval(
    () => runDueCycleSteps(deps.db, deps.ingest, deps.now()),
    CYCLE_ROUND_MS,
    (err) => deps.log(`simulated cycles failed: ${err.message}`),
  );
}
