import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { companyScope, runRawRetention } from '@takt/db';
import { outboxTransport } from '../mail/transport';
import { listOutboxMail } from '../testing/mail-outbox';
import { EVENT_EXPORT_TEXTS, runEventExports } from '../services/event-exports';
import type { ApiHarness } from '../testing/app';
import { apiHarness } from '../testing/app';
import { aMachine } from '../testing/builders';
import type { Company } from '../repositories/company';
import { DIALECTS } from '@takt/db/testing';
import { errorOf, issueFields, loginAs } from '../testing/live-builders';
import { aTablet } from '../testing/tablet-builders';

// live-operations §5 (event export range), §7 (machineId, start, end, filterKeys), §8 text; decision 0702.

const QUEUE = '/api/reports/event/queue';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe.each(DIALECTS)('event export on %s', (dialect) => {
  let h: ApiHarness;
  beforeEach(async () => {
    h = await apiHarness(dialect);
  });
  afterEach(async () => {
    await h.close();
  });

  const work = () => runEventExports({ db: h.t.db, now: () => h.clock.now, mail: outboxTransport });

  async function machineWithEvents(company: Company) {
    const machineId = await aMachine(h.t.db, company, { name: 'Mill 1' });
    const t = h.clock.now - 2 * HOUR;
    await companyScope(h.t.db, company.id)
      .insertInto('observations', [
        { machine_id: machineId, ts: t, key: 'execution', value: 'ACTIVE' },
        { machine_id: machineId, ts: t + 1000, key: 'program', value: 'O1000, "roughing"' },
        { machine_id: machineId, ts: t + 2000, key: 'execution', value: 'READY' },
        { machine_id: machineId, ts: t - DAY, key: 'execution', value: 'OUT OF RANGE' },
      ])
      .execute();
    return { machineId, t };
  }

  it('queues (202 with the §8 text), builds the CSV in the background and mails the link', async () => {
    const { company, user, cookie } = await h.tenant();
    const { machineId, t } = await machineWithEvents(company);
    const res = await h.send('POST', QUEUE, cookie, {
      machineId,
      start: t - HOUR,
      end: h.clock.now,
      filterKeys: ['execution'],
    });
    expect(res.status).toBe(202);
    const { id, message } = (await res.json()) as { id: string; message: string };
    expect(message).toBe("We'll send that to you within an hour.");

    // Not built yet.
    const early = await h.get(`/api/reports/export/download/${id}`, cookie);
    expect(early.status).toBe(409);
    expect((await errorOf(early)).message).toBe('The export is not ready yet.');

    expect(await work()).toBe(1);
    expect(await work()).toBe(0);
    const [mail] = await listOutboxMail(companyScope(h.t.db, company.id));
    expect(mail).toMatchObject({ to: user.email, subject: 'Your event export for Mill 1 is ready' });
    expect(mail?.text).toContain(`http://localhost:8080/api/reports/export/download/${id}`);

    const csv = await h.get(`/api/reports/export/download/${id}`, cookie);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect(csv.headers.get('content-disposition')).toContain('events-Mill_1-');
    expect(await csv.text()).toBe(
      'timestamp,ts,key,value\r\n' +
        `${new Date(t).toISOString()},${t},execution,ACTIVE\r\n` +
        `${new Date(t + 2000).toISOString()},${t + 2000},execution,READY\r\n`,
    );
  });

  it('exports every key when filterKeys is empty, and opens by ?token= like other CSV links', async () => {
    const { company, cookie } = await h.tenant();
    const { machineId, t } = await machineWithEvents(company);
    const res = await h.send('POST', QUEUE, cookie, {
      machineId,
      start: t,
      end: h.clock.now,
      filterKeys: [],
    });
    const { id } = (await res.json()) as { id: string };
    await work();
    const { token } = (await (await h.get('/api/user-token', cookie)).json()) as { token: string };
    const csv = await h.app.request(`/api/reports/export/download/${id}?token=${encodeURIComponent(token)}`);
    expect(csv.status).toBe(200);
    const lines = (await csv.text()).trim().split('\r\n');
    expect(lines).toHaveLength(4);
    expect(lines[2]).toBe(`${new Date(t + 1000).toISOString()},${t + 1000},program,"O1000, ""roughing"""`);
  });

  it('answers 400 with clear text: start before end, at most 2 years back, not in the future', async () => {
    const { company, cookie } = await h.tenant();
    const machineId = await aMachine(h.t.db, company);
    const now = h.clock.now;
    const reversed = await h.send('POST', QUEUE, cookie, {
      machineId,
      start: now - HOUR,
      end: now - 2 * HOUR,
    });
    expect(reversed.status).toBe(400);
    expect(await errorOf(reversed)).toMatchObject({ message: 'Start Date must be before End Date' });

    const twoYears = Date.parse('2023-11-22T08:26:40Z'); // the harness clock, two years back
    const old = await h.send('POST', QUEUE, cookie, { machineId, start: twoYears - 1, end: now });
    expect(old.status).toBe(400);
    const e = await errorOf(old);
    expect(e.message).toBe('Start Date cannot be more than 2 years ago');
    expect(issueFields(e)).toEqual(['start']);
    expect((await h.send('POST', QUEUE, cookie, { machineId, start: twoYears, end: now })).status).toBe(202);

    // A client clock up to a minute ahead still means "until now".
    expect(
      (await h.send('POST', QUEUE, cookie, { machineId, start: now - HOUR, end: now + 60_000 })).status,
    ).toBe(202);
    const future = await h.send('POST', QUEUE, cookie, { machineId, start: now - HOUR, end: now + 60_001 });
    expect(future.status).toBe(400);
    expect((await errorOf(future)).message).toBe('End Date cannot be in the future');

    const missing = await h.send('POST', QUEUE, cookie, { start: now - HOUR, end: now });
    expect(issueFields(await errorOf(missing))).toEqual(['machineId']);
  });

  it('lets any user of the company export, not a tablet', async () => {
    const { company } = await h.tenant();
    const operator = await loginAs(h, company, 'operator');
    const machineId = await aMachine(h.t.db, company);
    const body = { machineId, start: h.clock.now - HOUR, end: h.clock.now };
    expect((await h.send('POST', QUEUE, operator, body)).status).toBe(202);
    const tablet = await aTablet(h.t.db, company, machineId, h.clock.now);
    expect((await h.send('POST', QUEUE, tablet.cookie, body)).status).toBe(403);
  });

  it('builds each export once when two workers (API processes) share the queue', async () => {
    const { company, cookie } = await h.tenant();
    const { machineId, t } = await machineWithEvents(company);
    for (let i = 0; i < 3; i++)
      await h.send('POST', QUEUE, cookie, { machineId, start: t - HOUR, end: h.clock.now });
    const [a, b] = await Promise.all([work(), work()]);
    expect(a + b).toBe(3);
    expect(await listOutboxMail(companyScope(h.t.db, company.id))).toHaveLength(3);
  });

  it('exports what raw retention kept and says in the mail where the kept data begins (decision 1132)', async () => {
    const { company, cookie } = await h.tenant();
    const { machineId, t } = await machineWithEvents(company);
    // A pass whose floor is the start of t's day: the row a day before t goes, the others stay.
    const floor = Math.floor(t / DAY) * DAY;
    const pass = await runRawRetention(h.t.db, 1, floor + DAY);
    expect(pass.floor).toBe(floor);
    const res = await h.send('POST', QUEUE, cookie, { machineId, start: t - 2 * DAY, end: h.clock.now });
    const { id } = (await res.json()) as { id: string };
    expect(await work()).toBe(1);
    const [mail] = await listOutboxMail(companyScope(h.t.db, company.id));
    expect(mail?.text).toContain(EVENT_EXPORT_TEXTS.removedBefore(new Date(floor).toISOString()));
    const csv = await (await h.get(`/api/reports/export/download/${id}`, cookie)).text();
    expect(csv).not.toContain('OUT OF RANGE');
    expect(csv.split('\r\n').filter(Boolean)).toHaveLength(4);
  });

  it("never exports or serves another company's machine", async () => {
    const mine = await h.tenant();
    const theirs = await h.tenant();
    const { machineId, t } = await machineWithEvents(theirs.company);
    const body = { machineId, start: t - HOUR, end: h.clock.now };
    const refused = await h.send('POST', QUEUE, mine.cookie, body);
    expect(refused.status).toBe(404);
    expect(await work()).toBe(0);

    const { id } = (await (await h.send('POST', QUEUE, theirs.cookie, body)).json()) as { id: string };
    await work();
    expect((await h.get(`/api/reports/export/download/${id}`, mine.cookie)).status).toBe(404);
    expect((await h.get(`/api/reports/export/download/${id}`, theirs.cookie)).status).toBe(200);
    expect(await listOutboxMail(companyScope(h.t.db, mine.company.id))).toEqual([]);
  });
});
