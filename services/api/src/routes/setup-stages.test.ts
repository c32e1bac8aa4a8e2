import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { setupStageSchema } from '@takt/domain';
import type { ApiHarness } from '../testing/app';
import { apiHarness } from '../testing/app';
import { DIALECTS } from '@takt/db/testing';
import { aSetupStage, errorOf, issueFields, loginAs } from '../testing/live-builders';

// Setup stages save (reports-admin §2 ordered list, archive, restore; §5 percentages total exactly 100; §7
// "setup stages (save takes setupStages)"; §8 the UI falls back to "Unable to submit").

const PATH = '/api/setup/stages';
const stages = z.array(setupStageSchema);

describe.each(DIALECTS)('setup stages save on %s', (dialect) => {
  let h: ApiHarness;
  beforeEach(async () => {
    h = await apiHarness(dialect);
  });
  afterEach(async () => {
    await h.close();
  });

  const active = async (cookie: string, query = '') =>
    stages.parse(await (await h.get(`${PATH}${query}`, cookie)).json());

  it('updates, creates, archives the stages left out and restores an archived one', async () => {
    const { company, cookie } = await h.tenant();
    const a = await aSetupStage(h.t.db, company, { name: 'Teardown', stageOrder: 0, setupPercentage: 50 });
    const b = await aSetupStage(h.t.db, company, { name: 'Tooling', stageOrder: 1, setupPercentage: 50 });
    const old = await aSetupStage(h.t.db, company, { name: 'Old', archivedAt: 1 });
    const res = await h.send('PUT', PATH, cookie, {
      setupStages: [
        { id: b, name: 'Tooling ', stageOrder: 0, setupPercentage: 40 },
        { name: 'First article', stageOrder: 1, setupPercentage: 35 },
        { id: old, name: 'Old', stageOrder: 2, setupPercentage: 25 },
      ],
    });
    expect(res.status).toBe(200);
    const saved = stages.parse(await res.json());
    expect(saved.map((s) => [s.name, s.stageOrder, s.setupPercentage, s.archivedAt])).toEqual([
      ['Tooling', 0, 40, null],
      ['First article', 1, 35, null],
      ['Old', 2, 25, null],
    ]);
    expect(await active(cookie)).toEqual(saved);
    const all = await active(cookie, '?includeArchived=true');
    expect(all.find((s) => s.id === a)?.archivedAt).toBe(h.clock.now);
  });

  it('answers the usual error list: percentages must total 100, names required, ids of this company', async () => {
    const { company, cookie } = await h.tenant();
    const total = await h.send('PUT', PATH, cookie, {
      setupStages: [
        { name: 'A', stageOrder: 0, setupPercentage: 40 },
        { name: ' ', stageOrder: 1, setupPercentage: 50 },
      ],
    });
    expect(total.status).toBe(400);
    const e = await errorOf(total);
    expect(e.code).toBe('VALIDATION_ERROR');
    expect(issueFields(e)).toEqual(['setupStages', 'setupStages.1.name']);
    expect(e.issues?.map((i) => i.message)).toEqual(
      expect.arrayContaining(['Setup stage percentages must total 100', 'Missing required field: Name']),
    );

    const other = await h.tenant();
    const theirs = await aSetupStage(h.t.db, other.company, { name: 'Theirs' });
    const mine = await aSetupStage(h.t.db, company, { name: 'Mine' });
    const foreign = await h.send('PUT', PATH, cookie, {
      setupStages: [{ id: theirs, name: 'Stolen', stageOrder: 0, setupPercentage: 100 }],
    });
    expect(foreign.status).toBe(400);
    expect(await errorOf(foreign)).toMatchObject({
      message: 'Setup stage not found.',
      issues: [{ field: 'setupStages.0.id', code: 'not_found', message: 'Setup stage not found.' }],
    });
    const twice = await h.send('PUT', PATH, cookie, {
      setupStages: [
        { id: mine, name: 'Mine', stageOrder: 0, setupPercentage: 50 },
        { id: mine, name: 'Mine', stageOrder: 1, setupPercentage: 50 },
      ],
    });
    expect((await errorOf(twice)).message).toContain('A setup stage is listed twice.');
    // Nothing changed, here or there.
    expect((await active(cookie)).map((s) => s.name)).toEqual(['Mine']);
    expect((await active(other.cookie)).map((s) => s.name)).toEqual(['Theirs']);
  });

  it('is for admins only; an empty list archives every stage', async () => {
    const { company, cookie } = await h.tenant();
    await aSetupStage(h.t.db, company, { name: 'Only', setupPercentage: 100 });
    const operator = await loginAs(h, company, 'operator');
    expect((await h.send('PUT', PATH, operator, { setupStages: [] })).status).toBe(403);
    expect(await active(cookie)).toHaveLength(1);
    expect((await h.send('PUT', PATH, cookie, { setupStages: [] })).status).toBe(200);
    expect(await active(cookie)).toEqual([]);
  });
});
