import {
  checkRange,
  epochMs,
  isOverrideType,
  overrideLabel,
  overrideSteps,
  overrideSummary,
} from '@takt/domain';
import type { CompanyScope } from '@takt/db';
import { loadCompanyClock } from '@takt/db/rollups';
import { invalidInput, notFound } from '../http/errors';
import { adapterFieldTypes } from '../repositories/diagnostics';
import { getMachine } from '../repositories/machines';
import { lastOfKeysBefore, observationsOfKeys } from '../repositories/overrides';

// GET /api/reports/overrides (reports-admin §2 "Overrides report: step charts", §7; decision 0807): one step
// series per override field of the machine's adapter, with the value in force at the range start.

/** How far before the range the value in force at its start is looked for. */
export const OVERRIDE_LOOKBACK_MS = 24 * 3_600_000;

export async function overridesReport(
  scope: CompanyScope,
  q: { machineId: string; start: number; end: number },
  now: number,
) {
  if (!(await getMachine(scope, q.machineId))) throw notFound('Machine');
  const clock = await loadCompanyClock(scope.db, scope.companyId);
  const check = checkRange(clock, { start: epochMs(q.start), end: epochMs(q.end) }, 'overrides');
  if (!check.ok) throw invalidInput([{ field: 'end', code: check.error, message: check.message }]);
  const fields = [...(await adapterFieldTypes(scope, q.machineId))]
    .filter(([, f]) => isOverrideType(f.dataItemType))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const keys = fields.map(([key]) => key);
  // Nothing is known after now: the last step ends there, not at a future range end.
  const range = { start: q.start, end: Math.min(q.end, Math.max(q.start, now)) };
  const [rows, before] = await Promise.all([
    observationsOfKeys(scope, q.machineId, keys, range),
    lastOfKeysBefore(scope, q.machineId, keys, q.start - OVERRIDE_LOOKBACK_MS, q.start),
  ]);
  return {
    range: { start: q.start, end: q.end },
    until: range.end,
    series: fields.map(([key, f]) => {
      const steps = overrideSteps(
        before.get(key) ?? null,
        rows.filter((r) => r.key === key),
        range,
      );
      return {
        key,
        dataItemType: f.dataItemType,
        dataItemSubtype: f.dataItemSubtype,
        label: overrideLabel(f.dataItemType, f.dataItemSubtype, key),
        steps,
        summary: overrideSummary(steps, range.end),
      };
    }),
  };
}
