import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { CompanyCalendar, CompanyClock, ShiftDefinition } from '@takt/domain';
import type { Database } from '../schema';

interface ClockColumns {
  timezone: string;
  time_context_offset_ms: number;
  future_time_context_offset_ms: number | null;
  future_time_context_effective: string | null;
}

const clockOf = (company: ClockColumns): CompanyClock => ({
  timezone: company.timezone,
  currentTimeContext: { offset_millis: company.time_context_offset_ms },
  futureTimeContext:
    company.future_time_context_offset_ms != null && company.future_time_context_effective
      ? {
          offset_millis: company.future_time_context_offset_ms,
          effectivedate: company.future_time_context_effective,
        }
      : null,
});

/**
 * The company asked for does not exist (decision 1221): both calendar reads throw it, so every caller can tell a
 * company that is gone (the API answers 401, as the next request's authentication would) from a failure.
 */
export class NoSuchCompany extends Error {
  override readonly name = 'NoSuchCompany';
  constructor(readonly companyId: string) {
    super(`company ${companyId} does not exist`);
  }
}

/** The company's time zone and start-of-day contexts (the one read of them for clocks). */
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
    .executeTakeFirst();
  if (!company) throw new NoSuchCompany(companyId);
  return clockOf(company);
}

/**
 * One row of the calendar's read: `k` 'c' the company's clock (a timezone, b future effective date, m offset,
 * n future offset), 's' a shift (a id, b name), 'v' a shift version (a shift id, b byweekday, d effectivedate,
 * e terminationdate, m start offset, n end offset).
 */
interface CalendarRow {
  k: 'c' | 's' | 'v';
  a: string;
  b: string | null;
  d: string | null;
  e: string | null;
  m: number | null;
  n: number | null;
}

/**
 * The company's calendar: time zone, start-of-day contexts and shifts with every version, in one statement
 * (decision 1210: three reads were three waits for a pooled connection under load), each part filtered by the
 * company.
 */
export async function loadCalendar(db: Kysely<Database>, companyId: string): Promise<CompanyCalendar> {
  const { rows } = await sql<CalendarRow>`
    select 'c' as k, timezone as a, future_time_context_effective as b, null as d, null as e,
      time_context_offset_ms as m, future_time_context_offset_ms as n
    from companies where id = ${companyId}
    union all
    select 's', id, name, null, null, null, null from shifts where company_id = ${companyId}
    union all
    select 'v', shift_id, byweekday, effectivedate, terminationdate, startoffsetminutes, endoffsetminutes
    from shift_versions where company_id = ${companyId}`.execute(db);
  const company = rows.find((r) => r.k === 'c');
  if (!company) throw new NoSuchCompany(companyId);
  const clock = clockOf({
    timezone: company.a,
    time_context_offset_ms: Number(company.m),
    future_time_context_offset_ms: company.n == null ? null : Number(company.n),
    future_time_context_effective: company.b,
  });
  // By effective date, as the versions were read before (ISO dates: text order is date order).
  const versions = rows.filter((r) => r.k === 'v').sort((x, y) => (x.d! < y.d! ? -1 : x.d! > y.d! ? 1 : 0));
  const definitions: ShiftDefinition[] = rows
    .filter((r) => r.k === 's')
    .map((s) => ({
      id: s.a,
      name: s.b!,
      versions: versions
        .filter((v) => v.a === s.a)
        .map((v) => ({
          startoffsetminutes: Number(v.m),
          endoffsetminutes: Number(v.n),
          byweekday: v.b!.split(',').filter(Boolean).map(Number),
          effectivedate: v.d!,
          terminationdate: v.e,
        })),
    }));
  return { ...clock, shifts: definitions };
}
