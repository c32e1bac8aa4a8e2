import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { shiftSchema } from '@takt/domain';
import type { Shift } from '@takt/domain';
import type { ApiHarness } from '../testing/app';
import { apiHarness } from '../testing/app';
import { aMachine } from '../testing/builders';
import { DIALECTS } from '@takt/db/testing';
import { aShift, errorOf, issueFields, loginAs } from '../testing/live-builders';

// Shift administration: reports-admin §4 (created, pending versions, terminate, undo, delete pending), §5
// (effective date rules and texts), §7 calls, §9 (new shift: 8 hours from the last shift's end); decision 0704.
// The harness clock: Saturday 2025-11-22 02:26:40 in America/Chicago (CST, UTC−6), so tomorrow is 11-23.

const shifts = z.array(shiftSchema);
const DAY = 86_400_000;

describe.each(DIALECTS)('shift administration on %s', (dialect) => {
  let h: ApiHarness;
  beforeEach(async () => {
    h = await apiHarness(dialect);
  });
  afterEach(async () => {
    await h.close();
  });

  const view = async (res: Response, status = 200): Promise<Shift> => {
    expect(res.status).toBe(status);
    return shiftSchema.parse(await res.json());
  };
  const list = async (cookie: string, query = '') =>
    shifts.parse(await (await h.get(`/api/shifts${query}`, cookie)).json());

  it('offers a new shift of 8 hours from the end of the last shift, effective tomorrow', async () => {
    const { company, cookie } = await h.tenant();
    const defaults = async () => (await h.get('/api/shifts/defaults', cookie)).json();
    expect(await defaults()).toEqual({
      name: '',
      startoffsetminutes: 360,
      endoffsetminutes: 840,
      byweekday: [0, 1, 2, 3, 4],
      effectivedate: '2025-11-23',
    });
    await aShift(h.t.db, company, { name: 'Day', startoffsetminutes: 360, endoffsetminutes: 840 });
    await aShift(h.t.db, company, { name: 'Swing', startoffsetminutes: 840, endoffsetminutes: 1320 });
    expect(await defaults()).toMatchObject({ startoffsetminutes: 1320, endoffsetminutes: 360 });
    // A body with just a name takes the defaults.
    const created = await view(await h.send('POST', '/api/shifts', cookie, { name: 'Night' }), 201);
    expect(created.latest).toMatchObject({ startoffsetminutes: 1320, endoffsetminutes: 360 });
  });

  it('refuses a shift that overlaps another until the admin confirms the overlap (decision 1050)', async () => {
    const { company, cookie } = await h.tenant();
    const day = await aShift(h.t.db, company, {
      name: 'Day',
      startoffsetminutes: 360,
      endoffsetminutes: 870,
    });
    const swing = {
      name: 'Swing',
      startoffsetminutes: 840,
      endoffsetminutes: 1320,
      byweekday: [0, 1, 2, 3, 4],
    };
    const refused = await h.send('POST', '/api/shifts', cookie, swing);
    expect(refused.status).toBe(409);
    const message =
      'This shift overlaps Day on Mon 14:00–14:30 and 4 more days. ' +
      'Overlapping time counts for the shift that starts first. Send allowOverlap: true to keep the overlap.';
    expect(await errorOf(refused)).toMatchObject({ code: 'SHIFT_OVERLAP', message });
    expect((await list(cookie)).map((s) => s.name)).toEqual(['Day']);
    // Confirmed, it is saved; an edit of its times that overlaps again needs the confirmation again.
    const saved = await view(
      await h.send('POST', '/api/shifts', cookie, { ...swing, allowOverlap: true }),
      201,
    );
    const edit = { startoffsetminutes: 870, endoffsetminutes: 1320, effectivedate: '2025-11-24' };
    expect((await h.send('PUT', `/api/shifts/${saved.id}`, cookie, edit)).status).toBe(200);
    const back = await h.send('PUT', `/api/shifts/${day}`, cookie, { ...edit, startoffsetminutes: 900 });
    expect(back.status).toBe(409);
  });

  it('gives every shift a chart colour, by name order', async () => {
    const { company, cookie } = await h.tenant();
    const b = await aShift(h.t.db, company, { name: 'B' });
    const a = await aShift(h.t.db, company, { name: 'A' });
    const res = await h.get('/api/shifts/color', cookie);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([
      { id: a, name: 'A', color: '#1f5fbf' },
      { id: b, name: 'B', color: '#e07b00' },
    ]);
  });

  it('renames at once and keeps one pending version for new times, which needs an effective date', async () => {
    const { cookie, company } = await h.tenant();
    const id = await aShift(h.t.db, company, { name: 'Day', startoffsetminutes: 360, endoffsetminutes: 840 });
    const renamed = await view(await h.send('PUT', `/api/shifts/${id}`, cookie, { name: 'Early' }));
    expect(renamed).toMatchObject({ name: 'Early', latest: { startoffsetminutes: 360 } });

    const noDate = await h.send('PUT', `/api/shifts/${id}`, cookie, { startoffsetminutes: 420 });
    expect(noDate.status).toBe(400);
    const e = await errorOf(noDate);
    expect(e.message).toBe('Missing required field: Effective Date');
    expect(issueFields(e)).toEqual(['effectivedate']);
    const empty = await h.send('PUT', `/api/shifts/${id}`, cookie, {
      startoffsetminutes: 840,
      effectivedate: '2025-11-24',
    });
    expect((await errorOf(empty)).message).toBe('A shift cannot be empty');
    const today = await h.send('PUT', `/api/shifts/${id}`, cookie, {
      byweekday: [0],
      effectivedate: '2025-11-22',
    });
    expect((await errorOf(today)).message).toBe(
      'The effective date must be from tomorrow to one month ahead.',
    );
    const noDays = await h.send('PUT', `/api/shifts/${id}`, cookie, {
      byweekday: [],
      effectivedate: '2025-11-24',
    });
    expect((await errorOf(noDays)).message).toBe('Select at least one day');

    const pending = await view(
      await h.send('PUT', `/api/shifts/${id}`, cookie, {
        startoffsetminutes: 420,
        effectivedate: '2025-11-25',
      }),
    );
    expect(pending.current).toMatchObject({ startoffsetminutes: 360 });
    expect(pending.latest).toMatchObject({ startoffsetminutes: 420, endoffsetminutes: 840 });
    const replaced = await view(
      await h.send('PUT', `/api/shifts/${id}`, cookie, {
        endoffsetminutes: 900,
        byweekday: [0, 1],
        effectivedate: '2025-11-24',
      }),
    );
    // Fields left out come from the latest version; the new version replaced the pending one.
    expect(replaced.latest).toMatchObject({
      startoffsetminutes: 420,
      endoffsetminutes: 900,
      byweekday: [0, 1],
    });
    const stored = await h.t.db
      .selectFrom('shift_versions')
      .select('effectivedate')
      .where('shift_id', '=', id)
      .execute();
    expect(stored.map((v) => v.effectivedate).sort()).toEqual(['2020-01-01', '2025-11-24']);
  });

  it('terminates from tomorrow (or a given date), dropping later versions; undo and terminate again', async () => {
    const { cookie, company } = await h.tenant();
    const id = await aShift(h.t.db, company, { name: 'Day' });
    await h.send('PUT', `/api/shifts/${id}`, cookie, {
      startoffsetminutes: 420,
      effectivedate: '2025-11-30',
    });
    const bad = await h.send('PUT', `/api/shifts/${id}/terminate`, cookie, { terminationdate: '2025-11-22' });
    expect((await errorOf(bad)).message).toBe(
      'The termination date must be from tomorrow to one month ahead.',
    );

    const ended = await view(await h.send('PUT', `/api/shifts/${id}/terminate`, cookie));
    expect(ended).toMatchObject({
      terminated: false, // it still runs today
      latest: { startoffsetminutes: 360, is_termination_set: true, terminationdate: '2025-11-23' },
    });
    const again = await h.send('PUT', `/api/shifts/${id}/terminate`, cookie);
    expect(again.status).toBe(409);
    expect((await errorOf(again)).message).toBe('The shift is already terminated.');
    const edit = await h.send('PUT', `/api/shifts/${id}`, cookie, { name: 'X' });
    expect((await errorOf(edit)).message).toBe('Undo the termination before editing the shift.');

    // A termination still ahead is simply undone.
    const restored = await view(await h.send('PUT', `/api/shifts/${id}/restore`, cookie));
    expect(restored.latest).toMatchObject({ is_termination_set: false, terminationdate: null });
    const notTerminated = await h.send('PUT', `/api/shifts/${id}/restore`, cookie);
    expect((await errorOf(notTerminated)).message).toBe('The shift is not terminated.');

    await h.send('PUT', `/api/shifts/${id}/terminate`, cookie, { terminationdate: '2025-11-25' });
    expect((await list(cookie))[0]?.latest?.terminationdate).toBe('2025-11-25');
  });

  it('hides terminated shifts on request, and restores one terminated in the past from tomorrow', async () => {
    const { cookie, company } = await h.tenant();
    const id = await aShift(h.t.db, company, { name: 'Day' });
    await h.send('PUT', `/api/shifts/${id}/terminate`, cookie);
    h.clock.now += 3 * DAY; // Tuesday 2025-11-25
    expect((await list(cookie))[0]?.terminated).toBe(true);
    expect(await list(cookie, '?includeTerminated=false')).toEqual([]);

    const restored = await view(await h.send('PUT', `/api/shifts/${id}/restore`, cookie));
    // The past stays as it was: terminated until today, running again from tomorrow.
    expect(restored).toMatchObject({
      terminated: true,
      current: { terminationdate: '2025-11-23' },
      latest: { startoffsetminutes: 360, is_termination_set: false },
    });
    h.clock.now += DAY;
    expect((await list(cookie))[0]).toMatchObject({ terminated: false });
  });

  it('deletes the pending change; a shift that only existed as one goes altogether', async () => {
    const { cookie, company } = await h.tenant();
    const id = await aShift(h.t.db, company, { name: 'Day' });
    const none = await h.send('DELETE', `/api/shifts/${id}/pending`, cookie);
    expect(none.status).toBe(404);
    expect((await errorOf(none)).message).toBe('The shift has no pending change.');
    await h.send('PUT', `/api/shifts/${id}`, cookie, {
      startoffsetminutes: 420,
      effectivedate: '2025-11-24',
    });
    const back = await view(await h.send('DELETE', `/api/shifts/${id}/pending`, cookie));
    expect(back.latest).toMatchObject({ startoffsetminutes: 360 });

    const created = await view(await h.send('POST', '/api/shifts', cookie, { name: 'Later' }), 201);
    const notStarted = await h.send('PUT', `/api/shifts/${created.id}/terminate`, cookie);
    expect(notStarted.status).toBe(409);
    expect((await errorOf(notStarted)).message).toBe(
      'The shift has not started yet: delete its pending change instead.',
    );
    const gone = await h.send('DELETE', `/api/shifts/${created.id}/pending`, cookie);
    expect(gone.status).toBe(204);
    expect((await list(cookie)).map((s) => s.name)).toEqual(['Day']);
  });

  it('marks rollups dirty when a change reaches a day that has begun', async () => {
    const { cookie, company } = await h.tenant();
    const machine = await aMachine(h.t.db, company);
    const other = await h.tenant();
    await aMachine(h.t.db, other.company);
    const marks = (companyId: string) =>
      h.t.db
        .selectFrom('rollup_dirty')
        .select(['machine_id', 'from_at'])
        .where('company_id', '=', companyId)
        .execute();
    // Tomorrow's shifts start after now: nothing stored changes.
    await h.send('POST', '/api/shifts', cookie, { name: 'A' });
    expect(await marks(company.id)).toEqual([]);
    // Company days from 06:00: at 02:26 Saturday the shop date is Friday, so "tomorrow" is Saturday, whose
    // midnight has passed.
    await h.t.db
      .updateTable('companies')
      .set({ time_context_offset_ms: 6 * 3_600_000 })
      .where('id', '=', company.id)
      .execute();
    expect(
      (await h.send('POST', '/api/shifts', cookie, { name: 'B', effectivedate: '2025-11-22' })).status,
    ).toBe(201);
    expect(await marks(company.id)).toEqual([
      { machine_id: machine, from_at: Date.parse('2025-11-22T06:00:00Z') },
    ]);
    expect(await marks(other.company.id)).toEqual([]);
  });

  it('lets only admins change shifts; another company gets 404 and changes nothing', async () => {
    const { cookie, company } = await h.tenant();
    const id = await aShift(h.t.db, company, { name: 'Day' });
    const operator = await loginAs(h, company, 'operator');
    const other = await h.tenant();
    for (const who of [operator, other.cookie]) {
      const status = who === operator ? 403 : 404;
      expect((await h.send('PUT', `/api/shifts/${id}`, who, { name: 'X' })).status).toBe(status);
      expect((await h.send('PUT', `/api/shifts/${id}/terminate`, who)).status).toBe(status);
      expect((await h.send('PUT', `/api/shifts/${id}/restore`, who)).status).toBe(status);
      expect((await h.send('DELETE', `/api/shifts/${id}/pending`, who)).status).toBe(status);
    }
    expect(await (await h.get('/api/shifts/color', other.cookie)).json()).toEqual([]);
    expect(await list(cookie)).toMatchObject([
      { name: 'Day', terminated: false, latest: { terminationdate: null } },
    ]);
    expect((await h.send('PUT', '/api/shifts/no-such-shift', cookie, { name: 'X' })).status).toBe(404);
  });
});
