import { sql } from 'kysely';
import type { Kysely, KyselyPlugin } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '@takt/db/testing';
import { companyScope } from '@takt/db';
import type { Database } from '@takt/db';
import { loadCalendar, loadCompanyClock, NoSuchCompany } from '@takt/db/rollups';
import { createSession } from '../repositories/sessions';
import { insertShift } from '../repositories/shifts';
import type { ApiHarness } from '../testing/app';
import { apiHarness, apiHarnessOn } from '../testing/app';
import { aCompany, aMachine } from '../testing/builders';

// A request's fixed reads (decision 1210): the session with its user, company and anonymize preference in one
// statement, the calendar in one. Nothing is kept across requests: what changed is seen by the very next one,
// and a session resolves only its own company's user, preferences and shifts.

const D = Date.UTC(2025, 10, 17);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

interface Utilization {
  intervals: Array<{ start: number }>;
}

describe.each(DIALECTS)('a request’s fixed reads on %s', (dialect) => {
  let h: ApiHarness;
  beforeEach(async () => {
    h = await apiHarness(dialect);
  });
  afterEach(async () => {
    await h.close();
  });

  const report = `/api/reports/utilization?start=${D}&end=${D + 2 * DAY}&interval=day`;

  it('sees a time zone changed, a shift and a machine added, anonymize turned on and a logout on the very next request', async () => {
    const { company, cookie } = await h.tenant();
    await aMachine(h.t.db, company, { name: 'Mill Alpha' });
    const starts = async () =>
      ((await (await h.get(report, cookie)).json()) as Utilization).intervals.map((i) => i.start);
    // America/Chicago: days start at 06:00 UTC in November; in UTC at midnight.
    expect(await starts()).toEqual([D, D + 6 * HOUR, D + 30 * HOUR]);
    await h.t.db.updateTable('companies').set({ timezone: 'UTC' }).where('id', '=', company.id).execute();
    expect(await starts()).toEqual([D, D + DAY]);

    const shiftId = await insertShift(companyScope(h.t.db, company.id), { name: 'Early', createdAt: D });
    const withShift = `${report}&shifts=${shiftId}`;
    expect((await h.get(`${report}&shifts=not-yet`, cookie)).status).toBe(404);
    expect((await h.get(withShift, cookie)).status).toBe(200);

    await aMachine(h.t.db, company, { name: 'Lathe Beta' });
    expect(await (await h.get(report, cookie)).text()).toContain('Lathe Beta');

    expect((await h.send('PUT', '/api/me/preferences', cookie, { anonymize: true })).status).toBe(200);
    const hidden = await (await h.get(report, cookie)).text();
    expect(hidden).not.toMatch(/Mill Alpha|Lathe Beta/);

    expect((await h.send('DELETE', '/logout', cookie)).status).toBe(204);
    expect((await h.get(report, cookie)).status).toBe(401);
  });

  it("resolves a session only with its own company's user, preferences and shifts", async () => {
    const a = await h.tenant();
    await aMachine(h.t.db, a.company, { name: 'Mill Alpha' });
    const other = await aCompany(h.t.db);
    // A session row of another company naming this company's user opens nothing.
    const { token } = await createSession(h.t.db, { companyId: other.id, userId: a.user.id }, Date.now());
    expect((await h.get(report, `takt_session=${token}`)).status).toBe(401);
    // Another company's preferences under the same user id do not anonymize this company's answers.
    await h.t.db
      .insertInto('user_preferences')
      .values({ user_id: a.user.id, company_id: other.id, anonymize: 1, updated_at: D })
      .execute();
    expect(await (await h.get(report, a.cookie)).text()).toContain('Mill Alpha');
    // Another company's shift is no shift of this company's calendar.
    const theirs = await insertShift(companyScope(h.t.db, other.id), { name: 'Theirs', createdAt: D });
    expect((await h.get(`${report}&shifts=${theirs}`, a.cookie)).status).toBe(404);
  });

  it('answers 401 for a company gone before the request or between its authentication and its calendar', async () => {
    // The company a session was of is gone, as a company is removed: its sessions and users with it (foreign keys).
    const removeCompany = async (db: Kysely<Database>, id: string) => {
      for (const table of ['sessions', 'user_preferences', 'users', 'live_generations'] as const)
        await sql`delete from ${sql.table(table)} where company_id = ${id}`.execute(db);
      await sql`delete from companies where id = ${id}`.execute(db);
    };
    const gone = await h.tenant();
    await removeCompany(h.t.db, gone.company.id);
    const before = await h.get(report, gone.cookie);
    expect({ status: before.status, body: await before.json() }).toEqual({
      status: 401,
      body: { error: { code: 'NOT_AUTHENTICATED', message: 'You are not logged in.' } },
    });

    // Removed right after the request's one authentication statement read the session (decision 1210), before the
    // report reads the calendar (decision 1221): the same answer, not a 500.
    const t = h.t;
    const ids = new Map<unknown, string>();
    let armed: string | null = null;
    let removed: Promise<void> = Promise.resolve();
    const racing: KyselyPlugin = {
      transformQuery(args) {
        ids.set(args.queryId, t.db.getExecutor().compileQuery(args.node, args.queryId).sql);
        return args.node;
      },
      async transformResult(args) {
        const text = ids.get(args.queryId) ?? '';
        ids.delete(args.queryId);
        if (armed && /"sessions" as "s"/.test(text) && /"companies" as "c"/.test(text)) {
          const id = armed;
          armed = null;
          // SQLite's one connection is held until this returns: the removal's transaction is queued for it, ahead of
          // the request's next statement; PostgreSQL removes it on another connection before the request goes on.
          removed = t.db.transaction().execute((trx) => removeCompany(trx, id));
          if (dialect === 'postgres') await removed;
        }
        return args.result;
      },
    };
    const raced = apiHarnessOn({ ...t, db: t.db.withPlugin(racing), cleanup: async () => {} });
    const during = await raced.tenant();
    armed = during.company.id;
    const res = await raced.get(report, during.cookie);
    await removed;
    expect(armed).toBeNull();
    expect({ status: res.status, body: await res.json() }).toEqual({
      status: 401,
      body: { error: { code: 'NOT_AUTHENTICATED', message: 'You are not logged in.' } },
    });
  });

  it('says which company is missing from either calendar read', async () => {
    const missing = 'no-such-company';
    await expect(loadCalendar(h.t.db, missing)).rejects.toBeInstanceOf(NoSuchCompany);
    await expect(loadCompanyClock(h.t.db, missing)).rejects.toThrow(`company ${missing} does not exist`);
  });
});
