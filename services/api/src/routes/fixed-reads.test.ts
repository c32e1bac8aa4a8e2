import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '@takt/db/testing';
import { companyScope } from '@takt/db';
import { createSession } from '../repositories/sessions';
import { insertShift } from '../repositories/shifts';
import type { ApiHarness } from '../testing/app';
import { apiHarness } from '../testing/app';
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
});
