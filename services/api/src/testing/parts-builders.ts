import { companyScope } from '@takt/db';
import type { Database } from '@takt/db';
import type { Kysely } from 'kysely';
import type { Company } from '../repositories/company';

/**
 * Parts the machine's counter counted: one cycle of `count` parts ending at `end`. A reject never takes more
 * parts than its run (or, without a run, its company day) made (METRICS.md §3, decision 0997), so a test that
 * rejects parts makes some first, in the same run or day as the reject.
 */
export async function madeParts(
  db: Kysely<Database>,
  company: Pick<Company, 'id'>,
  machineId: string,
  end: number,
  count = 100,
): Promise<void> {
  await companyScope(db, company.id)
    .insertInto('cycles', [
      {
        machine_id: machineId,
        start_at: end - 60_000,
        end_at: end,
        duration: 60_000,
        count,
        source: 'part_count',
        setup: 0,
      },
    ])
    .execute();
}
