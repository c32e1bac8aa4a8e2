import type { CompanyScope } from '@takt/db';

// The company's start-of-day contexts (reports-admin §3 Company currentTimeContext / futureTimeContext),
// stored on the company row; read through companyClock (repositories/shifts.ts). Companies are the
// tenancy root, so these write the scope's own company row by id (never another).

export async function saveTimeContexts(
  scope: CompanyScope,
  input: { currentOffsetMs: number; future: { offsetMs: number; effectivedate: string } | null },
): Promise<void> {
  await scope.db
    .updateTable('companies')
    .set({
      time_context_offset_ms: input.currentOffsetMs,
      future_time_context_offset_ms: input.future?.offsetMs ?? null,
      future_time_context_effective: input.future?.effectivedate ?? null,
    })
    .where('id', '=', scope.companyId)
    .execute();
}
