import { sql } from 'kysely';
import { companyScope } from '@takt/db';
import type { ApiHarness } from '../../services/api/src/testing/app';
import { aDowntimeReason } from '../../services/api/src/testing/downtime-builders';

/**
 * Two of every three closed stops (non-ACTIVE state rows) of the company's plant categorized by an operator (one of
 * three reasons, the stop's bounds), in batches: the benches' BENCH_ANNOTATIONS=1 (decisions 1186, 1188).
 */
export async function categorizedStops(
  h: ApiHarness,
  company: Parameters<typeof aDowntimeReason>[1],
  now: number,
): Promise<void> {
  const reasons = await Promise.all(
    ['Waiting for material', 'Tool change', 'Break'].map((name) =>
      aDowntimeReason(h.t.db, company, { name }),
    ),
  );
  const scope = companyScope(h.t.db, company.id);
  const stops = await scope
    .selectFrom('state_intervals')
    .select(['machine_id', 'start_at', 'end_at'])
    .where('state', '!=', 'ACTIVE')
    .where('end_at', 'is not', null)
    .execute();
  const rows = stops
    .filter((_, i) => i % 3 !== 0)
    .map((r, i) => ({
      id: crypto.randomUUID(),
      machine_id: r.machine_id,
      annotation_type_id: reasons[i % reasons.length]!.id,
      start_at: r.start_at,
      end_at: r.end_at,
      message: null,
      planned: null,
      setup: 0,
      active_setup: 0,
      created_by: null,
      created_at: now,
      updated_at: now,
    }));
  for (let i = 0; i < rows.length; i += 500)
    await scope.insertInto('annotations', rows.slice(i, i + 500)).execute();
  if (h.t.dialect === 'postgres') await sql`analyze`.execute(h.t.db);
}
