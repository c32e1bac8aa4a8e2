import 'fake-indexeddb/auto';
import { ApiError } from '@takt/ui';
import type { ApiClient } from '@takt/ui';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../endpoints/endpoints';
import { FloorDb, KV, kvGet, kvPut } from './db';
import { pullMachine } from './refdata';

let db: FloorDb;
let n = 0;
beforeEach(async () => {
  db = new FloorDb(`refdata-test-${++n}`);
  await db.open();
});
afterEach(async () => {
  db.close();
  await db.delete();
});

const FLAGS = {
  enable_setup_stages: true,
  hide_remove_rejected_parts_checkbox: true,
  areActivitiesEnabled: false,
  cycleinputoption: 'timepercycle',
  enable_tablet_machine_switching: false,
  downtime_list_filter_duration: 60_000,
  currentTimeContext: { offset_millis: 0 },
  product_tier: 'full',
};
const RUN = { id: 'run-1', job_id: 'j1', jobName: 'Bracket', enddate: null };

/** An API whose answers are given by path; a path given an Error fails with it; others answer null. */
function fakeApi(answers: Record<string, unknown>, onRequest?: (path: string) => Promise<void>): ApiClient {
  return {
    async request(path: string) {
      await onRequest?.(path);
      if (path === '/api/dashboard') return { machines: [], groups: [], now: 1 };
      if (path === ENDPOINTS.jobs) return { rows: [], count: 0 };
      const a = answers[path];
      if (a instanceof Error) throw a;
      return a ?? null;
    },
  } as unknown as ApiClient;
}

describe('pullMachine', () => {
  it('stores the company flags and the machine’s open run', async () => {
    await pullMachine(fakeApi({ [ENDPOINTS.companyFlags]: FLAGS, [ENDPOINTS.currentRun]: RUN }), db, 'm1', 1);
    expect(await kvGet(db, KV.companyFlags)).toEqual(FLAGS);
    expect(await kvGet(db, KV.currentRun('m1'))).toEqual(RUN);
  });

  it('keeps the last stored value of a call that fails (offline defaults only before the first load)', async () => {
    await kvPut(db, KV.companyFlags, FLAGS, 0);
    const failing = new ApiError(500, 'INTERNAL', 'boom');
    await pullMachine(fakeApi({ [ENDPOINTS.companyFlags]: failing }), db, 'm1', 1);
    expect(await kvGet(db, KV.companyFlags)).toEqual(FLAGS);
  });

  it('keeps a run this tablet stored while the pull was under way (its own start answer is newer)', async () => {
    const mine = { ...RUN, id: 'run-2' };
    const api = fakeApi({ [ENDPOINTS.currentRun]: RUN }, async (path) => {
      if (path === ENDPOINTS.currentRun) await kvPut(db, KV.currentRun('m1'), mine, Date.now() + 1000);
    });
    await pullMachine(api, db, 'm1', 1);
    expect(await kvGet(db, KV.currentRun('m1'))).toEqual(mine);
  });

  it('fails when nothing answers, and on a 401 at once', async () => {
    const offline = new TypeError('Failed to fetch');
    const down = {
      request: () => Promise.reject(offline),
    } as unknown as ApiClient;
    await expect(pullMachine(down, db, 'm1', 1)).rejects.toBe(offline);
    const expired = new ApiError(401, 'NOT_AUTHENTICATED', 'Log in');
    await expect(pullMachine(fakeApi({ [ENDPOINTS.operators]: expired }), db, 'm1', 1)).rejects.toBe(expired);
  });
});
