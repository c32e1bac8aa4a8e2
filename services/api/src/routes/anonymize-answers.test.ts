import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '@takt/db/testing';
import type { ApiHarness } from '../testing/app';
import { apiHarness } from '../testing/app';
import { aMachine } from '../testing/builders';

// The anonymize option (decision 1116): with it on, report and dashboard answers and their CSV downloads name
// machines "Machine N" and the company "Company"; administration reads keep the real names.

const D = Date.UTC(2025, 10, 17);
const HOUR = 3_600_000;

describe.each(DIALECTS)('anonymized answers on %s', (dialect) => {
  let h: ApiHarness;
  beforeEach(async () => {
    h = await apiHarness(dialect);
  });
  afterEach(async () => {
    await h.close();
  });

  async function plant() {
    const tenant = await h.tenant();
    const ids = [
      await aMachine(h.t.db, tenant.company, { name: 'Mill Alpha' }),
      await aMachine(h.t.db, tenant.company, { name: 'Lathe Beta' }),
    ];
    // Both made at the same time: numbered by id.
    const [first, second] = [...ids].sort();
    const standIn = new Map([
      [first!, 'Machine 1'],
      [second!, 'Machine 2'],
    ]);
    return { ...tenant, ids, standIn };
  }

  it('replaces machine and company names in the dashboard, /api/me and a report CSV, not in admin reads', async () => {
    const { company, cookie, ids, standIn } = await plant();
    const real = (await (await h.get('/api/dashboard', cookie)).json()) as {
      machines: Array<{ id: string; name: string }>;
    };
    expect(real.machines.map((m) => m.name).sort()).toEqual(['Lathe Beta', 'Mill Alpha']);

    expect((await h.send('PUT', '/api/me/preferences', cookie, { anonymize: true })).status).toBe(200);
    const dashboard = (await (await h.get('/api/dashboard', cookie)).json()) as {
      machines: Array<{ id: string; name: string }>;
    };
    expect(dashboard.machines.map((m) => [m.id, m.name]).sort()).toEqual(
      ids.map((id) => [id, standIn.get(id)]).sort(),
    );
    const me = (await (await h.get('/api/me', cookie)).json()) as { company: { name: string } };
    expect(me.company.name).toBe('Company');

    const path = `/api/reports/utilization?start=${D}&end=${D + 8 * HOUR}`;
    const report = await (await h.get(path, cookie)).text();
    expect(report).not.toMatch(/Mill Alpha|Lathe Beta/);
    expect(report).toContain('Machine 1');
    // A browser's call (decision 1248: a shared answer may come gzipped): the same anonymized JSON, as text.
    const hourly = `${path}&interval=hour`;
    const plainHourly = await (await h.get(hourly, cookie)).text();
    expect(plainHourly.length).toBeGreaterThan(1_024);
    const browser = await h.app.request(hourly, { headers: { cookie, 'accept-encoding': 'gzip, br' } });
    expect(browser.headers.get('content-encoding')).toBeNull();
    expect(await browser.text()).toBe(plainHourly);
    expect(plainHourly).not.toMatch(/Mill Alpha|Lathe Beta/);
    const csvRes = await h.get(`${path}&format=csv`, cookie);
    expect(csvRes.headers.get('content-type')).toMatch(/text\/csv/);
    const csv = await csvRes.text();
    expect(csv).not.toMatch(/Mill Alpha|Lathe Beta/);
    expect(csv).toContain('Machine 2');

    // The report reads the office sends as POST (the OEE and production reports) too.
    const range = { start: D, end: D + 8 * HOUR };
    for (const [path, body] of [
      ['/api/oee/bymachine', { ...range, intervalType: 'hour', efficiencyMetric: 'oee', machines: ids }],
      ['/api/reports/warehouse/production', { ...range, data: ['oee'], groupBy: ['machine'] }],
    ] as const) {
      const res = await h.send('POST', path, cookie, body);
      expect(res.status, path).toBe(200);
      const text = await res.text();
      expect(text, path).not.toMatch(/Mill Alpha|Lathe Beta/);
      expect(text, path).toContain('Machine 1');
    }

    // A CSV link (the user's link token, no cookie) is the same user's: anonymized too.
    const { token } = (await (await h.get('/api/user-token', cookie)).json()) as { token: string };
    const linked = await (await h.get(`${path}&format=csv&token=${token}`, '')).text();
    expect(linked).toBe(csv);

    // Administration keeps the real names, so no form saves a stand-in.
    const admin = (await (await h.get(`/api/machines/${ids[0]}`, cookie)).json()) as { name: string };
    expect(admin.name).toBe('Mill Alpha');
    expect(company.name).not.toBe('Company');
  });

  it('leaves another company with its own real names, and real names again once turned off', async () => {
    const mine = await plant();
    await h.send('PUT', '/api/me/preferences', mine.cookie, { anonymize: true });
    const other = await h.tenant();
    // Another company's user reads their own names only, never stand-ins or ours.
    await aMachine(h.t.db, other.company, { name: 'Their Press' });
    const theirs = await (await h.get('/api/dashboard', other.cookie)).text();
    expect(theirs).toContain('Their Press');
    expect(theirs).not.toMatch(/Mill Alpha|Machine 1/);
    // Turned off again: real names.
    await h.send('PUT', '/api/me/preferences', mine.cookie, { anonymize: false });
    expect(await (await h.get('/api/dashboard', mine.cookie)).text()).toContain('Mill Alpha');
  });
});
