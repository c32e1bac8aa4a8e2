import type { Kysely } from 'kysely';
import type { CompanyCalendar, CompanyClock, ShiftDefinition } from '@takt/domain';
import type { Database } from '../schema';

/** The company's time zone and start-of-day contexts (the one read of them for calendars and clocks). */
export async function loadCompanyClock(db: Kysely<Database>, companyId: string): Promise<CompanyClock> {
  const company = await db
    .selectFrom('companies')
    .select([
      'timezone',
      'time_context_offset_ms',
      'future_time_context_offset_ms',
      'future_time_context_effective',
    ])
    .where('id', '=', companyId)
    .executeTakeFirstOrThrow();
  return {
    timezone: company.timezone,
    currentTimeContext: { offset_millis: company.time_context_offset_ms },
    futureTimeContext:
      company.future_time_context_offset_ms != null && company.future_time_context_effective
        ? {
            offset_millis: company.future_time_context_offset_ms,
            effectivedate: company.future_time_context_effective,
          }
        : null,
  };
}

/** The company's calendar: time zone, start-of-day contexts and shifts with every version. */
export async function loadCalendar(db: Kysely<Database>, companyId: string): Promise<CompanyCalendar> {
  const clock = await loadCompanyClock(db, companyId);
  const [shifts, versions] = await Promise.all([
    db.selectFrom('shifts').select(['id', 'name']).where('company_id', '=', companyId).execute(),
    db
      .selectFrom('shift_versions')
      .selectAll()
      .where('company_id', '=', companyId)
      .orderBy('effectivedate')
      .execute(),
  ]);
  const definitions: ShiftDefinition[] = shifts.map((s) => ({
    id: s.id,
    name: s.name,
    versions: versions
      .filter((v) => v.shift_id === s.id)
      .map((v) => ({
        startoffsetminutes: v.startoffsetminutes,
        endoffsetminutes: v.endoffsetminutes,
        byweekday: v.byweekday.split(',').filter(Boolean).map(Number),
        effectivedate: v.effectivedate,
        terminationdate: v.terminationdate,
      })),
  }));
  return { ...clock, shifts: definitions };
}
